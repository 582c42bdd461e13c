import ExcelJS from 'exceljs';
import { LocalClock } from '../history/local-time';
import { SheetNamer } from '../history/sheet-names';
import type { Cell, Column, ReportDocument } from './report-document';

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
 * Dates are date cells in the server's local time; an empty figure is an empty cell.
 */
export async function reportXlsx(doc: ReportDocument): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Panel de Control de Agua';
  workbook.title = doc.title;
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
    const widths: number[] = [];
    for (const table of section.tables) {
      if (table.title !== null) {
        if (ws.rowCount > 0) ws.addRow([]);
        ws.addRow([table.title]).font = TITLE_FONT;
      }
      ws.addRow(table.columns.map((c) => c.header)).font = HEADER_FONT;
      for (const cells of table.rows) {
        const row = ws.addRow(cells.map(value));
        table.columns.forEach((c, i) => {
          const format = FORMATS[c.kind];
          if (format && cells[i] !== null) row.getCell(i + 1).numFmt = format;
        });
      }
      table.columns.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 10, Math.min(40, c.header.length + 2), c.kind === 'datetime' ? 20 : 0)));
    }
    widths.forEach((w, i) => (ws.getColumn(i + 1).width = w));
  }
  // No device in the report: a workbook still needs a sheet, and it says so.
  if (doc.sections.length === 0) workbook.addWorksheet('Informe').addRow(['Sin dispositivos']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
