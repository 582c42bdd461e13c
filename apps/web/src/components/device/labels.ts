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

/**
 * The question before a gate command and its confirm button, which names the act ('Abrir
 * compuerta'), never a bare 'Confirmar': the button says what will happen to the water.
 */
export function gateConfirmation(command: string, gateName: string): { title: string; confirmLabel: string } {
  const verb = commandLabel(command);
  return { title: `¿${verb} la compuerta ${gateName}?`, confirmLabel: `${verb} compuerta` };
}

export const COMMAND_STATUS_LABELS: Readonly<Record<CommandStatus, string>> = {
  pending: 'Pendiente',
  delivered: 'Entregado',
  succeeded: 'Confirmado',
  failed: 'Falló',
  timed_out: 'Sin respuesta',
  superseded: 'Reemplazado',
};
