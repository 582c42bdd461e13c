import { expect, type Page } from '@playwright/test';

/**
 * The toast region found by its attributes rather than its role. While a modal dialog stays open
 * (the export dialog after an error, the API-key dialog after creating a device or rotating its
 * key), Radix marks everything outside the dialog aria-hidden, the toast region included, so
 * toast.ts's role query no longer finds it although the toast is on screen. (Radix still
 * announces the toast to screen readers through its separate live region.)
 */
export function toastRegionBehindModal(page: Page) {
  return page.locator('[role="region"][aria-label^="Notificaciones"]');
}

/** expectToast for a toast raised while a modal dialog is open (see toastRegionBehindModal). */
export async function expectToastBehindModal(page: Page, title: string, description?: string, timeout?: number): Promise<void> {
  const region = toastRegionBehindModal(page);
  await expect(region.getByText(title, { exact: true }).first()).toBeVisible({ timeout });
  if (description !== undefined) await expect(region.getByText(description, { exact: true }).first()).toBeVisible({ timeout });
}
