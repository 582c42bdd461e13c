import PDFDocument from 'pdfkit';
import type { Cell, Column, ReportDocument, Table } from './report-document';

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

// A4 landscape, in points.
const MARGIN = 32;
const FOOTER = 24;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const ITALIC = 'Helvetica-Oblique';
const BODY_SIZE = 8;
/** Headers a point smaller: the longest one-word header ('Desbordamientos') fits an eleventh of the page. */
const HEADER_SIZE = 7;
const CELL_PAD = 2;
const GREY = '#555555';
const RULE = '#aaaaaa';

/**
 * The report as a PDF (docs/reports.md "PDF"): A4 landscape, the title, the period, 'Generado: …'
 * (the only line that differs between two generations of the same period), then a page per
 * section with its tables, the header repeated on each page a table runs onto, 'Página N' below.
 * Written by PDFKit row by row: each page is flushed when it is full, so memory stays flat
 * whatever the period (a year of 100 devices is 36,000 rows). Pure JavaScript, no browser; the
 * standard Helvetica has every Spanish letter, '³' and '–'.
 */
export async function reportPdf(doc: ReportDocument, generatedAtMs: number): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info: { Title: doc.title, Creator: 'Panel de Control de Agua', Producer: 'Panel de Control de Agua' },
    autoFirstPage: false,
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    pdf.on('end', resolve);
    pdf.on('error', reject);
  });

  let page = 0;
  const width = () => pdf.page.width - 2 * MARGIN;
  const bottom = () => pdf.page.height - MARGIN - FOOTER;
  const newPage = () => {
    pdf.addPage();
    page++;
    // The footer first, where the page's flow never writes (below the bottom margin's reserve).
    pdf.font(FONT).fontSize(7).fillColor(GREY).text(`${doc.title} · Página ${page}`, MARGIN, pdf.page.height - MARGIN - 10, { width: width(), align: 'right', lineBreak: false });
    pdf.fillColor('black');
    pdf.y = MARGIN;
  };
  const line = (text: string, font: string, size: number, color = 'black', gapAfter = 2) => {
    pdf.font(font).fontSize(size);
    const h = pdf.heightOfString(text, { width: width() });
    if (pdf.y + h > bottom()) newPage();
    pdf.fillColor(color).text(text, MARGIN, pdf.y, { width: width() });
    pdf.fillColor('black');
    pdf.y += gapAfter;
  };

  newPage();
  line(doc.title, BOLD, 16);
  line(doc.subtitle, FONT, 11);
  line(`Generado: ${dateTime.format(generatedAtMs)}`, FONT, 8, GREY, 10);
  doc.sections.forEach((section, i) => {
    if (i > 0) newPage();
    line(section.heading, BOLD, 12, 'black', 6);
    for (const table of section.tables) {
      if (table.title !== null) line(table.title, BOLD, 10, 'black', 2);
      if (table.rows.length === 0) line(table.empty, ITALIC, BODY_SIZE, GREY, 8);
      else drawTable(table);
    }
  });
  pdf.end();
  await ended;
  return Buffer.concat(chunks);

  /** A table across the page's width, equal columns; its header again on each page it runs onto. */
  function drawTable(table: Table): void {
    const colWidth = width() / table.columns.length;
    const aligns = table.columns.map((c) => (c.kind === 'number' || c.kind === 'integer' ? 'right' : 'left') as 'right' | 'left');
    const rowHeight = (texts: string[], font: string, size = BODY_SIZE) => {
      pdf.font(font).fontSize(size);
      return Math.max(...texts.map((t) => pdf.heightOfString(t || ' ', { width: colWidth - 2 * CELL_PAD }))) + 2 * CELL_PAD;
    };
    const drawRow = (texts: string[], font: string, h: number, ruleWidth: number, size = BODY_SIZE) => {
      const y = pdf.y;
      pdf.font(font).fontSize(size);
      texts.forEach((t, j) => pdf.text(t, MARGIN + j * colWidth + CELL_PAD, y + CELL_PAD, { width: colWidth - 2 * CELL_PAD, align: aligns[j] }));
      pdf
        .moveTo(MARGIN, y + h)
        .lineTo(MARGIN + width(), y + h)
        .lineWidth(ruleWidth)
        .strokeColor(RULE)
        .stroke();
      pdf.y = y + h;
    };
    const headers = table.columns.map((c) => c.header);
    const headerHeight = rowHeight(headers, BOLD, HEADER_SIZE);
    const header = () => drawRow(headers, BOLD, headerHeight, 1, HEADER_SIZE);
    if (pdf.y + headerHeight * 2 > bottom()) newPage();
    header();
    for (const cells of table.rows) {
      const texts = cells.map((cell, j) => cellText(cell, table.columns[j]!));
      const h = rowHeight(texts, FONT);
      if (pdf.y + h > bottom()) {
        newPage();
        header();
      }
      drawRow(texts, FONT, h, 0.3);
    }
    pdf.y += 8;
  }
}
