/**
 * Times in the server's time zone (the process's TZ, PRODUCT.md) for exports. Offsets are
 * multiples of 15 minutes and change only at such instants, so one lookup per 15-minute slot
 * serves every reading in it: exports call this a million times.
 */
const SLOT_MS = 15 * 60 * 1000;

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
  wallClock(tsMs: number): Date {
    return new Date(tsMs + this.offsetAt(tsMs));
  }

  /** ISO 8601 with the local offset, e.g. 2026-11-22T11:00:00.000+01:00. */
  isoWithOffset(tsMs: number): string {
    const offset = this.offsetAt(tsMs);
    const local = new Date(tsMs + offset).toISOString().slice(0, 23);
    const abs = Math.abs(offset) / 60_000;
    const hh = String(Math.floor(abs / 60)).padStart(2, '0');
    const mm = String(abs % 60).padStart(2, '0');
    return `${local}${offset < 0 ? '-' : '+'}${hh}:${mm}`;
  }
}
