const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Local midnight of a yyyy-mm-dd day, plus `addDays`. */
function localMidnight(day: string, addDays = 0): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + addDays);
}

export interface IsoRange {
  from?: string;
  to?: string;
}

/**
 * 'Desde' / 'Hasta' days (yyyy-mm-dd of the user's calendar, both inclusive) as the API's ISO
 * range, or an error text. The API's `to` is exclusive: 'Hasta' becomes the next day's midnight.
 */
export function toDayRange(fromDay: string, toDay: string): { range: IsoRange } | { error: string } {
  const range: IsoRange = {};
  if (fromDay && DAY.test(fromDay)) range.from = localMidnight(fromDay).toISOString();
  if (toDay && DAY.test(toDay)) range.to = localMidnight(toDay, 1).toISOString();
  if (range.from && range.to && range.from >= range.to) return { error: 'La fecha «Desde» debe ser anterior o igual a «Hasta».' };
  return { range };
}

/** A local calendar day as yyyy-mm-dd, `addDays` from today (0: today, -1: yesterday). */
export function localDay(addDays = 0, now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + addDays);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
