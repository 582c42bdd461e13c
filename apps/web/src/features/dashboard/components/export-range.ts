/** Ranges offered by the export dialog and how each becomes the from/to of the request. */

export const EXPORT_RANGES = [
  { id: '24h', label: '24 h', spanMs: 24 * 3600_000 },
  { id: '7d', label: '7 d', spanMs: 7 * 24 * 3600_000 },
  { id: '30d', label: '30 d', spanMs: 30 * 24 * 3600_000 },
  { id: 'all', label: 'Todo el historial', spanMs: null },
  { id: 'custom', label: 'Personalizado', spanMs: null },
] as const;

export type ExportRangeId = (typeof EXPORT_RANGES)[number]['id'];

const pad = (n: number) => String(n).padStart(2, '0');

/** Value for <input type="datetime-local"> in the user's local time. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The request's from/to (ISO via toISOString(), which the API accepts as it carries an offset),
 * or an error text. 'Todo el historial' sends neither: the server then exports everything.
 */
export function exportTimes(
  id: ExportRangeId,
  custom: { from: string; to: string },
  now: number,
): { from?: string; to?: string } | { error: string } {
  if (id === 'all') return {};
  if (id === 'custom') {
    // datetime-local values carry no offset: the Date constructor reads them as local time.
    const from = custom.from ? new Date(custom.from).getTime() : Number.NaN;
    const to = custom.to ? new Date(custom.to).getTime() : Number.NaN;
    if (Number.isNaN(from) || Number.isNaN(to)) return { error: 'Indique fecha y hora de inicio y de fin.' };
    if (from >= to) return { error: 'La fecha de inicio debe ser anterior a la de fin.' };
    return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
  }
  const span = EXPORT_RANGES.find((r) => r.id === id)?.spanMs ?? 0;
  return { from: new Date(now - span).toISOString(), to: new Date(now).toISOString() };
}
