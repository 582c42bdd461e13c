import type { PassThrough } from 'node:stream';
import { csvField, csvHeader, writeChunk } from '../../lib/csv';
import type { ExportPlan } from './history.service';
import { EXPORT_HEADERS, statusLabel, type RowSource } from './export-xlsx';
import { LocalClock } from './local-time';

/**
 * Streams the CSV of an export plan into `out` (docs/api.md): UTF-8 with BOM, comma-separated, CRLF,
 * a `Dispositivo` column (the device id) first, dates ISO 8601 with the server's offset, '.' as
 * decimal mark (JavaScript's number formatting), the same rows as the workbook. Text fields go
 * through csvField (formula-looking ones neutralised); numbers and dates cannot start a formula.
 */
export async function writeCsv(out: PassThrough, plan: ExportPlan, rows: RowSource): Promise<void> {
  const clock = new LocalClock();
  out.write(csvHeader(['Dispositivo', ...EXPORT_HEADERS]));
  for (const device of plan.devices) {
    const id = csvField(device.id);
    for await (const batch of rows(device.id, plan.range)) {
      if (out.destroyed) return;
      let chunk = '';
      for (const r of batch) {
        const value = r.valueNum !== null ? String(r.valueNum) : csvField(r.valueText ?? '');
        chunk += `${id},${clock.isoWithOffset(r.tsMs)},${value},${r.valueNum !== null ? 'm' : ''},${csvField(statusLabel(r.status))}\r\n`;
      }
      await writeChunk(out, chunk);
    }
  }
  if (!out.destroyed) out.end();
}
