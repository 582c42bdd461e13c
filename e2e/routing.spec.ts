import { expect, test } from './support/test';
import { menuLinks, signIn } from './support/auth';

test.describe('Rutas', () => {
  test('una ruta desconocida muestra Unexpected Application Error!', async ({ page }) => {
    await page.goto('/esta-ruta-no-existe');
    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!', exact: true })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('404');
  });

  test('una ruta desconocida con sesión también muestra el error', async ({ page }) => {
    await signIn(page, 'operator');
    await page.goto('/no/existe/tampoco');
    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!', exact: true })).toBeVisible();
  });

  test('cargar / directamente con sesión muestra el dashboard', async ({ page }) => {
    await signIn(page, 'viewer');
    // A direct load (typed URL, bookmark, reload), not a client-side navigation.
    const res = await page.goto('/');
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toContain('text/html');
    await expect(page.getByRole('heading', { level: 1, name: 'Panel de Control de Agua', exact: true })).toBeVisible();
  });

  test('el manual describe el protocolo de dispositivos con curl y mosquitto_pub', async ({ page }) => {
    await signIn(page, 'admin');
    await menuLinks(page).filter({ hasText: 'Manual Admin' }).click();
    await expect(page).toHaveURL(/\/manual$/);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Conexión de dispositivos ESP32' })).toBeVisible();

    const curl = main.locator('pre').filter({ hasText: /^\s*curl -X POST/ });
    await expect(curl).toHaveCount(1);
    await expect(curl).toContainText('/api/v1/telemetry');
    await expect(curl).toContainText('X-API-Key');

    const mqtt = main.locator('pre').filter({ hasText: /^\s*mosquitto_pub/ });
    await expect(mqtt).toHaveCount(1);
    await expect(mqtt).toContainText('agua/v1/esp32_nivel_01/telemetry');

    // The message format of the manual: deviceId, type, data with value and unit.
    await expect(main.locator('pre').filter({ hasText: '"deviceId"' }).first()).toContainText('"data"');
  });
});
