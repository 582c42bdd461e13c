import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { analyticsStep, type AnalyticsStep } from '../utils/analytics-step';
import { rangeKey, resolveRange, type TrendRange } from '../utils/time-range';

/** One bucket of a level sensor's water figures (docs/api.md, GET /devices/{id}/analytics). */
export interface AnalyticsItem {
  /** The bucket's start. */
  ts: string;
  level: number;
  /** The mean volume of the bucket's readings; null without a shape. */
  volumeM3: number | null;
  netFlowM3h: number | null;
  inflowM3: number | null;
  outflowM3: number | null;
}

export interface AnalyticsSeries {
  from: string;
  to: string;
  step: AnalyticsStep;
  items: AnalyticsItem[];
}

/** GET /devices/{id}/analytics?from&to&step: empty buckets are left out. */
export function getDeviceAnalytics(deviceId: string, params: { from: string; to: string; step: AnalyticsStep }, signal?: AbortSignal): Promise<AnalyticsSeries> {
  return api.get<AnalyticsSeries>(`/devices/${encodeURIComponent(deviceId)}/analytics`, params, signal);
}

/**
 * The volume trend of the range on screen, its step chosen by the range's span. A range that ends
 * now is fetched again every minute-bucket or at most every 2 minutes (the current volume, from
 * the live socket, ends the curve in between).
 */
export function useDeviceAnalytics(deviceId: string, range: TrendRange, enabled: boolean) {
  const { fromMs, toMs, live } = resolveRange(range, Date.now());
  const step = analyticsStep(toMs - fromMs);
  return useQuery({
    queryKey: [...queryKeys.deviceReadings(deviceId), 'analytics', rangeKey(range)] as const,
    queryFn: ({ signal }) => {
      // Preset ranges end "now": times are taken when the request goes out, so a refetch slides them.
      const r = resolveRange(range, Date.now());
      return getDeviceAnalytics(deviceId, { from: new Date(r.fromMs).toISOString(), to: new Date(r.toMs).toISOString(), step }, signal);
    },
    enabled,
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === deviceId ? previous : undefined),
    refetchInterval: live ? (step === '1m' ? 60_000 : 120_000) : false,
    staleTime: live ? 15_000 : Infinity,
  });
}
