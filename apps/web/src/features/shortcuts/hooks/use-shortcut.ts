import { useEffect, useRef } from 'react';
import { isShortcutEvent } from '../shortcuts';

/** Calls `handler` when `key` is pressed outside fields and dialogs, while `enabled`. */
export function useShortcut(key: string, handler: (event: KeyboardEvent) => void, enabled = true): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== key || !isShortcutEvent(event)) return;
      event.preventDefault();
      ref.current(event);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [key, enabled]);
}
