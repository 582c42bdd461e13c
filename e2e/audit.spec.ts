import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { expectToast } from './support/toast';

/** A calendar day as the browser counts it (its time zone, not this process's), yyyy-mm-dd. */
const dayIn = (page: Page, offset: number) =>
  page.evaluate((o) => {
    const now = new Date();
    const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + o);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  }, offset);

test.describe('Auditoría', () => {
  test("'Hoy' y 'Ayer' fijan el día; 'Exportar CSV' descarga lo filtrado o dice que no hay datos", async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/audit');
    await expect(page.getByRole('heading', { level: 1, name: 'Auditoría' })).toBeVisible();
    const [today0, yesterday] = [await dayIn(page, 0), await dayIn(page, -1)];

    const today = page.getByRole('button', { name: 'Hoy', exact: true });
    await today.click();
    await expect(page).toHaveURL(new RegExp(`from=${today0}&to=${today0}`));
    await expect(today).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByLabel('Desde')).toHaveValue(today0);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('Auditoria.csv');
    const text = fs.readFileSync(await file.path(), 'utf8');
    expect(text.startsWith('\uFEFFFecha y Hora,Acción,Resultado,Usuario,Objetivo,Dirección IP,Detalles\r\n')).toBe(true);
    expect(text).toContain(',auth.login,Correcto,admin,');

    await page.getByRole('button', { name: 'Ayer', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`from=${yesterday}&to=${yesterday}`));
    await expect(page.getByRole('button', { name: 'Ayer', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(today).toHaveAttribute('aria-pressed', 'false');

    // A day long before this system existed: nothing to export, and the screen says so.
    await page.getByLabel('Desde').fill('2001-01-01');
    await page.getByLabel('Hasta').fill('2001-01-01');
    await expect(page).toHaveURL(/from=2001-01-01&to=2001-01-01/);
    await page.getByRole('button', { name: 'Exportar CSV' }).click();
    await expectToast(page, 'Sin datos', 'No hay eventos de auditoría con esos filtros.');
  });
});
