import type { AlarmChangeRow, AlarmNoticeRow } from '../../storage/ingest/rows';
import { personJson, toRow, type AlarmChange } from './alarms.repository';

/**
 * An alarm change as the ingest store writes it: the alarm's row, its transition's row, and the
 * notice the notifications feature attached (its own type; the store's row is the same shape).
 */
export function toAlarmChangeRow({ alarm, transition: t, isNew, notice }: AlarmChange): AlarmChangeRow {
  return {
    alarm: toRow(alarm),
    isNew,
    transition: { atMs: t.atMs, from: t.from, to: t.to, byJson: personJson(t.by), comment: t.comment },
    notice: (notice as AlarmNoticeRow | undefined) ?? null,
  };
}

export const toAlarmChangeRows = (changes: AlarmChange[]): AlarmChangeRow[] => changes.map(toAlarmChangeRow);
