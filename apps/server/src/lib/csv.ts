// The CSV every export writes (docs/api.md "Readings and export", security.md "CSV exports"); needs nothing.
import type { PassThrough } from 'node:stream';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** What a spreadsheet reads as the start of a formula (OWASP "CSV Injection"): = + - @, tab, CR. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number, which a spreadsheet reads as a number whatever its sign: `-1.25`, `+3`, `1e-3`. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * One CSV field. A field that a spreadsheet would run as a formula (`=HYPERLINK(…)` in an alarm
 * comment, a device name starting with `@`) gets a leading `'`, so it is shown as text; plain
 * numbers stay numbers. Then RFC 4180: quoted when it holds a comma, a quote or a line break,
 * quotes doubled.
 */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line of fields, CRLF-terminated. */
export const csvLine = (fields: readonly string[]): string => `${fields.map(csvField).join(',')}\r\n`;

/** The first bytes of every CSV export: a BOM (Excel then reads UTF-8) and the header line. */
export const csvHeader = (names: readonly string[]): string => `\uFEFF${csvLine(names)}`;

/** Writes a chunk and resolves when `out` can take more (backpressure), or is gone. */
export function writeChunk(out: PassThrough, chunk: string): Promise<void> {
  if (out.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}
