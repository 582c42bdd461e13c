import type { ReportFormat } from '@agua/shared';
import { XLSX_CONTENT_TYPE } from '../history/export-xlsx';

export const REPORT_CONTENT_TYPES: Readonly<Record<ReportFormat, string>> = { xlsx: XLSX_CONTENT_TYPE, pdf: 'application/pdf' };

/** 'informe-depositos-2026-11-01_2026-11-30.xlsx': ASCII, safe in a header and on any disk. */
export function reportFileName(name: string, from: string, to: string, format: ReportFormat): string {
  const slug =
    name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'informe';
  return `informe-${slug}-${from === to ? from : `${from}_${to}`}.${format}`;
}
