import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** One downsampled bucket (GET /devices/{id}/readings?points=N on a level sensor). */
export interface LevelBucket {
  ts: string;
  min: number;
  max: number;
  mean: number;
  count: number;
}

export interface LevelTrendAnswer {
  mode: 'buckets';
  from: string;
  to: string;
  bucketMs: number;
  items: LevelBucket[];
}

/** The dashboard's charts (each card's, and the comparison): the last hour in one-minute buckets; live readings continue it. */
export const LAST_HOUR_MS = 3600_000;
const LAST_HOUR_POINTS = 60;
// Under the ~5 min the live socket's per-device history (100 readings) reaches back.
const REFRESH_MS = 120_000;

export function getLevelTrend(deviceId: string, signal?: AbortSignal): Promise<LevelTrendAnswer> {
  const to = Date.now();
  return api.get<LevelTrendAnswer>(
    `/devices/${encodeURIComponent(deviceId)}/readings`,
    { from: new Date(to - LAST_HOUR_MS).toISOString(), to: new Date(to).toISOString(), points: LAST_HOUR_POINTS },
    signal,
  );
}

/** One query per device, shared by its card and the comparison chart (one request for both). */
export const levelTrendQueryOptions = (deviceId: string) =>
  queryOptions({
    queryKey: [...queryKeys.deviceReadings(deviceId), 'last-hour'] as const,
    queryFn: ({ signal }) => getLevelTrend(deviceId, signal),
    staleTime: REFRESH_MS / 2,
    refetchInterval: REFRESH_MS,
    retry: 1,
  });

export function useLevelTrend(deviceId: string) {
  return useQuery(levelTrendQueryOptions(deviceId));
}
