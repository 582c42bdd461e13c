import { expect, type Page } from '@playwright/test';

/**
 * The toast viewport (Radix Toast region 'Notificaciones (F8)'). Radix repeats each toast's text
 * in a hidden screen-reader announcement outside it, so assertions are scoped to this region.
 */
export function toastRegion(page: Page) {
  return page.getByRole('region', { name: /^Notificaciones/ });
}

/** Waits for a toast with this exact title and (optionally) description. */
export async function expectToast(page: Page, title: string, description?: string, timeout?: number): Promise<void> {
  const region = toastRegion(page);
  await expect(region.getByText(title, { exact: true }).first()).toBeVisible({ timeout });
  if (description !== undefined) await expect(region.getByText(description, { exact: true }).first()).toBeVisible({ timeout });
}
