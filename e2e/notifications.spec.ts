import { pushKeys, startReceiver } from '../apps/server/test/helpers/receivers';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { sidebar, signIn } from './support/auth';
import { expectToast } from './support/toast';

/**
 * Headless Chromium cannot reach a real push service: the browser's PushManager is replaced by
 * one that hands out a subscription to a local endpoint of the test; everything after it — the
 * page, the server, VAPID, RFC 8291 encryption — is real, and the endpoint decrypts.
 */
async function fakePushManager(page: Page, endpoint: string, keys: { p256dh: string; auth: string }): Promise<void> {
  await page.addInitScript(
    ({ endpoint, p256dh, auth }) => {
      let current: unknown = null;
      const subscription = {
        endpoint,
        expirationTime: null,
        options: {},
        getKey: () => null,
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
        unsubscribe: async () => {
          current = null;
          return true;
        },
      };
      PushManager.prototype.subscribe = async () => (current = subscription) as PushSubscription;
      PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
      Notification.requestPermission = async () => 'granted';
    },
    { endpoint, ...keys },
  );
}

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

  test('sin red, la app abre desde la caché del service worker y avisa de que los datos pueden estar desactualizados', async ({ page, context }) => {
    await signIn(page, 'viewer');
    await page.evaluate(async () => navigator.serviceWorker.ready);
    // The service worker controls the page after a reload; then the network goes away.
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await context.setOffline(true);
    try {
      await page.reload();
      await expect(page.getByText('Sin conexión: los datos mostrados pueden estar desactualizados.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Alarmas' }).first()).toBeVisible();
    } finally {
      await context.setOffline(false);
    }
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
    await expectToast(page, 'Preferencias guardadas');
    await page.reload();
    await expect(page.getByLabel('Correo electrónico')).toHaveValue('1');
    await expect(page.getByLabel('Notificaciones push')).toHaveValue('off');
    // Back to the defaults for the other tests.
    const res = await page.request.put('/api/v1/notifications/me', { data: { email: { minPriority: 2 }, push: { minPriority: 2 } } });
    expect(res.status()).toBe(200);
  });

  test('push en este navegador: se activa y la prueba llega cifrada al servicio push', async ({ page }) => {
    const service = await startReceiver();
    const keys = pushKeys();
    try {
      await fakePushManager(page, `${service.url}/push/e2e`, keys.keys);
      await signIn(page, 'operator');
      await page.goto('/account/notifications');
      await page.getByRole('button', { name: 'Activar push aquí' }).click();
      await expectToast(page, 'Push activado en este navegador');
      await expect(page.getByText('Navegadores con push: 1.')).toBeVisible();
      await page.getByRole('button', { name: 'Enviar prueba' }).click();
      await expectToast(page, 'Prueba enviada');
      await expect.poll(() => service.received.length, { timeout: 10_000 }).toBe(1);
      const message = JSON.parse(keys.decrypt(service.received[0]!.raw)) as { title: string; link: string };
      expect(message.title).toBe('Prueba de notificación · Panel de Control de Agua');
      await page.getByRole('button', { name: 'Desactivar push aquí' }).click();
      await expectToast(page, 'Push desactivado en este navegador');
      const mine = await (await page.request.get('/api/v1/notifications/me')).json();
      expect(mine.pushSubscriptions).toBe(0);
    } finally {
      await service.close();
    }
  });

  test('Cerrar Sesión quita el push de este navegador: no le llegan más alarmas de esa cuenta', async ({ page }) => {
    const service = await startReceiver();
    try {
      await fakePushManager(page, `${service.url}/push/salida`, pushKeys().keys);
      await signIn(page, 'operator');
      await page.goto('/account/notifications');
      await page.getByRole('button', { name: 'Activar push aquí' }).click();
      await expect(page.getByText('Navegadores con push: 1.')).toBeVisible();
      await sidebar(page).getByRole('button', { name: 'Cerrar Sesión' }).click();
      await expect(page).toHaveURL(/\/login$/);
      await signIn(page, 'operator');
      const mine = await (await page.request.get('/api/v1/notifications/me')).json();
      expect(mine.pushSubscriptions).toBe(0);
    } finally {
      await service.close();
    }
  });
});
