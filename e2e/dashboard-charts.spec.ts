import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { controlPanel, deviceCard, DEVICES, expectLive, selectDevice, SIM_TIMEOUT } from './support/devices';

/** The demo level sensors (packages/simulator): their capacity and the default thresholds (60 %, 85 %). */
const SENSORS = [
  { ...DEVICES.nivel01, max: '10,00 m', warn: '6,00 m', crit: '8,50 m', maxM: 10 },
  { ...DEVICES.nivel02, max: '5,00 m', warn: '3,00 m', crit: '4,25 m', maxM: 5 },
] as const;

/** uPlot's root inside a chart: where the charts write what their canvas drew (data-*). */
const plotRoot = (chart: Locator) => chart.locator('.uplot');

/**
 * Share of the plot's width where the canvas row at `y` (CSS px from the canvas top) is painted in
 * a warm colour (red channel well above blue): the warning (amber) and critical (red) lines are
 * warm, the level line, band and grid are neutral grey.
 */
async function warmShareOfRow(chart: Locator, y: number): Promise<number> {
  return chart.locator('canvas').first().evaluate((canvas: HTMLCanvasElement, yCss) => {
    const ratio = canvas.width / canvas.clientWidth;
    const row = canvas.getContext('2d')!.getImageData(0, Math.floor(yCss * ratio), canvas.width, 1).data;
    let painted = 0;
    for (let i = 0; i < row.length; i += 4) if (row[i + 3]! > 60 && row[i]! - row[i + 2]! > 60) painted++;
    return painted / canvas.width;
  }, y);
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
};

async function openDashboard(page: Page) {
  await signIn(page, 'operator');
  await expectLive(page);
}

test.describe('Gráficos del dashboard', () => {
  test('cada tarjeta de nivel muestra su última hora: eje de tiempo, escala 0…capacidad y umbrales', async ({ page }) => {
    await openDashboard(page);
    for (const s of SENSORS) {
      const chart = deviceCard(page, s.id).getByTestId(`level-chart-${s.id}`);
      await expect(chart).toBeVisible();
      await expect(chart.getByRole('img')).toHaveAccessibleName(
        `Nivel en la última hora, en hora local; escala de 0 a ${s.max}; advertencia en ${s.warn} (60 %), crítico en ${s.crit} (85 %)`,
      );
      const root = plotRoot(chart);
      // Time axis: clock times (local, 24 h) spanning most of an hour.
      await expect(root).toHaveAttribute('data-x-ticks', /^\d{2}:\d{2}( \| \d{2}:\d{2})+$/);
      const xTicks = ((await root.getAttribute('data-x-ticks')) ?? '').split(' | ');
      const span = (minutesOf(xTicks.at(-1)!) - minutesOf(xTicks[0]!) + 1440) % 1440;
      expect(span).toBeGreaterThanOrEqual(20);
      expect(span).toBeLessThanOrEqual(60);
      // Level axis in metres from 0 up to the tank's capacity.
      const yTicks = ((await root.getAttribute('data-y-ticks')) ?? '').split(' | ');
      expect(yTicks[0]).toBe('0 m');
      const top = Number(yTicks.at(-1)!.replace(' m', '').replace(',', '.'));
      expect(top).toBeGreaterThan(s.maxM / 2);
      expect(top).toBeLessThanOrEqual(s.maxM);
      // The two thresholds are drawn as warm dashed lines, critical above warning.
      const warnY = Number(await root.getAttribute('data-warn-y'));
      const critY = Number(await root.getAttribute('data-crit-y'));
      expect(critY).toBeLessThan(warnY);
      for (const y of [warnY, critY]) {
        const share = await warmShareOfRow(chart, y);
        // Dashes (5 on, 4 off) over the plot, which is most of the canvas's width.
        expect(share).toBeGreaterThan(0.3);
        expect(share).toBeLessThan(0.75);
      }
      // A neutral row between them has no warm paint (the level line is grey, not coloured).
      expect(await warmShareOfRow(chart, (warnY + critY) / 2)).toBeLessThan(0.05);
    }
  });

  test('la gráfica de la tarjeta sigue con las lecturas en vivo sin volver a crearse', async ({ page }) => {
    await openDashboard(page);
    const chart = deviceCard(page, DEVICES.nivel01.id).getByTestId(`level-chart-${DEVICES.nivel01.id}`);
    const root = plotRoot(chart);
    await expect(root).toHaveAttribute('data-points', /^[1-9]\d*$/, { timeout: SIM_TIMEOUT });
    const canvas = chart.locator('canvas').first();
    await canvas.evaluate((c) => c.setAttribute('data-marked', 'yes'));
    const before = Number(await root.getAttribute('data-points'));
    // The simulator reports every 3 s: new points are drawn on the same canvas.
    await expect.poll(async () => Number(await root.getAttribute('data-points')), { timeout: SIM_TIMEOUT }).toBeGreaterThan(before);
    await expect(chart.locator('canvas[data-marked="yes"]')).toHaveCount(1);
    await expect(chart).toHaveAttribute('data-stale', 'false');
  });

  test('la comparación de tanques nombra a ambos sensores, en % de su capacidad, con umbrales', async ({ page }) => {
    await openDashboard(page);
    const overlay = page.getByTestId('level-overlay');
    await expect(overlay.getByRole('heading', { name: 'Tendencia de niveles (última hora)' })).toBeVisible();
    const legend = overlay.getByRole('list', { name: 'Leyenda' });
    for (const s of SENSORS) await expect(legend.getByText(s.name, { exact: true })).toBeVisible();
    await expect(legend).toContainText('Advertencia 60 %');
    await expect(legend).toContainText('Crítico 85 %');
    await expect(overlay.getByRole('img')).toHaveAccessibleName(
      `Niveles de ${SENSORS[0].name} y ${SENSORS[1].name} en la última hora, en % de su capacidad; advertencia en 60 %, crítico en 85 %`,
    );
    // Both sensors' newest percent, once their live readings are in.
    await expect(overlay.locator('p').last()).toHaveText(new RegExp(`^Último · ${SENSORS[0].name}: \\d+ % · ${SENSORS[1].name}: \\d+ %$`), {
      timeout: SIM_TIMEOUT,
    });
    const root = plotRoot(overlay);
    await expect(root).toHaveAttribute('data-threshold-y', /^\S+ \S+$/);
    // Full width of the content area: as wide as the row of cards above it.
    const grid = page.getByRole('region', { name: 'Dispositivos' });
    const [g, o] = [await grid.boundingBox(), await overlay.boundingBox()];
    expect(Math.abs((o?.width ?? 0) - (g?.width ?? 0))).toBeLessThanOrEqual(2);
  });
});

