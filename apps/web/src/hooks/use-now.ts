/**
 * One shared one-second clock for every "hace 3 s" on screen: a single interval no matter how
 * many cards tick, and it stops when nothing listens.
 */
import { useSyncExternalStore } from 'react';

const TICK_MS = 1000;
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** Current time in ms, re-rendering the caller once per second. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}
