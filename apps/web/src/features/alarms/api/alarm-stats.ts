import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface AlarmStats {
  total: number;
  perTenMinutes: { max: number; mean: number };
  floods: number;
  chattering: Array<{ deviceId: string; kind: string; count: number }>;
  standing: number;
  meanTimeToAckS: number | null;
}

/** GET /alarms/stats over the last `hours`. */
export function useAlarmStats(hours: number) {
  return useQuery({
    queryKey: [...queryKeys.alarms, 'stats', hours] as const,
    queryFn: ({ signal }) => {
      const to = new Date();
      const from = new Date(to.getTime() - hours * 3600_000);
      return api.get<AlarmStats>('/alarms/stats', { from: from.toISOString(), to: to.toISOString() }, signal);
    },
    staleTime: 60_000,
  });
}
