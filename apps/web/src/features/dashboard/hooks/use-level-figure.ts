import { levelThresholdsOf, type Device, type ReadingStatus } from '@agua/shared';
import { useNow } from '@/hooks/use-now';
import { hasLiveReading, isReadingStale, levelConfig } from '@/lib/device-helpers';

export interface LevelFigure {
  /** The level to show now, or null: none yet, or older than the offline timeout (then '—'). */
  value: number | null;
  /** The last value even when it is too old to show as the level ('Último valor …'). */
  lastValue: number | null;
  unit: string;
  ts: string | null;
  status: ReadingStatus | null;
  stale: boolean;
  /** Fill in percent of maxLevel, or null when there is no level to show. */
  percent: number | null;
  maxLevel: number;
  warningPct: number;
  criticalPct: number;
}

/** A level sensor's figure as every screen shows it (docs/operator-console.md: unknown and old look unknown). */
export function useLevelFigure(device: Device): LevelFigure {
  const now = useNow();
  const { maxLevel, warningPct, criticalPct } = levelThresholdsOf(levelConfig(device) ?? {});
  const reading = hasLiveReading(device) && typeof device.reading?.value === 'number' ? device.reading : null;
  const lastValue = reading && typeof reading.value === 'number' ? reading.value : null;
  const stale = reading ? isReadingStale(device, now) : false;
  const value = stale ? null : lastValue;
  return {
    value,
    lastValue,
    unit: reading?.unit ?? 'm',
    ts: reading?.ts ?? null,
    status: reading && !stale ? reading.status : null,
    stale,
    percent: value === null ? null : (value / maxLevel) * 100,
    maxLevel,
    warningPct,
    criticalPct,
  };
}
