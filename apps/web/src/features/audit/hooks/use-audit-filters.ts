import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
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
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Local midnight of a yyyy-mm-dd day, plus `addDays`. */
function localMidnight(day: string, addDays = 0): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + addDays);
}

/**
 * The API query of the form, or an error text. 'Hasta' is inclusive for people, while the API's
 * `to` is exclusive: it becomes the next day's midnight.
 */
export function toAuditQuery(v: AuditFilterValues): { query: AuditQuery } | { error: string } {
  const query: AuditQuery = {};
  if (v.userId) query.userId = v.userId;
  if (v.deviceId) query.deviceId = v.deviceId;
  if (v.action && isAuditAction(v.action)) query.action = v.action;
  if (v.from && DAY.test(v.from)) query.from = localMidnight(v.from).toISOString();
  if (v.to && DAY.test(v.to)) query.to = localMidnight(v.to, 1).toISOString();
  if (query.from && query.to && query.from >= query.to) return { error: 'La fecha «Desde» debe ser anterior o igual a «Hasta».' };
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

  const clear = useCallback(() => setParams(new URLSearchParams(), { replace: true }), [setParams]);
  const active = KEYS.some((k) => values[k] !== '');
  return { values, setValue, clear, active };
}
