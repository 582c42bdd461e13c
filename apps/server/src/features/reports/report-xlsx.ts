import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { LocalClock } from '../history/local-time';
import { SheetNamer } from '../history/sheet-names';
import type { Cell, Column, ReportDocument, Table } from './report-document';

const HEADER_FONT: Partial<ExcelJS.Font> = { bold: true };
const TITLE_FONT: Partial<ExcelJS.Font> = { bold: true, size: 12 };
const FORMATS: Record<Column['kind'], string | undefined> = {
  date: 'dd/mm/yyyy',
  datetime: 'dd/mm/yyyy hh:mm:ss',
  number: undefined,
  integer: '0',
  text: undefined,
};

/**
 * The report as a workbook (docs/reports.md "Excel"): a sheet per section named by the export's
 * rule; its first table starts at the header, each further one after an empty row and its title.
 * Dates are date cells in the server's local time; an empty figure is an empty cell. Written by
 * ExcelJS's streaming writer, row by row: memory stays flat whatever the period.
 */
export async function reportXlsx(doc: ReportDocument): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Panel de Control de Agua';
  const namer = new SheetNamer();
  const clock = new LocalClock();
  const value = (cell: Cell): ExcelJS.CellValue => {
    if (cell === null || typeof cell === 'number' || typeof cell === 'string') return cell;
    if ('date' in cell) {
      const [y, m, d] = cell.date.split('-').map(Number) as [number, number, number];
      return new Date(Date.UTC(y, m - 1, d));
    }
    return clock.excelValue(cell.at);
  };
  for (const section of doc.sections) {
    const ws = workbook.addWorksheet(namer.next(section.sheetName));
    // Widths before the first row: a streamed sheet writes its columns with it.
    ws.columns = columnWidths(section.tables).map((width) => ({ width }));
    let rows = 0;
    const add = (values: ExcelJS.CellValue[], font?: Partial<ExcelJS.Font>, formats?: Array<string | undefined>) => {
      const row = ws.addRow(values);
      values.forEach((v, i) => {
        const cell = row.getCell(i + 1);
        if (font) cell.font = font;
        if (formats?.[i] && v !== null) cell.numFmt = formats[i]!;
      });
      row.commit();
      rows++;
    };
    for (const table of section.tables) {
      if (table.title !== null) {
        if (rows > 0) add([]);
        add([table.title], TITLE_FONT);
      }
      add(
        table.columns.map((c) => c.header),
        HEADER_FONT,
      );
      const formats = table.columns.map((c) => FORMATS[c.kind]);
      for (const cells of table.rows) add(cells.map(value), undefined, formats);
    }
    ws.commit();
  }
  // No device in the report: a workbook still needs a sheet, and it says so.
  if (doc.sections.length === 0) {
    const ws = workbook.addWorksheet('Informe');
    ws.addRow(['Sin dispositivos']).commit();
    ws.commit();
  }
  await workbook.commit();
  await ended;
  return Buffer.concat(chunks);
}

/** A sheet's column widths: wide enough for the longest header over its tables (at most 40), dates 20. */
function columnWidths(tables: readonly Table[]): number[] {
  const widths: number[] = [];
  for (const table of tables) {
    table.columns.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 10, Math.min(40, c.header.length + 2), c.kind === 'datetime' ? 20 : 0)));
  }
  return widths;
}
