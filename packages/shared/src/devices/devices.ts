/** Device ids double as MQTT client ids and topic levels, hence the narrow alphabet (docs/protocol.md). */
export const DEVICE_ID_PATTERN = '^[a-z0-9_-]{3,64}$';
export const DEVICE_ID_REGEX = new RegExp(DEVICE_ID_PATTERN);

export const DEVICE_TYPES = ['level_sensor', 'motorized_gate'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export const WATER_TYPES = ['residual', 'clean'] as const;
export type WaterType = (typeof WATER_TYPES)[number];

/** Time a gate has to reach its final state after acknowledging abrir/cerrar (docs/protocol.md). */
export const DEFAULT_TRAVEL_TIMEOUT_S = 120;
/** Seconds of silence after which a device shows offline, unless it has its own (DEVICE_OFFLINE_AFTER_S). */
export const DEFAULT_OFFLINE_AFTER_S = 15;
/** How often a level sensor reads unless told otherwise: the completeness of its days counts on it (docs/water.md). */
export const DEFAULT_READING_INTERVAL_S = 3;
/** The full scale of a level sensor stored without one (a record from before maxLevel was required). */
export const DEFAULT_MAX_LEVEL_M = 10;

export const GATE_STATES = ['abierta', 'cerrada', 'abriendo', 'cerrando', 'falla'] as const;
export type GateState = (typeof GATE_STATES)[number];

/** Where a moving gate is heading: the final state that ends its travel. */
export const GATE_TRAVEL_TARGET = { abriendo: 'abierta', cerrando: 'cerrada' } as const satisfies Partial<Record<GateState, GateState>>;
export type MovingGateState = keyof typeof GATE_TRAVEL_TARGET;

/** Whether a gate in this state is travelling (its travel timeout runs). */
export function isGateMoving(state: string | null | undefined): state is MovingGateState {
  return state === 'abriendo' || state === 'cerrando';
}

/** Commands each device type accepts (docs/product.md, docs/protocol.md). */
export const DEVICE_COMMANDS = {
  motorized_gate: ['abrir', 'cerrar', 'detener'],
  level_sensor: ['read', 'restart'],
} as const satisfies Record<DeviceType, readonly string[]>;
export type GateCommand = (typeof DEVICE_COMMANDS)['motorized_gate'][number];
export type SensorCommand = (typeof DEVICE_COMMANDS)['level_sensor'][number];
export type CommandName = GateCommand | SensorCommand;

export const COMMAND_STATUSES = [
  'pending',
  'delivered',
  'succeeded',
  'failed',
  'timed_out',
  'superseded',
  // Two-person commands (docs/control.md): waiting for another person, refused by one, or left too long.
  'awaiting_approval',
  'rejected',
  'expired',
] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

/** Spanish names of commands and of their progress (the device panel, the reports). */
export const COMMAND_LABELS: Readonly<Record<string, string>> = {
  abrir: 'Abrir',
  cerrar: 'Cerrar',
  detener: 'Detener',
  read: 'Leer',
  restart: 'Reiniciar',
};

export function commandLabel(command: string): string {
  return COMMAND_LABELS[command] ?? command;
}

export const COMMAND_STATUS_LABELS: Readonly<Record<CommandStatus, string>> = {
  pending: 'Pendiente',
  delivered: 'Entregado',
  succeeded: 'Confirmado',
  failed: 'Falló',
  timed_out: 'Sin respuesta',
  superseded: 'Reemplazado',
  awaiting_approval: 'En espera de aprobación',
  rejected: 'Rechazado',
  expired: 'Caducado',
};

/** Whether a command is still waiting for the device. */
export function isCommandInFlight(status: CommandStatus): boolean {
  return status === 'pending' || status === 'delivered';
}

/** Whether a device of this type takes the command. */
export function acceptsCommand(type: DeviceType, command: string): command is CommandName {
  return (DEVICE_COMMANDS[type] as readonly string[]).includes(command);
}

export const DEVICE_TYPE_LABELS: Readonly<Record<DeviceType, string>> = {
  level_sensor: 'Sensor de Nivel',
  motorized_gate: 'Compuerta Motorizada',
};

export const WATER_TYPE_LABELS: Readonly<Record<WaterType, string>> = {
  residual: 'Agua Residual',
  clean: 'Agua Limpia',
};

export const GATE_STATE_LABELS: Readonly<Record<GateState, string>> = {
  abierta: 'Abierta',
  cerrada: 'Cerrada',
  abriendo: 'Abriendo…',
  cerrando: 'Cerrando…',
  falla: 'Falla',
};
