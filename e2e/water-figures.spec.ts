import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { controlPanel, deviceCard, DEVICES, expectLive, SIM_TIMEOUT } from './support/devices';

const TANK = DEVICES.nivel01;
// The demo's geometry of esp32_nivel_01 (docs/water.md): a 24 m² wet well, crest 9 m, so the
// reference volume is 216 m³ and a level of 5 m holds 120 m³ (56 % of it).
const AREA_M2 = 24;
const VOLUME = /^\d{1,3}(?:\.\d{3})*,\d m³$/;

/**
 * The tank's own board reports, in one batch, a level rising at a known rate: 1 cm/s (0.24 m³/s,
 * 864 m³/h) from 2 m to 5 m, a reading every 0.625 s over the last five minutes (the flow window)
 * up to a minute ahead. The simulator keeps reporting for the same tank, a reading every 3 s at
 * its own level; ours outnumber its six to one in the window, so the net flow is an inflow, and
 * for that minute our 5 m is the newest reading: the volume is 120,0 m³ and the forecast
 * (216 − 120) m³ at the fitted inflow. (ts up to 5 minutes ahead is allowed: docs/protocol.md.)
 * The readings stay in the tank's history, as a real board's would; after that minute the
 * simulator's readings are the newest again.
 */
async function reportRisingLevel(page: Page): Promise<void> {
  const rate = 0.01; // m/s
  const stepMs = 625;
  const endMs = Date.now() + 60_000;
  const count = 481; // 300 s
  const batch = Array.from({ length: count }, (_, i) => {
    const ageS = ((count - 1 - i) * stepMs) / 1000;
    return { deviceId: TANK.id, type: 'level_sensor', ts: endMs - ageS * 1000, data: { value: Math.round((5 - rate * ageS) * 1000) / 1000, unit: 'm' } };
  });
  const res = await page.request.post('/api/v1/telemetry', { headers: { 'X-API-Key': `demo-key-${TANK.id}` }, data: batch });
  expect(res.status(), await res.text()).toBe(202);
}

async function shoot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test.describe('Cifras de agua en las tarjetas y el panel', () => {
  test("la tarjeta de esp32_nivel_01 muestra su volumen y, con el nivel subiendo, 'Desborde en ≈ …'", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, 'operator');
    await expectLive(page);
    const card = deviceCard(page, TANK.id);

    // The demo tank has a shape: its card tells the water it holds; a gate has no water figures.
    await expect(card.getByTestId(`water-volume-${TANK.id}`)).toHaveText(VOLUME, { timeout: SIM_TIMEOUT });
    await expect(card.getByTestId(`water-fill-${TANK.id}`)).toHaveText(/^\d+ % lleno$/);
    await expect(deviceCard(page, DEVICES.compuerta01.id).locator('[data-testid^="water-"]')).toHaveCount(0);

    await reportRisingLevel(page);

    // Live: the reading.created frame brings the figures after the batch.
    await expect(card.getByTestId(`water-volume-${TANK.id}`)).toHaveText(`${(5 * AREA_M2).toFixed(1).replace('.', ',')} m³`);
    await expect(card.getByTestId(`water-fill-${TANK.id}`)).toHaveText('56 % lleno');
    await expect(card.getByTestId(`water-flow-${TANK.id}`)).toHaveText(/^Entrada neta \+\d{1,3}(?:\.\d{3})*,\d m³\/h$/);
    const forecast = card.getByTestId(`water-forecast-${TANK.id}`);
    await expect(forecast).toContainText('Desborde en ≈');
    // (216 − 120) m³ at an inflow near 864 m³/h: minutes, not hours.
    await expect(forecast).toHaveText(/^Desborde en ≈ \d{1,2} min$/);

    // The device's panel says the same, and draws the volume beside the level.
    await page.goto(`/devices?id=${TANK.id}`);
    const panel = controlPanel(page);
    await expect(panel.getByTestId(`water-forecast-${TANK.id}`)).toContainText('Desborde en ≈');
    await expect(panel.getByTestId(`water-flow-${TANK.id}`)).toContainText('Entrada neta +');
    const chart = page.getByTestId('trend-chart');
    await expect(chart.getByRole('img', { name: /^Volumen a lo largo del tiempo/ })).toBeVisible({ timeout: SIM_TIMEOUT });
    await expect(chart.getByTestId('volume-trend').locator('p').first()).toHaveText(/^Último: \d{1,3}(?:\.\d{3})*,\d m³ · /);
    await expect(chart.getByText('Vertedero (volumen de referencia)', { exact: true })).toBeVisible();

    // Looked at by a person: both themes, wide and phone; nothing wider than a 390 px screen.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.goto('/');
        await expect(card.getByTestId(`water-forecast-${TANK.id}`)).toContainText(/Desborde en|Vacío en|^$/);
        await expect(card.getByTestId(`water-volume-${TANK.id}`)).toHaveText(VOLUME);
        await card.scrollIntoViewIfNeeded();
        await shoot(page, testInfo, `dashboard-${width}-${scheme}`);
        if (width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await page.goto(`/devices?id=${TANK.id}`);
        await expect(chart.getByRole('img', { name: /^Volumen a lo largo del tiempo/ })).toBeVisible({ timeout: SIM_TIMEOUT });
        await shoot(page, testInfo, `devices-${width}-${scheme}`);
        if (width === 390) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      }
    }
  });

  test("el manual explica qué significa 'Desborde en ≈ …' y cuándo no aparece", async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/manual');
    const section = page.getByRole('region', { name: 'Volumen, caudal y tiempo hasta el desborde' });
    await expect(section).toBeVisible();
    await expect(section).toContainText('Desborde en ≈ 2 h 10 min: el tiempo aproximado hasta que el agua llegue al vertedero');
    await expect(section).toContainText('La previsión no aparece, a propósito, cuando no hay base para hacerla');
    await expect(section).toContainText('Salida neta −12,0 m³/h');
  });
});
