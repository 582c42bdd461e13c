import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { canvasTexts, recordCanvasText, resetCanvasTexts } from './support/canvas';
import { controlPanel, deviceCard, deviceRow, DEVICES, expectLive, LEVEL_TEXT, SIM_TIMEOUT } from './support/devices';

const RANGES = ['1 h', '24 h', '7 d', '30 d'] as const;

/** Goes to /devices and selects a device from the list. */
async function selectDevice(page: Page, device: { id: string; name: string }): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Dispositivos' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Control de Dispositivos de Agua' })).toBeVisible();
  await deviceRow(page, device.id).getByRole('link', { name: device.name }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]id=${device.id}$`));
  const panel = controlPanel(page);
  await expect(panel).toContainText(device.name);
  return panel;
}

/** The chart has drawn: a canvas with a non-zero size inside the chart's image box. */
async function expectCanvasDrawn(chart: Locator, label: string | RegExp) {
  const img = chart.getByRole('img', { name: label });
  await expect(img).toBeVisible({ timeout: SIM_TIMEOUT });
  const canvas = img.locator('canvas').first();
  await expect(canvas).toBeVisible();
  await expect.poll(async () => canvas.evaluate((c: HTMLCanvasElement) => c.width * c.height)).toBeGreaterThan(0);
  const size = await canvas.evaluate((c: HTMLCanvasElement) => ({ w: c.width, h: c.height, cw: c.clientWidth, ch: c.clientHeight }));
  expect(size.w).toBeGreaterThan(0);
  expect(size.h).toBeGreaterThan(0);
  expect(size.cw).toBeGreaterThan(0);
  expect(size.ch).toBeGreaterThan(0);
}

/** Collects uncaught page errors and console errors, for 'switches without errors'. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

test.describe('Gráfico de tendencia', () => {
  test('nivel: el gráfico de esp32_nivel_01 se dibuja con umbrales y cambia de rango', async ({ page }) => {
    await recordCanvasText(page);
    await signIn(page, 'operator');
    await expectLive(page);
    const errors = watchErrors(page);
    const panel = await selectDevice(page, DEVICES.nivel01);

    const chart = panel.getByTestId('trend-chart');
    await expect(chart).toBeVisible();
    await expect(chart.getByRole('heading', { name: 'Tendencia del nivel' })).toBeVisible();
    const levelImg = /^Nivel a lo largo del tiempo/;
    await expectCanvasDrawn(chart, levelImg);
    // The legend under a drawn plot.
    await expect(chart.getByText('Media', { exact: true })).toBeVisible();
    await expect(chart.getByText('Mínimo–máximo', { exact: true })).toBeVisible();
    // The threshold tags are drawn on the canvas: 'Advertencia 60 %' and 'Crítico 85 %'.
    await expect.poll(async () => (await canvasTexts(page)).filter((t) => /^(Advertencia|Crítico)\b/.test(t)), { timeout: SIM_TIMEOUT }).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Advertencia 60\s?%$/), expect.stringMatching(/^Crítico 85\s?%$/)]),
    );
    // The readout above the plot names the newest value.
    await expect(chart.locator('p').first()).toHaveText(/^Último: -?\d+(?:[.,]\d+)?\s*m/, { timeout: SIM_TIMEOUT });

    const group = chart.getByRole('group', { name: 'Rango de tiempo' });
    await expect(group.getByRole('button', { name: '24 h', exact: true })).toHaveAttribute('aria-pressed', 'true');
    for (const label of RANGES) {
      await resetCanvasTexts(page);
      const button = group.getByRole('button', { name: label, exact: true });
      await button.click();
      await expect(button).toHaveAttribute('aria-pressed', 'true');
      for (const other of RANGES.filter((r) => r !== label)) {
        await expect(group.getByRole('button', { name: other, exact: true })).toHaveAttribute('aria-pressed', 'false');
      }
      await expect(chart.getByRole('alert')).toHaveCount(0);
      await expect(chart.getByText('Sin lecturas en este rango.', { exact: true })).toHaveCount(0);
      await expectCanvasDrawn(chart, levelImg);
      // Redrawn for the new range, thresholds included.
      await expect.poll(async () => (await canvasTexts(page)).some((t) => t.startsWith('Crítico')), { timeout: SIM_TIMEOUT }).toBe(true);
    }
    await expect(chart.getByRole('alert')).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('compuerta: la Compuerta Canal A muestra su línea de estados', async ({ page }) => {
    await signIn(page, 'operator');
    await expectLive(page);
    const errors = watchErrors(page);
    const row = deviceRow(page, DEVICES.compuerta01.id);
    await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Dispositivos' }).click();
    await expect(row.getByText('En Línea', { exact: true })).toBeVisible({ timeout: SIM_TIMEOUT });
    const panel = await selectDevice(page, DEVICES.compuerta01);

    const chart = panel.getByTestId('trend-chart');
    await expect(chart).toBeVisible();
    await expect(chart.getByRole('heading', { name: 'Historial de estados' })).toBeVisible();
    await expectCanvasDrawn(chart, /^Periodos de la compuerta/);
    for (const legend of ['Abierta', 'Cerrada', 'En movimiento']) {
      await expect(chart.getByText(legend, { exact: true })).toBeVisible();
    }
    await expect(chart.locator('p').first()).toHaveText(/^Estado actual: (Abierta|Cerrada|Abriendo|Cerrando|Falla)/, { timeout: SIM_TIMEOUT });

    const group = chart.getByRole('group', { name: 'Rango de tiempo' });
    for (const label of RANGES) {
      const button = group.getByRole('button', { name: label, exact: true });
      await button.click();
      await expect(button).toHaveAttribute('aria-pressed', 'true');
      await expect(chart.getByRole('alert')).toHaveCount(0);
      await expectCanvasDrawn(chart, /^Periodos de la compuerta/);
    }
    expect(errors).toEqual([]);
  });

  test('dashboard: la tarjeta de esp32_nivel_01 muestra su minigráfico', async ({ page }) => {
    await signIn(page, 'operator');
    await expectLive(page);
    const card = deviceCard(page, DEVICES.nivel01.id);
    await expect(page.getByTestId(`reading-${DEVICES.nivel01.id}`)).toHaveText(LEVEL_TEXT, { timeout: SIM_TIMEOUT });
    const sparkline = card.locator('svg[role="img"][aria-label="Tendencia del nivel en la última hora"]');
    await expect(sparkline).toBeVisible();
    // A line is drawn once there are two readings close together (the simulator: every 3 s).
    const line = sparkline.locator('polyline');
    await expect(line.first()).toBeAttached({ timeout: SIM_TIMEOUT });
    const points = (await line.first().getAttribute('points')) ?? '';
    expect(points.trim().split(/\s+/).length).toBeGreaterThanOrEqual(2);
    const box = await sparkline.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(0);
    expect(box?.height ?? 0).toBeGreaterThan(0);
  });
});
