import { expect, test } from './support/test';
import { ACCOUNTS, signIn, submitLogin } from './support/auth';
import { deviceCard, expectLeadsWithCritical, expectLive } from './support/devices';
import { startFreezableProxy } from './support/freezable-proxy';
import { ownTank, reportLevel } from './support/own-tank';

// The dashboard tells the truth at a glance: what is wrong, where, and whether the data is live.
test.describe('El panel dice la verdad', () => {
  test.setTimeout(90_000);
  const TANK = ownTank('e2e_tanque_verdad', 'Tanque Verdad E2E');

  test("un tanque vuelto a la normalidad no lleva 'Crítica' en su tarjeta; 'Alertas Críticas' nombra el tanque y lleva a él", async ({ page }) => {
    await signIn(page, 'operator');
    await expectLive(page);

    await reportLevel(page.request, TANK, 4.9);
    const card = deviceCard(page, TANK.id);
    const summary = page.getByTestId(`device-alarms-${TANK.id}`);
    await expect(summary).toHaveAttribute('data-active', '2');
    await expect(summary.locator('[data-priority="1"]')).toHaveText('Crítica');
    // Abnormal first: the critical tank leads the grid.
    await expectLeadsWithCritical(page, 'device-card-', TANK.id);
    // The tile names the tank (a simulated tank may be critical too, so its count is not asserted).
    const tile = page.getByTestId('tile-critical');
    await expect(tile).toHaveAttribute('data-tone', 'crit');
    await expect(tile.getByRole('link', { name: TANK.name })).toBeVisible();

    // Back to normal: the alarms wait for an acknowledgement, but nothing on the card is active.
    await reportLevel(page.request, TANK, 1);
    await expect(summary).toHaveAttribute('data-active', '0');
    await expect(summary).toContainText('2 normalizadas sin reconocer');
    await expect(card.locator('[data-priority]')).toHaveCount(0);
    await expect(tile.getByRole('link', { name: TANK.name })).toHaveCount(0);

    await reportLevel(page.request, TANK, 4.9);
    await tile.getByRole('link', { name: TANK.name }).click();
    await expect(page).toHaveURL(new RegExp(`/devices\\?id=${TANK.id}$`));
  });

  test("sin conexión tras recargar: '—' y 'Sin datos', nunca '0' ni 'Operativo'; una pantalla no visitada no queda en blanco", async ({ page, context }) => {
    await signIn(page, 'operator');
    await expectLive(page);
    // Every screen's code in the service worker's cache before the network goes.
    await page.waitForFunction(async () => {
      const registration = await navigator.serviceWorker.ready;
      if (!registration.active) return false;
      const list = (await (await fetch('/precache.json')).json()) as string[];
      const cache = await caches.open('agua-shell-v1');
      const held = new Set((await cache.keys()).map((r) => new URL(r.url).pathname));
      return list.every((f) => held.has(f));
    }, undefined, { timeout: 20_000, polling: 500 });

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Panel de Control de Agua' })).toBeVisible();
    for (const id of ['tile-devices', 'tile-critical', 'tile-sensors', 'tile-system']) {
      await expect(page.getByTestId(id)).toHaveAttribute('data-tone', 'unknown');
      await expect(page.getByTestId(id)).toContainText('—');
    }
    await expect(page.getByTestId('tile-critical')).not.toContainText('Sin niveles críticos');
    await expect(page.getByTestId('tile-system')).toContainText('Sin datos en tiempo real');
    await expect(page.getByText('No hay dispositivos registrados')).toHaveCount(0);
    await expect(page.getByTestId('live-status')).not.toHaveText('Sistema Activo');

    // A screen this browser never opened: its code comes from the cache.
    await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Alarmas' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Alarmas', exact: true })).toBeVisible();
    await context.setOffline(false);
  });

  test("con el enlace medio muerto la cabecera pasa a 'Sin datos en tiempo real', y vuelve sola", async ({ page }) => {
    const proxy = await startFreezableProxy(Number(process.env.E2E_PORT));
    try {
      const { username, password } = ACCOUNTS.operator;
      await page.goto(`${proxy.url}/login`);
      await submitLogin(page, username, password);
      const status = page.getByTestId('live-status');
      await expect(status).toHaveText('Sistema Activo', { timeout: 20_000 });

      // Nothing gets through any more, and no connection closes.
      proxy.freeze();
      const frozenAt = Date.now();
      await expect(status).toHaveText('Sin datos en tiempo real', { timeout: 15_000 });
      expect(Date.now() - frozenAt).toBeLessThan(13_000);
      await expect(page.getByTestId('tile-system')).toContainText('Sin datos en tiempo real');

      proxy.thaw();
      await expect(status).toHaveText('Sistema Activo', { timeout: 20_000 });
    } finally {
      await proxy.close();
    }
  });
});
