import { useEffect } from 'react';
import type { Schedule } from '@agua/shared';
import { queryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';

/** A run goes at most 5 s after its time (docs/control.md): the list is asked again a little after that. */
const AFTER_RUN_MS = 7_000;
/** setTimeout's ceiling is about 24.8 days; a later run is waited for in steps. */
const MAX_WAIT_MS = 2 ** 31 - 1;

/**
 * Asks a gate's schedules again once the earliest next run is due: its `nextRunAt` moves on, which
 * no frame says when the socket is down (the `schedule.run` frame does it otherwise).
 */
export function useNextRunRefresh(deviceId: string, schedules: readonly Schedule[] | undefined): void {
  const next = schedules?.reduce<number | null>((min, s) => {
    const at = s.nextRunAt ? Date.parse(s.nextRunAt) : NaN;
    return Number.isFinite(at) && (min === null || at < min) ? at : min;
  }, null);
  useEffect(() => {
    if (next === null || next === undefined) return;
    const wait = Math.min(MAX_WAIT_MS, Math.max(1_000, next + AFTER_RUN_MS - Date.now()));
    const timer = setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.deviceSchedules(deviceId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.schedulePreviews });
    }, wait);
    return () => clearTimeout(timer);
  }, [deviceId, next]);
}
