import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { controlPanel, deviceCard, deviceRow, DEVICES, expectLive, LEVEL_TEXT, SIM_TIMEOUT } from './support/devices';

test.describe('Dashboard en vivo', () => {
  test('las lecturas del simulador aparecen y cambian', async ({ page }) => {
    await signIn(page, 'operator');
    await expectLive(page);

    const reading = page.getByTestId(`reading-${DEVICES.nivel01.id}`);
    // The first reading arrives within one interval (3 s) of the simulator.
    await expect(reading).toHaveText(LEVEL_TEXT, { timeout: 5_000 });
    const first = (await reading.textContent())?.trim() ?? '';
    // The water moves: a later reading shows a different value.
    await expect(reading).not.toHaveText(first, { timeout: 12_000 });
    await expect(reading).toHaveText(LEVEL_TEXT);
  });

  test('resumen: 3/4 dispositivos activos, compuerta 2 desconectada, Sistema Activo', async ({ page }) => {
    await signIn(page, 'operator');
    await expect(page.getByTestId('live-status')).toHaveText('Sistema Activo', { timeout: SIM_TIMEOUT });
    await expect(page.getByText('Monitoreo en tiempo real de niveles y compuertas.', { exact: true })).toBeVisible();

    const tile = page.getByRole('region', { name: 'Resumen' }).locator(':scope > *').filter({ hasText: 'Dispositivos Activos' });
    await expect(tile).toContainText('3/4', { timeout: SIM_TIMEOUT });

    for (const d of [DEVICES.nivel01, DEVICES.nivel02, DEVICES.compuerta01]) {
      await expect(deviceCard(page, d.id).getByText('En Línea', { exact: true })).toBeVisible({ timeout: SIM_TIMEOUT });
      await expect(deviceCard(page, d.id)).toContainText(d.name);
    }
    const silent = deviceCard(page, DEVICES.compuerta02.id);
    await expect(silent).toContainText(DEVICES.compuerta02.name);
    await expect(silent.getByText('Desconectado', { exact: true })).toBeVisible({ timeout: SIM_TIMEOUT });
    await expect(silent.getByText('En Línea', { exact: true })).toHaveCount(0);
  });

  test('una lectura HTTP pone en línea a esp32_compuerta_02 y el silencio la desconecta', async ({ page }) => {
    // 'En Línea' at once, then DEVICE_OFFLINE_AFTER_S (15 s) of silence before 'Desconectado'.
    test.setTimeout(90_000);
    await signIn(page, 'operator');
    await expectLive(page);
    const card = deviceCard(page, DEVICES.compuerta02.id);
    // Start from a silent gate (an earlier test may have talked for it).
    await expect(card.getByText('Desconectado', { exact: true })).toBeVisible({ timeout: SIM_TIMEOUT });

    const res = await page.request.post('/api/v1/telemetry', {
      headers: { 'X-API-Key': `demo-key-${DEVICES.compuerta02.id}` },
      data: { deviceId: DEVICES.compuerta02.id, type: 'motorized_gate', data: { value: 'cerrada' } },
    });
    expect(res.status(), await res.text()).toBe(202);
    const postedAt = Date.now();

    await expect(card.getByText('En Línea', { exact: true })).toBeVisible({ timeout: 5_000 });
    await expect(page.getByTestId(`reading-${DEVICES.compuerta02.id}`)).toHaveText('Cerrada');
    const tile = page.getByRole('region', { name: 'Resumen' }).locator(':scope > *').filter({ hasText: 'Dispositivos Activos' });
    await expect(tile).toContainText('4/4');

    await expect(card.getByText('Desconectado', { exact: true })).toBeVisible({ timeout: 25_000 });
    // Not before its offline timeout (15 s; the server checks at least every second).
    expect(Date.now() - postedAt).toBeGreaterThanOrEqual(14_000);
    await expect(tile).toContainText('3/4');
  });

  test('el observador lo ve todo pero no puede mandar comandos', async ({ page }) => {
    await signIn(page, 'viewer');
    await expectLive(page);
    const main = page.getByRole('main');
    const gate = deviceCard(page, DEVICES.compuerta01.id);
    await expect(gate.getByText('En Línea', { exact: true })).toBeVisible({ timeout: SIM_TIMEOUT });
    await expect(page.getByTestId(`reading-${DEVICES.nivel01.id}`)).toHaveText(LEVEL_TEXT, { timeout: SIM_TIMEOUT });
    await expect(page.getByTestId(`reading-${DEVICES.compuerta01.id}`)).toHaveText(/^(Abierta|Cerrada|Abriendo…|Cerrando…)$/);
    await expect(main.getByRole('button', { name: 'Abrir', exact: true })).toHaveCount(0);
    await expect(main.getByRole('button', { name: 'Cerrar', exact: true })).toHaveCount(0);

    // /devices: the commands of an online device are shown but disabled.
    await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Dispositivos' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Control de Dispositivos de Agua' })).toBeVisible();
    await expect(main.getByText('Selecciona un dispositivo para controlarlo', { exact: true })).toBeVisible();
    const row = deviceRow(page, DEVICES.compuerta01.id);
    await expect(row.getByText('En Línea', { exact: true })).toBeVisible({ timeout: SIM_TIMEOUT });
    await expect(row.getByRole('button', { name: /^(Conectar|Desconectar)$/ })).toHaveCount(0);
    await row.getByRole('link', { name: DEVICES.compuerta01.name }).click();

    const panel = controlPanel(page);
    await expect(panel.getByRole('heading', { name: 'Panel de Control' })).toBeVisible();
    await expect(panel).toContainText(DEVICES.compuerta01.name);
    for (const label of ['Abrir', 'Cerrar', 'Detener']) {
      await expect(panel.getByRole('button', { name: label, exact: true })).toBeDisabled();
    }

    // The same for a level sensor's commands.
    await deviceRow(page, DEVICES.nivel01.id).getByRole('link', { name: DEVICES.nivel01.name }).click();
    await expect(panel).toContainText(DEVICES.nivel01.name);
    for (const label of ['Leer', 'Reiniciar']) {
      await expect(panel.getByRole('button', { name: label, exact: true })).toBeDisabled();
    }
  });
});
