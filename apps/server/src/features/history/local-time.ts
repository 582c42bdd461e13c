/**
 * Times in the server's time zone (the process's TZ, docs/product.md) for exports. Offsets are
 * multiples of 15 minutes and change only at such instants, so one lookup per 15-minute slot
 * serves every reading in it: exports call this a million times.
 */
const SLOT_MS = 15 * 60 * 1000;

/**
 * The wall-clock times an Excel date cell holds correctly: from 1900-03-01 (Excel counts a 29
 * February 1900 that never was, so its first two months are a day off; earlier dates do not exist
 * for it) to the end of 9999.
 */
const EXCEL_FIRST_MS = Date.UTC(1900, 2, 1);
const EXCEL_END_MS = Date.UTC(10000, 0, 1);

export class LocalClock {
  private slot = Number.NaN;
  private offsetMs = 0;

  /** Offset of local time from UTC at that instant, in ms (Madrid in winter: +3,600,000). */
  offsetAt(tsMs: number): number {
    const slot = Math.floor(tsMs / SLOT_MS);
    if (slot !== this.slot) {
      this.slot = slot;
      this.offsetMs = -new Date(tsMs).getTimezoneOffset() * 60_000;
    }
    return this.offsetMs;
  }

  /**
   * The local wall-clock time as a Date whose UTC fields hold it: Excel dates have no zone, and
   * ExcelJS turns a Date into a serial number from its UTC fields.
   */
  private wallClock(tsMs: number): Date {
    return new Date(tsMs + this.offsetAt(tsMs));
  }

  /**
   * What an Excel cell holds for that instant: a date cell of the wall-clock time, or, outside the
   * dates Excel has (before 1900-03-01, after 9999), the ISO text, which shows the time instead of
   * '#####' or a date a day off.
   */
  excelValue(tsMs: number): Date | string {
    const wall = this.wallClock(tsMs);
    const ms = wall.getTime();
    return ms >= EXCEL_FIRST_MS && ms < EXCEL_END_MS ? wall : this.isoWithOffset(tsMs);
  }

  /** ISO 8601 with the local offset, e.g. 2026-11-22T11:00:00.000+01:00 (years past 9999 as +010000-…). */
  isoWithOffset(tsMs: number): string {
    const offset = this.offsetAt(tsMs);
    const local = new Date(tsMs + offset).toISOString().slice(0, -1); // without the Z
    const abs = Math.abs(offset) / 60_000;
    const hh = String(Math.floor(abs / 60)).padStart(2, '0');
    const mm = String(abs % 60).padStart(2, '0');
    return `${local}${offset < 0 ? '-' : '+'}${hh}:${mm}`;
  }
}
