import type { PassThrough } from 'node:stream';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { READING_STATUS_LABELS, type ReadingStatus } from '@agua/shared';
import { WATER_HEADERS, type WaterColumnsOf } from './export-water-columns';
import type { ExportPlan } from './history.service';
import { LocalClock } from './local-time';
import type { HistoryRow } from './readings.repository';
import type { MsRange } from '../../lib/time';
import { SheetNamer } from './sheet-names';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const EXPORT_HEADERS = ['Fecha y Hora', 'Valor', 'Unidad', 'Estado'] as const;

export type RowSource = (deviceId: string, range: MsRange) => AsyncIterable<HistoryRow[]>;

/**
 * How much workbook output may wait (for zlib or the client) before rows stop being read. Small:
 * buffers that wait long outlive young-generation GCs and then stay until a full GC (benchmark:
 * peak RSS ~20-60 MB lower than with 1-4 MB, at the same speed).
 */
const MAX_PENDING_BYTES = 256 * 1024;

// One style object per kind of cell, shared by every cell: ExcelJS caches a style's id per object
// (WeakMap), while a fresh object per cell costs an XML rendering and a lookup per cell.
const DATE_STYLE: Partial<ExcelJS.Style> = { numFmt: 'dd/mm/yyyy hh:mm:ss' };
const PLAIN_STYLE: Partial<ExcelJS.Style> = {};
const HEADER_STYLE: Partial<ExcelJS.Style> = { font: { bold: true } };

export const statusLabel = (status: string) => READING_STATUS_LABELS[status as ReadingStatus] ?? status;

interface StreamLike {
  writableLength?: number;
  readableLength?: number;
  _writableState?: { length?: number };
  _readableState?: { length?: number };
}
/** Bytes a stream holds; archiver's streams are readable-stream 2, which lacks writableLength. */
const held = (s: StreamLike) => (s.writableLength ?? s._writableState?.length ?? 0) + (s.readableLength ?? s._readableState?.length ?? 0);

/**
 * Bytes of workbook data produced but not yet taken by zlib and the client. ExcelJS's sheet
 * streams (StreamBuf) ignore backpressure: what they write piles up in their own buffers and in
 * the PassThrough archiver wraps each of them in (and archiver zips one entry at a time, so a
 * sheet's backlog also holds up the next sheet). The writer throttles itself on these (ExcelJS
 * 4.4.0 / archiver 5 internals, read defensively) and on the response stream.
 */
function pendingBytes(sheets: ExcelJS.Worksheet[], out: PassThrough): number {
  let n = held(out);
  for (const ws of sheets) {
    const s = (ws as unknown as { stream?: { buffers?: Array<{ length?: number }>; pipes?: StreamLike[] } }).stream;
    for (const b of s?.buffers ?? []) n += b.length ?? 0;
    for (const p of s?.pipes ?? []) n += held(p);
  }
  return n;
}

/**
 * Streams the workbook of an export plan into `out` (docs/api.md "Excel and CSV export"): one sheet per
 * device, header then rows oldest first, a further sheet when one is full, dates as date cells in
 * the server's local time. Memory stays flat: rows are committed as they come, batches are read
 * only while the client keeps up. Stops quietly when `out` is destroyed (client gone).
 */
export async function writeXlsx(out: PassThrough, plan: ExportPlan, rows: RowSource, maxRowsPerSheet: number, waterColumns: WaterColumnsOf): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const namer = new SheetNamer();
  const clock = new LocalClock();
  const sheets: ExcelJS.Worksheet[] = [];

  // A level sensor with a geometry gets the water columns after the seed's four (docs/water.md).
  const openSheet = (deviceName: string, water: boolean): ExcelJS.Worksheet => {
    const ws = workbook.addWorksheet(namer.next(deviceName), { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = [{ width: 20 }, { width: 12 }, { width: 8 }, { width: 13 }, ...(water ? [{ width: 14 }, { width: 16 }] : [])];
    const header = ws.addRow(water ? [...EXPORT_HEADERS, ...WATER_HEADERS] : [...EXPORT_HEADERS]);
    header.eachCell((cell) => (cell.style = HEADER_STYLE));
    header.commit();
    sheets.push(ws);
    return ws;
  };

  for (const device of plan.devices) {
    const water = waterColumns(device.id);
    let ws: ExcelJS.Worksheet | null = null;
    let inSheet = 0;
    for await (const batch of rows(device.id, plan.range)) {
      if (out.destroyed) return;
      for (const r of batch) {
        if (ws === null || inSheet >= maxRowsPerSheet) {
          ws?.commit();
          ws = openSheet(device.name, water !== null);
          inSheet = 0;
        }
        const isLevel = r.valueNum !== null;
        const cells: unknown[] = [clock.excelValue(r.tsMs), isLevel ? r.valueNum : r.valueText, isLevel ? 'm' : null, statusLabel(r.status)];
        if (water) cells.push(...water(r));
        const row = ws.addRow(cells);
        row.getCell(1).style = DATE_STYLE;
        for (let c = 2; c <= cells.length; c++) row.getCell(c).style = PLAIN_STYLE;
        row.commit();
        inSheet++;
      }
      // Let zlib and the socket work, and wait while the client lags behind.
      await nextTurn();
      while (!out.destroyed && pendingBytes(sheets, out) > MAX_PENDING_BYTES) await sleep(2);
    }
    ws?.commit();
  }
  if (out.destroyed) return;
  // Rows pruned by retention since the plan was made: a workbook needs a sheet all the same.
  if (sheets.length === 0) openSheet(plan.devices[0]!.name, waterColumns(plan.devices[0]!.id) !== null).commit();
  await workbook.commit();
}
