import { isNewerReading } from '@agua/shared';
import type { CurrentReadingRow, ReadingRow } from './rows';

/** Each device's newest new reading of a commit, as the device's current reading is written (both engines). */
export function newestPerDevice(items: ReadingRow[], fresh: boolean[]): CurrentReadingRow[] {
  const latest = new Map<string, ReadingRow>();
  items.forEach((r, i) => {
    if (!fresh[i]) return;
    const prev = latest.get(r.deviceId);
    if (isNewerReading(prev?.tsMs, r.tsMs)) latest.set(r.deviceId, r);
  });
  return [...latest.values()].map(({ deviceId, tsMs, valueNum, valueText, status, rawNum, fromDevice, receivedMs }) => ({
    deviceId,
    tsMs,
    valueNum,
    valueText,
    status,
    rawNum,
    heardMs: fromDevice ? receivedMs : null,
  }));
}
