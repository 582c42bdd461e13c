/** Spanish date/time labels for charts, in the browser's time zone (Intl, LOCALE of lib/format). */
import { LOCALE } from '@/lib/format';

const hm = new Intl.DateTimeFormat(LOCALE, { hour: '2-digit', minute: '2-digit' });
const hms = new Intl.DateTimeFormat(LOCALE, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dayMonth = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'short' });
const full = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;

/**
 * Tick labels of a time axis (uPlot `values`): times of day while ticks are less than a day apart,
 * with the date added under the first tick of each day; dates alone for wider ticks.
 */
export function timeAxisValues(splits: number[], incrSeconds: number): string[] {
  let previousDay = '';
  return splits.map((s) => {
    const d = new Date(s * 1000);
    if (incrSeconds >= 86_400) return dayMonth.format(d);
    const time = incrSeconds < 60 ? hms.format(d) : hm.format(d);
    const day = dayKey(d);
    const withDay = day !== previousDay;
    previousDay = day;
    return withDay ? `${time}\n${dayMonth.format(d)}` : time;
  });
}

/** A point in time for the cursor readout, e.g. '22 nov 2026, 08:06:11'. */
export function formatInstant(ms: number): string {
  return full.format(new Date(ms));
}

/** Tick labels of a short time axis (an hour on a card): times of day only, one line each. */
export function clockAxisValues(splits: number[]): string[] {
  return splits.map((s) => hm.format(new Date(s * 1000)));
}
