import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EscalationPolicy } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /notifications/escalation */
export function getEscalation(signal?: AbortSignal): Promise<EscalationPolicy> {
  return api.get<EscalationPolicy>('/notifications/escalation', undefined, signal);
}

export const escalationQueryOptions = queryOptions({
  queryKey: queryKeys.escalation,
  queryFn: ({ signal }) => getEscalation(signal),
});

export function useEscalation() {
  return useQuery(escalationQueryOptions);
}

/** PUT /notifications/escalation */
export function useSaveEscalation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (policy: EscalationPolicy) => api.put<EscalationPolicy>('/notifications/escalation', policy),
    onSuccess: (policy) => queryClient.setQueryData(queryKeys.escalation, policy),
  });
}

/** POST /notifications/test-email: a test e-mail to the signed-in admin's own address. */
export function useTestEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ queued: number }>('/notifications/test-email'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.deliveries }),
  });
}
