import { useMutation } from '@tanstack/react-query';
import { EXCEL_FILE_NAME } from '@agua/shared';
import { apiFetch } from '@/lib/api-client';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Downloads the server-built workbook of all stored history (GET /export.xlsx). */
export async function downloadHistoryWorkbook(): Promise<void> {
  const response = await apiFetch('/export.xlsx', {}, XLSX_MIME);
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = EXCEL_FILE_NAME;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the blob URL goes away.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

export function useExportHistory() {
  return useMutation({ mutationFn: downloadHistoryWorkbook });
}
