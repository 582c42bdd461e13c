import { expect, test } from './support/test';
import { signIn } from './support/auth';

test.describe('Notificaciones', () => {
  test('la app es instalable: manifiesto válido y service worker registrado, sin errores de instalabilidad', async ({ page }) => {
    await page.goto('/login');
    const scriptURL = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? null);
    expect(scriptURL).toMatch(/\/sw\.js$/);
    const manifest = await (await page.request.get('/manifest.webmanifest')).json();
    expect(manifest).toMatchObject({ name: 'Panel de Control de Agua', display: 'standalone', lang: 'es' });
    const cdp = await page.context().newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> };
    // Playwright's browser contexts are private windows, where nothing installs: that one is the browser's, not the app's.
    expect(installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([]);
  });

  test('Mis notificaciones guarda qué alarmas llegan por correo y push', async ({ page }) => {
    await signIn(page, 'viewer');
    await page.getByRole('link', { name: 'Mis notificaciones' }).first().click();
    await expect(page.getByRole('heading', { name: 'Mis notificaciones' })).toBeVisible();
    const email = page.getByLabel('Correo electrónico');
    await expect(email).toHaveValue('2'); // default: Crítica y Alta
    await email.selectOption({ label: 'Solo Crítica' });
    await page.getByLabel('Notificaciones push').selectOption({ label: 'Desactivado' });
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Preferencias guardadas')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Correo electrónico')).toHaveValue('1');
    await expect(page.getByLabel('Notificaciones push')).toHaveValue('off');
    // Back to the defaults for the other tests.
    const res = await page.request.put('/api/v1/notifications/me', { data: { email: { minPriority: 2 }, push: { minPriority: 2 } } });
    expect(res.status()).toBe(200);
  });
});
