import type { ReportKind } from './reports';

/** A report's period: local dates YYYY-MM-DD, both included (docs/reports.md "Periods"). */
export interface ReportPeriod {
  from: string;
  to: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

const utcOf = (date: string): number => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
};

/** The date `days` calendar days after `date` (negative: before); by the calendar, not the clock. */
export function addDays(date: string, days: number): string {
  return new Date(utcOf(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** ISO weekday of a date: Monday 1 … Sunday 7. */
export function isoWeekday(date: string): number {
  return ((new Date(utcOf(date)).getUTCDay() + 6) % 7) + 1;
}

/** Days from `from` to `to`, both included (0 or less when `to` is before); null when either is not YYYY-MM-DD. */
export function periodDays(from: string, to: string): number | null {
  if (!DATE.test(from) || !DATE.test(to)) return null;
  return Math.round((utcOf(to) - utcOf(from)) / DAY_MS) + 1;
}

/**
 * The last complete period of a kind before the local date `today`: daily yesterday, weekly the
 * last Monday–Sunday, monthly and overflows the last calendar month.
 */
export function lastCompletePeriodBefore(kind: ReportKind, today: string): ReportPeriod {
  switch (kind) {
    case 'daily': {
      const day = addDays(today, -1);
      return { from: day, to: day };
    }
    case 'weekly': {
      const monday = addDays(today, 1 - isoWeekday(today));
      return { from: addDays(monday, -7), to: addDays(monday, -1) };
    }
    case 'monthly':
    case 'overflows': {
      const lastOfPrevious = addDays(`${today.slice(0, 8)}01`, -1);
      return { from: `${lastOfPrevious.slice(0, 8)}01`, to: lastOfPrevious };
    }
  }
}

const MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];

/** A local date as '27/11/2026' (the text itself when it is not a date). */
export function dateLabel(date: string): string {
  const m = DATE.exec(date);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : date;
}

/** A period in words, as screens and e-mails say it: '27/11/2026', 'noviembre de 2026' (a whole month), '23/11/2026 – 29/11/2026'. */
export function periodLabel(p: ReportPeriod): string {
  if (p.from === p.to) return dateLabel(p.from);
  const wholeMonth = DATE.test(p.from) && p.from.endsWith('-01') && p.to.slice(0, 7) === p.from.slice(0, 7) && DATE.test(p.to) && addDays(p.to, 1).endsWith('-01');
  if (wholeMonth) return `${MONTHS[Number(p.from.slice(5, 7)) - 1]} de ${p.from.slice(0, 4)}`;
  return `${dateLabel(p.from)} – ${dateLabel(p.to)}`;
}
