import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { adminApi } from './support/api';
import { signIn } from './support/auth';
import { expectLive } from './support/devices';
import { expectNoCoveredControls } from './support/layout';
import { ownTank, type OwnTank } from './support/own-tank';
import { toastRegion } from './support/toast';

// A tank of its own with a crest at 4 m and a weir: the demo wet well's spills (if the simulator
// makes one) are other rows; this test's rows are found by the tank's name.
const TANK = ownTank('e2e_rebose', 'Aliviadero E2E');

async function giveCrest(tank: OwnTank): Promise<void> {
  const api = await adminApi();
  try {
    const res = await api.put(`/api/v1/devices/${tank.id}/geometry`, {
      data: { shape: { kind: 'rectangular', areaM2: 10 }, crestLevelM: 4, weir: { widthM: 1.5, coefficient: 0.62 }, spill: { onDelayS: 30, offDelayS: 60, deadbandM: 0.05 } },
    });
    expect(res.status(), await res.text()).toBe(200);
  } finally {
    await api.dispose();
  }
}

/** The tank's board sends, in one batch, a reading every 10 s from `fromMs`, one per level. */
async function report(request: APIRequestContext, tank: OwnTank, fromMs: number, levels: number[]): Promise<void> {
  const batch = levels.map((value, i) => ({ deviceId: tank.id, type: 'level_sensor', ts: fromMs + i * 10_000, data: { value, unit: 'm' } }));
  const res = await request.post('/api/v1/telemetry', { headers: { 'X-API-Key': tank.apiKey }, data: batch });
  expect(res.status(), await res.text()).toBe(202);
}
const repeat = (level: number, n: number) => Array.from({ length: n }, () => level);

/** A spill two hours ago: 5 min at 4,30 m, then back below the crest. */
const reportPastSpill = (page: Page) => report(page.request, TANK, Date.now() - 2 * 3_600_000, [...repeat(4.3, 30), ...repeat(3.5, 10)]);

const tankRows = (page: Page) => page.getByTestId('overflow-table').getByRole('row').filter({ hasText: TANK.name });

test.describe('Desbordamientos', () => {
  test('el operador ve el vertido con sus cifras, lo anota, y un vertido nuevo aparece en curso sin recargar', async ({ page }) => {
    await giveCrest(TANK);
    await reportPastSpill(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, 'operator');
    await expectLive(page);
    await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Desbordamientos' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Desbordamientos', exact: true })).toBeVisible();
    await page.getByLabel('Dispositivo').selectOption(TANK.id);

    const row = tankRows(page);
    await expect(row).toHaveCount(1);
    // 30 readings at 4,30 m and the first below: 300 s; the weir's volume is shown with its method.
    await expect(row).toContainText('5 min');
    await expect(row).toContainText('4,30 m');
    await expect(row).toContainText('(vertedero)');
    await expect(row).toContainText('No');
    await expect(page.getByTestId('overflow-count')).toHaveText('1');
    await expect(page.getByTestId('overflow-1224')).toHaveText('1');
    await expect(page.getByTestId('overflow-year-1224')).toHaveText('1');
    await expectNoCoveredControls(page, '/overflows at 1440 px');

    await row.getByRole('button', { name: /Anotar/ }).click();
    const dialog = page.getByTestId('overflow-edit-dialog');
    await dialog.getByLabel('Causa').fill('Tormenta');
    await dialog.getByLabel('Notas').fill('Aviso a la confederación por teléfono.');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Tormenta');
    await expect(row).toContainText('Aviso a la confederación por teléfono.');

    // A spill starting now, told by the live socket: a second row, 'En curso'.
    await report(page.request, TANK, Date.now() - 60_000, repeat(4.6, 6));
    await expect(tankRows(page)).toHaveCount(2);
    await expect(tankRows(page).first().getByTestId('overflow-open')).toHaveText('En curso');

    await page.setViewportSize({ width: 390, height: 844 });
    // The sign-in toast is not this screen's: closed, as a person would.
    for (const close of await toastRegion(page).getByRole('button', { name: 'Cerrar' }).all()) await close.click();
    await expect(toastRegion(page).getByRole('listitem')).toHaveCount(0);
    await expect(page.getByTestId('overflow-cards').getByTestId('overflow-event').filter({ hasText: 'Tormenta' })).toBeVisible();
    await expectNoCoveredControls(page, '/overflows at 390 px');
  });

  test('quien solo consulta ve los vertidos pero no puede anotarlos', async ({ page }) => {
    await giveCrest(TANK);
    await reportPastSpill(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, 'viewer');
    await page.goto('/overflows');
    await page.getByLabel('Dispositivo').selectOption(TANK.id);
    await expect(tankRows(page)).toHaveCount(1);
    await expect(page.getByRole('button', { name: /Anotar/ })).toHaveCount(0);
  });
});
