import type { PassThrough } from 'node:stream';
import type { ExportPlan } from './history.service';
import { EXPORT_HEADERS, statusLabel, type RowSource } from './export-xlsx';
import { LocalClock } from './local-time';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Resolves when `out` can take more, or is gone. */
function drained(out: PassThrough): Promise<void> {
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

/**
 * Streams the CSV of an export plan into `out` (API.md): UTF-8 with BOM, comma-separated, CRLF,
 * a `Dispositivo` column (the device id) first, dates ISO 8601 with the server's offset, '.' as
 * decimal mark (JavaScript's number formatting), the same rows as the workbook.
 */
export async function writeCsv(out: PassThrough, plan: ExportPlan, rows: RowSource): Promise<void> {
  const clock = new LocalClock();
  out.write(`\uFEFF${['Dispositivo', ...EXPORT_HEADERS].map(csvField).join(',')}\r\n`);
  for (const device of plan.devices) {
    const id = csvField(device.id);
    for await (const batch of rows(device.id, plan.range)) {
      if (out.destroyed) return;
      let chunk = '';
      for (const r of batch) {
        const value = r.valueNum !== null ? String(r.valueNum) : csvField(r.valueText ?? '');
        chunk += `${id},${clock.isoWithOffset(r.tsMs)},${value},${r.valueNum !== null ? 'm' : ''},${csvField(statusLabel(r.status))}\r\n`;
      }
      if (!out.write(chunk)) await drained(out);
    }
  }
  if (!out.destroyed) out.end();
}
