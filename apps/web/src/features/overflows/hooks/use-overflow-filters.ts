import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { toDayRange } from '@/lib/day-range';
import type { OverflowFilters } from '@/lib/overflow-cache';

/** What the filter form shows; kept in the URL so a filtered view can be shared or reloaded. */
export interface OverflowFilterValues {
  deviceId: string;
  /** Days as yyyy-mm-dd (the user's calendar), both inclusive. */
  from: string;
  to: string;
}

const KEYS = ['deviceId', 'from', 'to'] as const;

/** The API filters of the form, or an error text (a 'Desde' after 'Hasta'). */
export function toOverflowFilters(v: OverflowFilterValues): { filters: OverflowFilters } | { error: string } {
  const days = toDayRange(v.from, v.to);
  if ('error' in days) return days;
  return { filters: { ...days.range, ...(v.deviceId ? { deviceId: v.deviceId } : {}) } };
}

export function useOverflowFilters() {
  const [params, setParams] = useSearchParams();
  const values = useMemo<OverflowFilterValues>(
    () => ({ deviceId: params.get('deviceId') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '' }),
    [params],
  );

  const set = useCallback(
    (changes: Partial<OverflowFilterValues>) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(changes)) {
            if (value) next.set(key, value);
            else next.delete(key);
          }
          return next;
        },
        // Filter tweaks replace the entry: Back leaves the screen instead of undoing each one.
        { replace: true },
      );
    },
    [setParams],
  );

  const clear = useCallback(() => setParams(new URLSearchParams(), { replace: true }), [setParams]);
  const active = KEYS.some((k) => values[k] !== '');
  return { values, set, clear, active };
}
