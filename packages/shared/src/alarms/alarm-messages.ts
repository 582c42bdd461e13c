import type { AlarmKind } from './alarm-rules';

const number2 = new Intl.NumberFormat('es-ES', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const number0 = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 0 });

const LEVEL_WORDS = { level_high_high: 'Nivel muy alto', level_high: 'Nivel alto', level_low: 'Nivel bajo', level_low_low: 'Nivel muy bajo' } as const;

/** 'Nivel muy alto: 8,73 m (87 % de 10,00 m)' */
export function levelAlarmMessage(kind: keyof typeof LEVEL_WORDS, valueM: number, maxLevelM: number): string {
  return `${LEVEL_WORDS[kind]}: ${number2.format(valueM)} m (${number0.format((valueM / maxLevelM) * 100)} % de ${number2.format(maxLevelM)} m)`;
}

/** 'Subida rápida de nivel: 0,12 m/min (límite 0,05 m/min)' */
export function riseAlarmMessage(ratePerMin: number, limitPerMin: number): string {
  return `Subida rápida de nivel: ${number2.format(ratePerMin)} m/min (límite ${number2.format(limitPerMin)} m/min)`;
}

/** A forecast's duration as people read it: 'menos de 1 min', '≈ 42 min', '≈ 2 h 10 min', '≈ 1 d 3 h'. */
function durationText(seconds: number): string {
  if (seconds < 60) return 'menos de 1 min';
  return `≈ ${roundedDuration(seconds)}`;
}

function roundedDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 24 * 60) {
    const h = Math.floor(minutes / 60);
    const m = minutes % 60;
    return m === 0 ? `${h} h` : `${h} h ${m} min`;
  }
  const hours = Math.round(minutes / 60);
  const d = Math.floor(hours / 24);
  const h = hours % 24;
  return h === 0 ? `${d} d` : `${d} d ${h} h`;
}

/** 'Desborde próximo: en ≈ 42 min (límite 60 min)' */
export function timeToOverflowAlarmMessage(timeToOverflowS: number, setpointMin: number): string {
  return `Desborde próximo: en ${durationText(timeToOverflowS)} (límite ${number0.format(setpointMin)} min)`;
}

/** 'Nivel sobre vertedero: 9,12 m (vertedero a 9,00 m)' — the spill's highest level so far. */
export function aboveCrestAlarmMessage(levelM: number, crestM: number): string {
  return `Nivel sobre vertedero: ${number2.format(levelM)} m (vertedero a ${number2.format(crestM)} m)`;
}

/** Texts of the alarms that are not about a level: offline, gate fault, failed command. */
export function eventAlarmMessage(kind: Exclude<AlarmKind, keyof typeof LEVEL_WORDS | 'rate_of_rise' | 'time_to_overflow' | 'level_above_crest' | 'schedule_skipped'>, detail?: { command?: string; status?: string; text?: string | null }): string {
  switch (kind) {
    case 'device_offline':
      return 'Equipo sin señal';
    case 'gate_fault':
      return 'Falla de compuerta';
    case 'command_failed': {
      const what = `Comando '${detail?.command ?? ''}'`;
      if (detail?.status === 'timed_out') return `${what} sin respuesta del equipo`;
      return detail?.text ? `${what} fallido: ${detail.text}` : `${what} fallido`;
    }
  }
}
