import type { Interlock } from '@agua/shared';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';

/**
 * When a permissive check (GET /devices/{id}/permissives?command=…) on screen is asked again: when
 * a frame comes for a device its interlocks' conditions name (a reading, a device or alarm
 * change), at most once every MIN_GAP_MS; at once when an interlock changes. Never on a timer of
 * its own: the hook adds a slow backstop for conditions that change silently (a reading ageing).
 */
export const PERMISSIVE_MIN_GAP_MS = 5_000;

const timers = new Map<string, ReturnType<typeof setTimeout>>();

/** The enabled interlocks of a device's command. */
export function interlocksOf(interlocks: readonly Interlock[], deviceId: string, command: string): Interlock[] {
  return interlocks.filter((i) => i.enabled && i.deviceId === deviceId && i.command === command);
}

/** The devices whose frames may change a command's verdict: those its enabled interlocks' conditions name. */
export function devicesInvolved(interlocks: readonly Interlock[], deviceId: string, command: string): Set<string> {
  return new Set(interlocksOf(interlocks, deviceId, command).flatMap((i) => i.conditions.map((c) => c.deviceId)));
}

/** Whether a check whose devices are `involved` (unknown: 'all') is touched by frames of `touched`. */
export function isTouched(involved: Set<string> | 'all', touched: ReadonlySet<string>): boolean {
  if (involved === 'all') return touched.size > 0;
  for (const id of touched) if (involved.has(id)) return true;
  return false;
}

/** How long to wait before asking again, `lastMs` being when the answer on screen came. */
export function delayBeforeRefresh(lastMs: number, nowMs: number, gapMs = PERMISSIVE_MIN_GAP_MS): number {
  return Math.max(0, lastMs + gapMs - nowMs);
}

function refresh(key: readonly unknown[]): void {
  void queryClient.invalidateQueries({ queryKey: key, exact: true });
}

/**
 * After a batch of frames: `touched` are the devices they were about; `interlocksChanged` when an
 * interlock was created, changed, bypassed or removed (or a new snapshot came).
 */
export function refreshPermissives(touched: ReadonlySet<string>, interlocksChanged: boolean): void {
  const queries = queryClient.getQueryCache().findAll({ queryKey: queryKeys.allPermissives });
  if (queries.length === 0) return;
  const interlocks = queryClient.getQueryData<Interlock[]>(queryKeys.interlocks);
  const now = Date.now();
  for (const query of queries) {
    const [, deviceId, command] = query.queryKey as [string, string, string];
    const hash = query.queryHash;
    if (interlocksChanged) {
      const pending = timers.get(hash);
      if (pending) clearTimeout(pending);
      timers.delete(hash);
      refresh(query.queryKey);
      continue;
    }
    const involved = interlocks ? devicesInvolved(interlocks, deviceId, command) : 'all';
    if (!isTouched(involved, touched) || timers.has(hash)) continue;
    const wait = delayBeforeRefresh(query.state.dataUpdatedAt, now);
    if (wait === 0) {
      refresh(query.queryKey);
      continue;
    }
    timers.set(
      hash,
      setTimeout(() => {
        timers.delete(hash);
        refresh(query.queryKey);
      }, wait),
    );
  }
}

/** Forgets the waiting refreshes (on logout). */
export function cancelPermissiveRefreshes(): void {
  for (const t of timers.values()) clearTimeout(t);
  timers.clear();
}
