import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlarmRule, AlarmRuleUpdateBody } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

const rulesKey = (deviceId: string) => [...queryKeys.alarms, 'rules', deviceId] as const;

/** GET /devices/{id}/alarm-rules */
export function useAlarmRules(deviceId: string, enabled: boolean) {
  return useQuery({
    queryKey: rulesKey(deviceId),
    queryFn: ({ signal }) => api.get<AlarmRule[]>(`/devices/${encodeURIComponent(deviceId)}/alarm-rules`, undefined, signal),
    enabled,
  });
}

/** PUT /devices/{id}/alarm-rules/{ruleId} (manage_devices). */
export function useSaveAlarmRule(deviceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ruleId, changes }: { ruleId: string; changes: AlarmRuleUpdateBody }) =>
      api.put<AlarmRule>(`/devices/${encodeURIComponent(deviceId)}/alarm-rules/${encodeURIComponent(ruleId)}`, changes),
    onSuccess: (rule) => queryClient.setQueryData<AlarmRule[]>(rulesKey(deviceId), (rules) => rules?.map((r) => (r.id === rule.id ? rule : r))),
  });
}