test.describe('Gráfico del detalle a 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('ocupa el ancho del contenido y abre en 1 h', async ({ page }) => {
    await openDashboard(page);
    await selectDevice(page, DEVICES.nivel01);
    const chart = page.getByTestId('trend-chart');
    await expect(chart.getByRole('group', { name: 'Rango de tiempo' }).getByRole('button', { name: '1 h', exact: true })).toHaveAttribute('aria-pressed', 'true');
    const box = await chart.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(900);
    const img = chart.getByRole('img', { name: /^Nivel a lo largo del tiempo/ });
    await expect(img).toBeVisible({ timeout: SIM_TIMEOUT });
    // The tank has a shape (docs/water.md): its volume trend shares the width, side by side.
    const volume = chart.getByRole('img', { name: /^Volumen a lo largo del tiempo/ });
    await expect(volume).toBeVisible({ timeout: SIM_TIMEOUT });
    for (const plot of [img, volume]) {
      await expect.poll(async () => plot.locator('canvas').first().evaluate((c: HTMLCanvasElement) => c.clientWidth)).toBeGreaterThanOrEqual(400);
    }
    const [l, v] = [await img.boundingBox(), await volume.boundingBox()];
    expect(Math.abs((l?.y ?? 0) - (v?.y ?? -100))).toBeLessThanOrEqual(2);
    expect((l?.width ?? 0) + (v?.width ?? 0)).toBeGreaterThanOrEqual(850);
  });
});

test.describe('Detalle a 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('el gráfico y el panel caben en la pantalla y los comandos siguen a mano', async ({ page }) => {
    await openDashboard(page);
    await page.goto(`/devices?id=${DEVICES.nivel01.id}`);
    const chart = page.getByTestId('trend-chart');
    await expect(chart.getByRole('img', { name: /^Nivel a lo largo del tiempo/ })).toBeVisible({ timeout: SIM_TIMEOUT });
    const box = await chart.boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expect(controlPanel(page).getByRole('button', { name: 'Leer' })).toBeVisible();
  });
});
