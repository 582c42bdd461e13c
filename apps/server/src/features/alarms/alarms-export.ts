import type { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { ALARM_KIND_LABELS, ALARM_PRIORITY_LABELS, ALARM_STATE_LABELS } from '@agua/shared';
import { csvHeader, csvLine, writeChunk } from '../../lib/csv';
import { LocalClock } from '../history/local-time';
import type { AlarmRecord } from './alarms.repository';

export const ALARMS_XLSX_FILE_NAME = 'Historial_Alarmas.xlsx';
export const ALARMS_CSV_FILE_NAME = 'Historial_Alarmas.csv';
export const ALARMS_SHEET_NAME = 'Alarmas';
export const ALARM_EXPORT_HEADERS = ['Fecha y Hora', 'Dispositivo', 'Alarma', 'Prioridad', 'Estado', 'Valor', 'Reconocida por', 'Comentario', 'Normalizada'] as const;

/** Alarms newest first, a batch at a time. */
export type AlarmBatches = AsyncIterable<AlarmRecord[]>;

const DATE_STYLE: Partial<ExcelJS.Style> = { numFmt: 'dd/mm/yyyy hh:mm:ss' };
const HEADER_STYLE: Partial<ExcelJS.Style> = { font: { bold: true } };

/** The text columns of a row, the same in the workbook and the CSV. */
function texts(a: AlarmRecord, deviceName: (id: string) => string) {
  return {
    device: deviceName(a.deviceId),
    kind: ALARM_KIND_LABELS[a.kind],
    priority: ALARM_PRIORITY_LABELS[a.priority],
    state: ALARM_STATE_LABELS[a.state],
    ackedBy: a.ackedBy?.name ?? '',
    comment: a.ackComment ?? '',
  };
}

/** The alarm history as a workbook with one sheet 'Alarmas', dates as date cells in the server's time zone. */
export async function writeAlarmsXlsx(out: PassThrough, batches: AlarmBatches, deviceName: (id: string) => string): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const clock = new LocalClock();
  const ws = workbook.addWorksheet(ALARMS_SHEET_NAME, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = [{ width: 20 }, { width: 28 }, { width: 22 }, { width: 10 }, { width: 26 }, { width: 10 }, { width: 22 }, { width: 30 }, { width: 20 }];
  const header = ws.addRow([...ALARM_EXPORT_HEADERS]);
  header.eachCell((cell) => (cell.style = HEADER_STYLE));
  header.commit();
  for await (const batch of batches) {
    if (out.destroyed) return;
    for (const a of batch) {
      const t = texts(a, deviceName);
      const row = ws.addRow([clock.excelValue(a.raisedAtMs), t.device, t.kind, t.priority, t.state, a.value ?? null, t.ackedBy, t.comment, a.clearedAtMs === null ? null : clock.excelValue(a.clearedAtMs)]);
      row.getCell(1).style = DATE_STYLE;
      row.getCell(9).style = DATE_STYLE;
      row.commit();
    }
  }
  ws.commit();
  await workbook.commit();
}

/** The same rows as CSV: UTF-8 with BOM, comma-separated, CRLF, dates ISO 8601 with the server's offset, formula-looking text neutralised. */
export async function writeAlarmsCsv(out: PassThrough, batches: AlarmBatches, deviceName: (id: string) => string): Promise<void> {
  const clock = new LocalClock();
  out.write(csvHeader(ALARM_EXPORT_HEADERS));
  for await (const batch of batches) {
    if (out.destroyed) return;
    let chunk = '';
    for (const a of batch) {
      const t = texts(a, deviceName);
      const cells = [
        clock.isoWithOffset(a.raisedAtMs),
        t.device,
        t.kind,
        t.priority,
        t.state,
        a.value === null ? '' : String(a.value),
        t.ackedBy,
        t.comment,
        a.clearedAtMs === null ? '' : clock.isoWithOffset(a.clearedAtMs),
      ];
      chunk += csvLine(cells);
    }
    await writeChunk(out, chunk);
  }
  if (!out.destroyed) out.end();
}
