/**
 * Light/dark theme: follows the system until the user picks one in the header; the pick is kept
 * in localStorage. Applied as the `dark` class on <html>, which the CSS tokens key on.
 */
import { useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';
const STORAGE_KEY = 'agua_theme';
const media = typeof window !== 'undefined' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
const listeners = new Set<() => void>();

function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

function resolveTheme(): Theme {
  return storedTheme() ?? (media?.matches ? 'dark' : 'light');
}

let current: Theme = resolveTheme();

function apply(): void {
  current = resolveTheme();
  document.documentElement.classList.toggle('dark', current === 'dark');
  for (const listener of listeners) listener();
}

/** Applies the theme once before the first render (no flash) and follows system changes. */
export function initTheme(): void {
  apply();
  media?.addEventListener('change', apply);
}

export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
  apply();
}

export function useTheme(): Theme {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}
