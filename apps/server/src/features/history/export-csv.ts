import type { PassThrough } from 'node:stream';
import { csvField, csvHeader, writeChunk } from '../../lib/csv';
import type { ExportPlan } from './history.service';
import { WATER_HEADERS, type WaterColumnsOf } from './export-water-columns';
import { EXPORT_HEADERS, statusLabel, type RowSource } from './export-xlsx';
import { LocalClock } from './local-time';
import type { HistoryRow } from './readings.repository';

/**
 * Streams the CSV of an export plan into `out` (docs/api.md): UTF-8 with BOM, comma-separated, CRLF,
 * a `Dispositivo` column (the device id) first, dates ISO 8601 with the server's offset, '.' as
 * decimal mark (JavaScript's number formatting), the same rows as the workbook. Text fields go
 * through csvField (formula-looking ones neutralised); numbers and dates cannot start a formula.
 * When a level sensor with a geometry is among the devices, every row ends with the water
 * columns (docs/water.md), empty for the devices without them.
 */
export async function writeCsv(out: PassThrough, plan: ExportPlan, rows: RowSource, waterColumns: WaterColumnsOf): Promise<void> {
  const clock = new LocalClock();
  const anyWater = plan.devices.some((d) => waterColumns(d.id) !== null);
  out.write(csvHeader(anyWater ? ['Dispositivo', ...EXPORT_HEADERS, ...WATER_HEADERS] : ['Dispositivo', ...EXPORT_HEADERS]));
  for (const device of plan.devices) {
    const id = csvField(device.id);
    const water = waterColumns(device.id);
    const waterCells = (r: HistoryRow): string => {
      if (!anyWater) return '';
      const [volume, raw] = water ? water(r) : [null, null];
      return `,${volume ?? ''},${raw ?? ''}`;
    };
    for await (const batch of rows(device.id, plan.range)) {
      if (out.destroyed) return;
      let chunk = '';
      for (const r of batch) {
        const value = r.valueNum !== null ? String(r.valueNum) : csvField(r.valueText ?? '');
        chunk += `${id},${clock.isoWithOffset(r.tsMs)},${value},${r.valueNum !== null ? 'm' : ''},${csvField(statusLabel(r.status))}${waterCells(r)}\r\n`;
      }
      await writeChunk(out, chunk);
    }
  }
  if (!out.destroyed) out.end();
}
