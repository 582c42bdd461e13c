import { isApiError } from '@/lib/api-client';
import { DEVICE_FIELD_ORDER, type DeviceField } from './device-form-values';

/** 'config.maxLevel', '/config/maxLevel' or '/id' → the form field it names. */
function asField(value: unknown): DeviceField | null {
  if (typeof value !== 'string') return null;
  const last = value.split(/[./]/).filter(Boolean).pop() ?? '';
  return (DEVICE_FIELD_ORDER as readonly string[]).includes(last) ? (last as DeviceField) : null;
}

/**
 * Which field a server error belongs to: DEVICE_ID_TAKEN is the id; INVALID_VALUE names it in
 * `details.field`; a VALIDATION_FAILED lists schema paths.
 */
export function fieldOfDeviceError(error: unknown): { field: DeviceField; message: string } | null {
  if (!isApiError(error)) return null;
  const { code, details } = error;
  if (code === 'DEVICE_ID_TAKEN') {
    // Retired devices keep their id (their history is still exported under it), hence the note.
    return { field: 'id', message: `${error.message} Un dispositivo eliminado conserva su identificador mientras se guarde su historial.` };
  }
  if (code === 'INVALID_VALUE' && details && typeof details === 'object') {
    const field = asField((details as { field?: unknown }).field);
    if (field) return { field, message: field === 'warningPct' ? 'El umbral de advertencia debe ser menor que el crítico.' : error.message };
  }
  if (code === 'VALIDATION_FAILED' && Array.isArray(details)) {
    for (const item of details as Array<{ path?: unknown }>) {
      const field = asField(item?.path);
      if (field) return { field, message: 'Valor no válido.' };
    }
  }
  return null;
}
