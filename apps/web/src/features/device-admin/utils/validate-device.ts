import {
  DEVICE_ID_REGEX,
  DEVICE_LOCATION_MAX_LENGTH,
  DEVICE_NAME_MAX_LENGTH,
  MAX_LEVEL_LIMIT_M,
  OFFLINE_AFTER_MAX_S,
  THRESHOLD_PCT_EXCLUSIVE_MAX,
  THRESHOLD_PCT_EXCLUSIVE_MIN,
  TRAVEL_TIMEOUT_MAX_S,
} from '@agua/shared';
import { parseNumber, type DeviceFieldErrors, type DeviceFormValues } from './device-form-values';


function integerIn(text: string, min: number, max: number, what: string, required: boolean): string | undefined {
  if (!text.trim()) return required ? `Indique ${what}.` : undefined;
  const n = parseNumber(text);
  if (n === null || !Number.isInteger(n) || n < min || n > max) return `Debe ser un número entero de segundos entre ${min} y ${max}.`;
  return undefined;
}

function percent(text: string, label: string): { value: number | null; error?: string } {
  if (!text.trim()) return { value: null, error: `Indique el umbral de ${label}.` };
  const n = parseNumber(text);
  if (n === null || n <= THRESHOLD_PCT_EXCLUSIVE_MIN || n >= THRESHOLD_PCT_EXCLUSIVE_MAX) return { value: null, error: `El umbral de ${label} debe ser un porcentaje mayor que 0 y menor que 100.` };
  return { value: n };
}

/** Checks a device form; `creating` adds the id and makes the offline timeout optional. */
export function validateDeviceForm(v: DeviceFormValues, creating: boolean): DeviceFieldErrors {
  const errors: DeviceFieldErrors = {};
  if (creating) {
    if (!v.id.trim()) errors.id = 'El identificador es obligatorio.';
    else if (!DEVICE_ID_REGEX.test(v.id.trim())) errors.id = 'Use de 3 a 64 caracteres: minúsculas sin tilde, números, guion bajo (_) o guion (-).';
  }
  if (!v.name.trim()) errors.name = 'El nombre es obligatorio.';
  else if (v.name.trim().length > DEVICE_NAME_MAX_LENGTH) errors.name = `El nombre admite como máximo ${DEVICE_NAME_MAX_LENGTH} caracteres.`;
  if (!v.location.trim()) errors.location = 'La ubicación es obligatoria.';
  else if (v.location.trim().length > DEVICE_LOCATION_MAX_LENGTH) errors.location = `La ubicación admite como máximo ${DEVICE_LOCATION_MAX_LENGTH} caracteres.`;

  if (v.type === 'level_sensor') {
    if (!v.maxLevel.trim()) errors.maxLevel = 'Indique el nivel máximo del sensor.';
    else {
      const max = parseNumber(v.maxLevel);
      if (max === null || max <= 0 || max > MAX_LEVEL_LIMIT_M) errors.maxLevel = `El nivel máximo debe ser un número mayor que 0 y de hasta ${MAX_LEVEL_LIMIT_M} m.`;
    }
    const warning = percent(v.warningPct, 'advertencia');
    const critical = percent(v.criticalPct, 'crítico');
    if (warning.error) errors.warningPct = warning.error;
    if (critical.error) errors.criticalPct = critical.error;
    if (warning.value !== null && critical.value !== null && warning.value >= critical.value) {
      errors.warningPct = 'El umbral de advertencia debe ser menor que el crítico.';
    }
  } else {
    const travel = integerIn(v.travelTimeoutS, 1, TRAVEL_TIMEOUT_MAX_S, 'el tiempo máximo de recorrido', true);
    if (travel) errors.travelTimeoutS = travel;
  }
  const offline = integerIn(v.offlineAfterS, 1, OFFLINE_AFTER_MAX_S, 'el tiempo sin señal', !creating);
  if (offline) errors.offlineAfterS = offline;
  return errors;
}
