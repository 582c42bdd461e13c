import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { canvasTexts, recordCanvasText, resetCanvasTexts } from './support/canvas';
import { deviceRow, DEVICES, expectLive, selectDevice, SIM_TIMEOUT } from './support/devices';

const RANGES = ['1 h', '24 h', '7 d', '30 d'] as const;
// The chart opens on '1 h': switching starts elsewhere so that every step redraws.
const SWITCH_ORDER = ['24 h', '7 d', '30 d', '1 h'] as const;

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
    await selectDevice(page, DEVICES.nivel01);

    const chart = page.getByTestId('trend-chart');
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
    await expect(group.getByRole('button', { name: '1 h', exact: true })).toHaveAttribute('aria-pressed', 'true');
    for (const label of SWITCH_ORDER) {
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
    await selectDevice(page, DEVICES.compuerta01);

    const chart = page.getByTestId('trend-chart');
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
});
