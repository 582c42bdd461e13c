import { DEFAULT_CRITICAL_PCT, DEFAULT_WARNING_PCT, type Device, type DeviceType, type WaterType, DEFAULT_TRAVEL_TIMEOUT_S } from '@agua/shared';
import { LOCALE } from '@/lib/format';

// The server's travel timeout when a gate does not set one (docs/protocol.md, 'travelTimeoutS').

/** The device forms keep every number as typed text, so that '3,5' and '' survive editing. */
export interface DeviceFormValues {
  id: string;
  name: string;
  location: string;
  type: DeviceType;
  waterType: WaterType;
  maxLevel: string;
  warningPct: string;
  criticalPct: string;
  offlineAfterS: string;
  travelTimeoutS: string;
}

export type DeviceField = keyof DeviceFormValues;
export type DeviceFieldErrors = Partial<Record<DeviceField, string>>;

export const DEVICE_FIELD_ORDER: readonly DeviceField[] = [
  'id',
  'name',
  'location',
  'type',
  'waterType',
  'maxLevel',
  'warningPct',
  'criticalPct',
  'travelTimeoutS',
  'offlineAfterS',
];

export function emptyDeviceForm(): DeviceFormValues {
  return {
    id: '',
    name: '',
    location: '',
    type: 'level_sensor',
    waterType: 'residual',
    maxLevel: '',
    warningPct: String(DEFAULT_WARNING_PCT),
    criticalPct: String(DEFAULT_CRITICAL_PCT),
    offlineAfterS: '',
    travelTimeoutS: String(DEFAULT_TRAVEL_TIMEOUT_S),
  };
}

// The edit form shows stored numbers with the browser's decimal mark ('7,5' in es-ES), as typed.
const editNumber = new Intl.NumberFormat(LOCALE, { useGrouping: false, maximumFractionDigits: 6 });

function num(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? editNumber.format(value) : '';
}

/** The edit form starts from the device's current settings. */
export function deviceFormFrom(device: Device): DeviceFormValues {
  const config = device.config as Partial<Record<'maxLevel' | 'warningPct' | 'criticalPct' | 'offlineAfterS' | 'travelTimeoutS', number>>;
  return {
    id: device.id,
    name: device.name,
    location: device.location,
    type: device.type as DeviceType,
    waterType: (device.waterType as WaterType | null) ?? 'residual',
    maxLevel: num(config.maxLevel),
    warningPct: num(config.warningPct ?? DEFAULT_WARNING_PCT),
    criticalPct: num(config.criticalPct ?? DEFAULT_CRITICAL_PCT),
    offlineAfterS: num(config.offlineAfterS),
    travelTimeoutS: num(config.travelTimeoutS ?? DEFAULT_TRAVEL_TIMEOUT_S),
  };
}

/** A number typed with either decimal mark ('3,5' or '3.5'); null when blank or not a number. */
export function parseNumber(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!t || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}
