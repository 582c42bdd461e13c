import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Reading } from '@agua/shared';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { rangeKey, resolveRange, type TrendRange } from '../utils/time-range';

/** One downsampled bucket of a level sensor's readings (ts = bucket start). */
export interface ReadingBucket {
  ts: string;
  min: number;
  max: number;
  mean: number;
  count: number;
}

export interface ReadingPage {
  items: Reading[];
  nextCursor: string | null;
}

export interface LevelTrend {
  mode: 'buckets';
  from: string;
  to: string;
  bucketMs: number;
  items: ReadingBucket[];
}

/** A gate's state changes in the range (the first reading in the range always included). */
export interface GateChanges {
  mode: 'changes';
  from: string;
  to: string;
  items: Reading[];
  /** More changes than asked for: the newest ones are missing. */
  truncated: boolean;
}

export type DeviceTrend = LevelTrend | GateChanges;

/** The server answers at most this many buckets (docs/api.md) — and a chart has no more pixels. */
export const MAX_TREND_POINTS = 2000;
/** State changes asked for a gate: far more than a gate makes in 30 days of normal work. */
export const GATE_MAX_CHANGES = 5000;

const readingsPath = (deviceId: string) => `/devices/${encodeURIComponent(deviceId)}/readings`;

/** GET /devices/{id}/readings?from&to&limit&cursor: a page of stored readings, oldest first. */
export function getDeviceReadings(
  deviceId: string,
  params: { from?: string; to?: string; limit?: number; cursor?: string | null },
  signal?: AbortSignal,
): Promise<ReadingPage> {
  return api.get<ReadingPage>(readingsPath(deviceId), params, signal);
}

/**
 * GET /devices/{id}/readings?from&to&points=N: level sensors answer ≤ N buckets, gates their
 * state changes (≤ N). Both shapes come back tagged by `mode`.
 */
export function getDeviceTrend(deviceId: string, params: { from: string; to: string; points: number }, signal?: AbortSignal): Promise<DeviceTrend> {
  return api.get<DeviceTrend>(readingsPath(deviceId), params, signal);
}

export interface TrendQueryInput {
  deviceId: string;
  isGate: boolean;
  range: TrendRange;
  /** Buckets wanted (≈ plot width in px); ignored for gates. */
  points: number;
}

export function deviceTrendQueryOptions({ deviceId, isGate, range, points }: TrendQueryInput) {
  const wanted = isGate ? GATE_MAX_CHANGES : Math.max(10, Math.min(MAX_TREND_POINTS, Math.round(points)));
  return queryOptions({
    queryKey: [...queryKeys.deviceReadings(deviceId), 'trend', rangeKey(range), wanted] as const,
    // Preset ranges end "now": times are taken when the request goes out, so a refetch slides them.
    queryFn: ({ signal }) => {
      const { fromMs, toMs } = resolveRange(range, Date.now());
      return getDeviceTrend(deviceId, { from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), points: wanted }, signal);
    },
  });
}

/**
 * Refetch cadence of a live range: often enough that the live socket's short per-device history
 * (100 readings ≈ 5 min) always reaches back to the last fetch, so appended readings leave no gap.
 */
function liveRefetchMs(spanMs: number): number {
  return Math.min(120_000, Math.max(30_000, spanMs / 120));
}

export function useDeviceTrend(input: TrendQueryInput, enabled = true) {
  const { fromMs, toMs, live } = resolveRange(input.range, Date.now());
  return useQuery({
    ...deviceTrendQueryOptions(input),
    enabled,
    // Keeps the old curve on screen while a new width or range of the same device loads (no
    // flicker, no layout jump); another device's curve must never stand in for this one's.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === input.deviceId ? previous : undefined),
    refetchInterval: live ? liveRefetchMs(toMs - fromMs) : false,
    staleTime: live ? 15_000 : Infinity,
  });
}
