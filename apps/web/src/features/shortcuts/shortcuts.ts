/** The keyboard shortcuts of every signed-in screen, as the help dialog ('?') and the manual list them. */
export interface Shortcut {
  key: string;
  /** What a person sees in the help: the key as printed on the keyboard. */
  keyLabel: string;
  description: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { key: 'a', keyLabel: 'A', description: 'Ir a Alarmas' },
  { key: 'd', keyLabel: 'D', description: 'Ir al Dashboard' },
  { key: 's', keyLabel: 'S', description: 'Abrir la Sala de control (pantalla completa de vigilancia)' },
  { key: 'r', keyLabel: 'R', description: 'En la Sala de control: reconocer la alarma seleccionada (con ↑ y ↓ se elige)' },
  { key: '?', keyLabel: '?', description: 'Mostrar esta ayuda' },
  { key: 'F8', keyLabel: 'F8', description: 'Ir a las notificaciones emergentes' },
];

/** Keys typed into a field, or with a modifier, are the field's or the browser's, never a shortcut. */
export function isShortcutEvent(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return false;
  const target = event.target as HTMLElement | null;
  if (!target) return true;
  if (target.isContentEditable) return false;
  return !['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) && !target.closest('[role="dialog"], [role="alertdialog"]');
}
