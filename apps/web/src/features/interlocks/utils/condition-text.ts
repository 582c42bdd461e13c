import {
  ALARM_KIND_LABELS,
  ALARM_PRIORITY_LABELS,
  GATE_STATE_LABELS,
  INTERLOCK_LIMITS,
  type AlarmPriority,
  type InterlockCondition,
  type InterlockMode,
  type LevelOp,
} from '@agua/shared';
import { formatInteger, formatNumber } from '@/lib/format';

export const OP_SYMBOLS: Readonly<Record<LevelOp, string>> = { '<': '<', '<=': '≤', '>': '>', '>=': '≥' };

/** The words of the operator choices in the builder. */
export const OP_LABELS: Readonly<Record<LevelOp, string>> = {
  '<': '< menor que',
  '<=': '≤ menor o igual que',
  '>': '> mayor que',
  '>=': '≥ mayor o igual que',
};

export const CONDITION_KIND_LABELS = {
  level: 'Nivel',
  alarm: 'Sin alarma activa',
  gate_state: 'Estado de compuerta',
  online: 'En línea',
} as const satisfies Record<InterlockCondition['kind'], string>;

/** What each mode does when a condition fails, in an operator's words (the form's hints, the list). */
export const MODE_HINTS: Readonly<Record<InterlockMode, string>> = {
  block: 'El comando no se puede enviar mientras alguna condición no se cumpla.',
  confirm: 'Se puede enviar con un comentario obligatorio, que queda en la auditoría.',
  reauth: 'Se puede enviar tras escribir de nuevo la propia contraseña.',
  two_person: `Queda en espera hasta que otra persona lo apruebe (${INTERLOCK_LIMITS.approvalTimeoutS / 60} min como mucho).`,
};

/** 'Alta o más urgente': an alarm condition's priority limit (1 is the most urgent). */
export function priorityAtMostText(p: number): string {
  const label = ALARM_PRIORITY_LABELS[p as AlarmPriority] ?? String(p);
  return p <= 1 ? label : `${label} o más urgente`;
}

/** One condition in words, as it must hold for the command to go: 'Sensor Nivel Agua Limpia: nivel < 4,25 m'. */
export function conditionText(c: InterlockCondition, deviceName: (id: string) => string): string {
  const name = deviceName(c.deviceId);
  switch (c.kind) {
    case 'level': {
      const limit = c.valueM !== undefined ? `${formatNumber(c.valueM)} m` : c.pct !== undefined ? `${formatInteger(c.pct)} % del nivel máximo` : '—';
      const age = c.maxAgeS !== undefined ? ` (lectura de hace ${formatInteger(c.maxAgeS)} s como mucho)` : '';
      return `${name}: nivel ${OP_SYMBOLS[c.op]} ${limit}${age}`;
    }
    case 'alarm': {
      const kind = c.alarmKind ? ` «${ALARM_KIND_LABELS[c.alarmKind]}»` : '';
      const priority = c.priorityAtMost !== undefined ? ` de prioridad ${priorityAtMostText(c.priorityAtMost)}` : '';
      return `${name}: sin alarma${kind} activa${priority}`;
    }
    case 'gate_state':
      return `${name}: ${c.in.map((s) => GATE_STATE_LABELS[s]).join(' o ')}`;
    case 'online':
      return `${name}: en línea`;
  }
}
