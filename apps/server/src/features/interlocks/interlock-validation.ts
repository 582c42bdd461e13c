import {
  ALARM_KINDS_BY_TYPE,
  ALARM_PRIORITIES,
  DEVICE_COMMANDS,
  INTERLOCK_LIMITS,
  type DeviceType,
  type InterlockCondition,
} from '@agua/shared';
import { unprocessable } from '../../lib/errors';

/** What validation needs to know of a device: its type; undefined when unknown or retired. */
export type DeviceTypeOf = (deviceId: string) => DeviceType | undefined;

/** An interlock's values as they will be stored. */
export interface InterlockValues {
  deviceId: string;
  command: string;
  name: string;
  conditions: InterlockCondition[];
}

const invalid = (field: string, reason: string) => unprocessable('INTERLOCK_INVALID', { field, reason });

/**
 * Refuses a definition that cannot be (docs/control.md): `422 INTERLOCK_INVALID` naming the field
 * and why, in Spanish for the form. The shape was checked by the route's schema (400).
 */
export function assertValidInterlock(v: InterlockValues, typeOf: DeviceTypeOf): void {
  const targetType = typeOf(v.deviceId);
  if (!targetType) throw invalid('deviceId', 'Dispositivo desconocido o retirado.');
  const commands = DEVICE_COMMANDS[targetType] as readonly string[];
  if (v.command === 'detener') throw invalid('command', "'detener' nunca se bloquea: detener una compuerta es el acto seguro.");
  if (!commands.includes(v.command)) throw invalid('command', `Comando no válido para este dispositivo (${commands.filter((c) => c !== 'detener').join(', ')}).`);
  const name = v.name.trim();
  if (name.length < 1 || name.length > INTERLOCK_LIMITS.nameMax) throw invalid('name', `El nombre debe tener entre 1 y ${INTERLOCK_LIMITS.nameMax} caracteres.`);
  const n = v.conditions.length;
  if (n < INTERLOCK_LIMITS.conditionsMin || n > INTERLOCK_LIMITS.conditionsMax) {
    throw invalid('conditions', `Entre ${INTERLOCK_LIMITS.conditionsMin} y ${INTERLOCK_LIMITS.conditionsMax} condiciones.`);
  }
  v.conditions.forEach((c, i) => assertValidCondition(c, `conditions[${i}]`, typeOf));
}

function assertValidCondition(c: InterlockCondition, at: string, typeOf: DeviceTypeOf): void {
  const type = typeOf(c.deviceId);
  if (!type) throw invalid(`${at}.deviceId`, 'Dispositivo desconocido o retirado.');
  switch (c.kind) {
    case 'level': {
      if (type !== 'level_sensor') throw invalid(`${at}.kind`, 'Una condición de nivel necesita un sensor de nivel.');
      if ((c.valueM === undefined) === (c.pct === undefined)) throw invalid(`${at}.valueM`, 'Indique valueM (m) o pct (%), uno de los dos.');
      if (c.valueM !== undefined && !(Number.isFinite(c.valueM) && c.valueM >= 0 && c.valueM <= 1000)) throw invalid(`${at}.valueM`, 'Un nivel entre 0 y 1000 m.');
      if (c.pct !== undefined && !(Number.isFinite(c.pct) && c.pct >= 0 && c.pct <= 100)) throw invalid(`${at}.pct`, 'Un porcentaje entre 0 y 100.');
      if (c.maxAgeS !== undefined && !(c.maxAgeS >= 1 && c.maxAgeS <= 86_400)) throw invalid(`${at}.maxAgeS`, 'Entre 1 y 86400 s.');
      return;
    }
    case 'alarm': {
      if (c.alarmKind !== undefined && !(ALARM_KINDS_BY_TYPE[type] as readonly string[]).includes(c.alarmKind)) {
        throw invalid(`${at}.alarmKind`, 'Ese tipo de alarma no existe para este dispositivo.');
      }
      if (c.priorityAtMost !== undefined && !(ALARM_PRIORITIES as readonly number[]).includes(c.priorityAtMost)) throw invalid(`${at}.priorityAtMost`, 'Una prioridad de 1 a 4.');
      return;
    }
    case 'gate_state':
      if (type !== 'motorized_gate') throw invalid(`${at}.kind`, 'Una condición de estado necesita una compuerta.');
      if (c.in.length === 0 || new Set(c.in).size !== c.in.length) throw invalid(`${at}.in`, 'Uno o más estados, sin repetir.');
      return;
    case 'online':
      return;
  }
}
