import { createRequire } from 'node:module';
import path from 'node:path';
import pdfmake from 'pdfmake';
import type { Cell, Column, ReportDocument } from './report-document';

// Roboto, shipped with pdfmake: every Spanish letter, '³' and '−', embedded (the PDF standard fonts have no '−').
const fontDir = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfmake/package.json')), 'fonts', 'Roboto');
const font = (file: string) => path.join(fontDir, file);
pdfmake.setFonts({
  Roboto: { normal: font('Roboto-Regular.ttf'), bold: font('Roboto-Medium.ttf'), italics: font('Roboto-Italic.ttf'), bolditalics: font('Roboto-MediumItalic.ttf') },
});
// A report reads nothing but its fonts: no URL, no other file, whatever a text in it says.
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((file) => path.resolve(file).startsWith(fontDir + path.sep));

const LOCALE = 'es-ES';
const numberFormats = new Map<number, Intl.NumberFormat>();
/** '1.005,3': Spanish decimals, thousands grouped from 1.000 (es-ES leaves 4 digits alone). */
function spanishNumber(value: number, decimals: number): string {
  let format = numberFormats.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: 'always' });
    numberFormats.set(decimals, format);
  }
  return format.format(value);
}
const dateTime = new Intl.DateTimeFormat(LOCALE, { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
const dmy = (date: string) => `${date.slice(8)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/** The unit in a header's parentheses ('Volumen final (m³)' → 'm³'), written after each figure. */
const unitOf = (c: Column) => /\(([^)]+)\)$/.exec(c.header)?.[1] ?? null;

/** A cell as the PDF writes it: '1.005,3 m³', '27/11/2026', '27/11/2026, 14:05:00'. */
export function cellText(cell: Cell, column: Column): string {
  if (cell === null) return '';
  if (typeof cell === 'string') return cell;
  if (typeof cell === 'number') {
    const unit = unitOf(column);
    const text = spanishNumber(cell, column.kind === 'integer' ? 0 : (column.decimals ?? 2));
    return unit ? `${text} ${unit}` : text;
  }
  if ('date' in cell) return dmy(cell.date);
  return dateTime.format(cell.at);
}

/**
 * The report as a PDF (docs/reports.md "PDF"): A4 landscape, the title, the period, 'Generado: …'
 * (the only line that differs between two generations of the same period), then a heading per
 * section and its tables, headers repeated on each page. Pure JavaScript: no browser.
 */
export async function reportPdf(doc: ReportDocument, generatedAtMs: number): Promise<Buffer> {
  const content: unknown[] = [
    { text: doc.title, style: 'title' },
    { text: doc.subtitle, style: 'subtitle' },
    { text: `Generado: ${dateTime.format(generatedAtMs)}`, style: 'generated' },
  ];
  doc.sections.forEach((section, i) => {
    content.push({ text: section.heading, style: 'section', pageBreak: i === 0 ? undefined : 'before' });
    for (const table of section.tables) {
      if (table.title !== null) content.push({ text: table.title, style: 'tableTitle' });
      if (table.rows.length === 0) {
        content.push({ text: table.empty, style: 'empty' });
        continue;
      }
      const numeric = table.columns.map((c) => c.kind === 'number' || c.kind === 'integer');
      content.push({
        table: {
          headerRows: 1,
          dontBreakRows: true,
          widths: table.columns.map(() => '*'),
          body: [
            table.columns.map((c, j) => ({ text: c.header, style: 'header', alignment: numeric[j] ? 'right' : 'left' })),
            ...table.rows.map((cells) => cells.map((cell, j) => ({ text: cellText(cell, table.columns[j]!), alignment: numeric[j] ? 'right' : 'left' }))),
          ],
        },
        layout: 'lightHorizontalLines',
        margin: [0, 2, 0, 8],
      });
    }
  });
  const definition = {
    pageSize: 'A4',
    pageOrientation: 'landscape',
    pageMargins: [32, 32, 32, 40],
    info: { title: doc.title, creator: 'Panel de Control de Agua', producer: 'Panel de Control de Agua' },
    defaultStyle: { font: 'Roboto', fontSize: 8 },
    styles: {
      title: { fontSize: 16, bold: true },
      subtitle: { fontSize: 11, margin: [0, 2, 0, 0] },
      generated: { fontSize: 8, color: '#555555', margin: [0, 2, 0, 10] },
      section: { fontSize: 12, bold: true, margin: [0, 4, 0, 6] },
      tableTitle: { fontSize: 10, bold: true, margin: [0, 4, 0, 2] },
      header: { bold: true },
      empty: { italics: true, color: '#555555', margin: [0, 0, 0, 8] },
    },
    footer: (page: number, pages: number) => ({ text: `${doc.title} · Página ${page} de ${pages}`, alignment: 'right', fontSize: 7, margin: [32, 12, 32, 0] }),
    content,
  };
  return pdfmake.createPdf(definition).getBuffer();
}
