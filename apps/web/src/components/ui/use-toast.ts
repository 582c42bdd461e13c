/**
 * A tiny toast store (shadcn pattern): `toast()` can be called from anywhere, even outside React
 * (mutations, the auth provider); <Toaster/> renders it with Radix Toast.
 */
import { useSyncExternalStore, type ReactNode } from 'react';
import { TOAST_LIMIT } from '@agua/shared';

export type ToastVariant = 'default' | 'success' | 'destructive';

export interface ToastInput {
  title: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
}

export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

// Time the exit animation gets before a dismissed toast leaves the list.
const REMOVE_DELAY_MS = 200;

let nextId = 0;
let toasts: ToastItem[] = [];
const listeners = new Set<() => void>();

function emit(next: ToastItem[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  emit(toasts.map((t) => (t.id === id ? { ...t, open: false } : t)));
  setTimeout(() => emit(toasts.filter((t) => t.id !== id || t.open)), REMOVE_DELAY_MS);
}

/** Shows a toast; with TOAST_LIMIT = 1 a new one replaces the one on screen. */
export function toast(input: ToastInput): { id: number; dismiss: () => void } {
  const id = ++nextId;
  emit([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

export function useToast() {
  const items = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasts,
  );
  return { toasts: items, toast, dismiss: dismissToast };
}
