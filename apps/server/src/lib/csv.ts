// The CSV every export writes (API.md "Readings and export"); needs nothing.
import type { PassThrough } from 'node:stream';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
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
