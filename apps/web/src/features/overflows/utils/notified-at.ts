/**
 * The 'Comunicado a la autoridad' field: a local date and time (`<input type="datetime-local">`,
 * 'yyyy-mm-ddThh:mm') to and from the API's ISO instant. The server refuses a future one (422
 * NOTIFIED_AT_IN_FUTURE); the form says so before sending.
 */
import { ERROR_MESSAGES } from '@agua/shared';

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the field's local 'yyyy-mm-ddThh:mm' (empty for none). */
export function toLocalInput(value: string | number | Date | null): string {
  if (value === null) return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The field's value as the API's notifiedAt: null when empty (clears it), or an error text for a
 * value that is not a date or lies in the future.
 */
export function parseNotifiedAt(value: string, now: number): { notifiedAt: string | null } | { error: string } {
  const text = value.trim();
  if (text === '') return { notifiedAt: null };
  const m = LOCAL_INPUT.exec(text);
  if (!m) return { error: 'Indique una fecha y hora válidas.' };
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
  if (Number.isNaN(date.getTime()) || date.getMonth() !== mo - 1) return { error: 'Indique una fecha y hora válidas.' };
  if (date.getTime() > now) return { error: ERROR_MESSAGES.NOTIFIED_AT_IN_FUTURE };
  return { notifiedAt: date.toISOString() };
}
