/** UI-only Spanish labels for commands and their progress (not part of the seed catalogue). */
import type { CommandStatus } from '@agua/shared';

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
};
