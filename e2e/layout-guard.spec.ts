import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { createDevice } from './support/api';
import { purgeDevice } from './support/cleanup';
import { deviceCard, expectLive } from './support/devices';
import { expectNoCoveredControls, settlePage, watchRequests } from './support/layout';

/** A gate with an alarm on its card (the alarm summary makes the card taller). */
const GATE = { id: 'e2e_compuerta_layout', name: 'Compuerta Diseño E2E' };
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];
const SCREENS = ['/', '/wall', '/devices', `/devices?id=${GATE.id}`, '/alarms', '/overflows', '/reports', '/account/password', '/account/notifications', '/users', '/audit', '/notifications', '/manual', '/interlocks', '/map'];

/** Opens a screen and waits for it to be drawn, with no toast left over it. */
async function openScreen(page: Page, path: string): Promise<void> {
  watchRequests(page);
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await settlePage(page);
  for (const close of await page.getByRole('region', { name: /^Notificación/ }).getByRole('button').all()) await close.click();
}

test.describe('Ningún control queda tapado', () => {
  test.setTimeout(180_000);
  let apiKey = '';
  let heartbeat: NodeJS.Timeout | undefined;

  test.beforeAll(async () => {
    apiKey = await createDevice({ id: GATE.id, name: GATE.name, location: 'Prueba de diseño', type: 'motorized_gate', config: {} });
  });
  test.afterAll(async () => {
    clearInterval(heartbeat);
    await purgeDevice(GATE.id);
  });

  test('la página de acceso, a 390, 1024, 1440 y 1920 px', async ({ page }) => {
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: 'Iniciar Sesión', exact: true })).toBeVisible();
      await expectNoCoveredControls(page, `/login at ${size.width} px`);
    }
  });

  test("cada pantalla del administrador, y 'Abrir'/'Cerrar' de una compuerta con alarma pulsados en su centro", async ({ page }) => {
    // The gate reports a fault and then its state: its card carries the alarm, and it stays online.
    const post = (value: string) => page.request.post('/api/v1/telemetry', { headers: { 'X-API-Key': apiKey }, data: { deviceId: GATE.id, type: 'motorized_gate', data: { value } } });
    expect((await post('falla')).status()).toBe(202);
    expect((await post('cerrada')).status()).toBe(202);
    heartbeat = setInterval(() => void post('cerrada').catch(() => undefined), 4_000);

    await signIn(page, 'admin');
    await expectLive(page);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      for (const path of SCREENS) {
        await openScreen(page, path);
        await expectNoCoveredControls(page, `${path} at ${size.width} px`);
      }
      await openScreen(page, '/');
      const card = deviceCard(page, GATE.id);
      await expect(card.getByTestId(`device-alarms-${GATE.id}`)).toBeVisible();
      for (const action of ['Abrir', 'Cerrar']) {
        // Playwright clicks the centre and fails if another element would take the click.
        await card.getByRole('button', { name: action, exact: true }).click({ timeout: 5_000 });
        const dialog = page.getByRole('alertdialog');
        await expect(dialog).toContainText(`¿${action} la compuerta ${GATE.name}?`);
        await dialog.getByRole('button', { name: 'Cancelar' }).click();
        await expect(dialog).toBeHidden();
      }
    }
  });
});
