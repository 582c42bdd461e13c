import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { CSV_FILE_NAME, EXCEL_FILE_NAME, type Device } from '@agua/shared';
import { api, apiFetch } from '@/lib/api-client';
import { saveBlob } from '@/lib/download';
import { queryKeys } from '@/lib/query-keys';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export type ExportFormat = 'xlsx' | 'csv';

export interface ExportRequest {
  format: ExportFormat;
  /** ISO 8601 (toISOString()); both absent = the whole stored history. */
  from?: string;
  to?: string;
  /** Absent = every device the server knows, retired ones included. */
  deviceIds?: string[];
  /** Only this site's devices (with deviceIds: those of them in the site). */
  siteId?: string;
}

const FILES = {
  xlsx: { path: '/export.xlsx', accept: XLSX_MIME, name: EXCEL_FILE_NAME },
  csv: { path: '/export.csv', accept: 'text/csv', name: CSV_FILE_NAME },
} as const;

/** Downloads the server-built workbook or CSV (GET /export.xlsx | /export.csv ?from&to&deviceIds&siteId). */
export async function downloadHistory({ format, from, to, deviceIds, siteId }: ExportRequest): Promise<void> {
  const file = FILES[format];
  const response = await apiFetch(file.path, { query: { from, to, deviceIds: deviceIds?.join(','), siteId } }, file.accept);
  saveBlob(await response.blob(), file.name);
}

export function useExportHistory() {
  return useMutation({ mutationFn: downloadHistory });
}

/** Every device with history, retired ones included: their history stays exportable (docs/api.md). */
export function getExportableDevices(signal?: AbortSignal): Promise<Device[]> {
  return api.get<Device[]>('/devices', { include: 'retired' }, signal);
}

export const exportableDevicesQueryOptions = queryOptions({
  queryKey: [...queryKeys.devices, 'include-retired'] as const,
  queryFn: ({ signal }) => getExportableDevices(signal),
  staleTime: 60_000,
});

export function useExportableDevices(enabled: boolean) {
  return useQuery({ ...exportableDevicesQueryOptions, enabled });
}
