import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { toDayRange } from '../../../lib/day-range';
import type { AuditQuery } from '../api/get-audit-events';
import { isAuditAction } from '../utils/audit-labels';

/** What the filter form shows; kept in the URL so a filtered view can be shared or reloaded. */
export interface AuditFilterValues {
  userId: string;
  deviceId: string;
  action: string;
  /** Days as yyyy-mm-dd (the user's calendar), both inclusive. */
  from: string;
  to: string;
}

const KEYS = ['userId', 'deviceId', 'action', 'from', 'to'] as const;

/** The API query of the form, or an error text. */
export function toAuditQuery(v: AuditFilterValues): { query: AuditQuery } | { error: string } {
  const days = toDayRange(v.from, v.to);
  if ('error' in days) return days;
  const query: AuditQuery = { ...days.range };
  if (v.userId) query.userId = v.userId;
  if (v.deviceId) query.deviceId = v.deviceId;
  if (v.action && isAuditAction(v.action)) query.action = v.action;
  return { query };
}

export function useAuditFilters() {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => Object.fromEntries(KEYS.map((k) => [k, params.get(k) ?? ''])) as unknown as AuditFilterValues, [params]);

  const setValue = useCallback(
    (key: keyof AuditFilterValues, value: string) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value) next.set(key, value);
          else next.delete(key);
          return next;
        },
        // Filter tweaks replace the entry: Back leaves the screen instead of undoing each one.
        { replace: true },
      );
    },
    [setParams],
  );

  const setDays = useCallback(
    (from: string, to: string) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set('from', from);
          next.set('to', to);
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  const clear = useCallback(() => setParams(new URLSearchParams(), { replace: true }), [setParams]);
  const active = KEYS.some((k) => values[k] !== '');
  return { values, setValue, setDays, clear, active };
}
