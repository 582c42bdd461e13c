/**
 * A report as tables, before it is a file: the Excel and the PDF writers render the same
 * document, so both hold the same figures (docs/reports.md "Contents").
 */

/** A cell: a number, a text, empty, a local date ('YYYY-MM-DD') or an instant shown in local time. */
export type Cell = number | string | null | { date: string } | { at: number };

export interface Column {
  header: string;
  kind: 'date' | 'datetime' | 'number' | 'integer' | 'text';
  /** Decimals shown (number columns). */
  decimals?: number;
}

export interface Table {
  /** null: the sheet's first table, which starts with its header. */
  title: string | null;
  columns: Column[];
  rows: Cell[][];
  /** What the PDF says for a table without rows. */
  empty: string;
}

/** One sheet: a device, or the overflows report's list. */
export interface Section {
  /** The sheet's name before the export's naming rule (a device's name). */
  sheetName: string;
  /** The PDF's heading for it. */
  heading: string;
  tables: Table[];
}

export interface ReportDocument {
  /** 'Informe {name}' */
  title: string;
  /** The report's kind in words and its period: 'Mensual · noviembre de 2026'. */
  subtitle: string;
  sections: Section[];
}
