/** The words around a gate command in the UI (the command labels themselves are shared: reports use them too). */
import { commandLabel } from '@agua/shared';

/**
 * The question before a gate command and its confirm button, which names the act ('Abrir
 * compuerta'), never a bare 'Confirmar': the button says what will happen to the water.
 */
export function gateConfirmation(command: string, gateName: string): { title: string; confirmLabel: string } {
  const verb = commandLabel(command);
  return { title: `¿${verb} la compuerta ${gateName}?`, confirmLabel: `${verb} compuerta` };
}
