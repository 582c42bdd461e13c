import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { adminApi } from './support/api';
import { ACCOUNTS, signIn } from './support/auth';
import { controlPanel, DEVICES } from './support/devices';
import { expectNoCoveredControls } from './support/layout';
import { expectToastBehindModal } from './support/toast-modal';

const TANK = DEVICES.nivel01;
// The demo's version 1 of esp32_nivel_01 (docs/water.md): a 24 m² wet well, crest 9 m, weir 1.5 m × 0.62.
const DEMO_GEOMETRY = { crestLevelM: 9, shape: { kind: 'rectangular', areaM2: 24 }, weir: { widthM: 1.5, coefficient: 0.62 } };

async function openGeometry(page: Page) {
  await page.goto(`/devices?id=${TANK.id}`);
  await controlPanel(page).getByRole('button', { name: 'Geometría y calibración', exact: true }).click();
  const dialog = page.getByTestId('geometry-dialog');
  await expect(dialog.getByRole('heading', { name: `Geometría y calibración · ${TANK.name}` })).toBeVisible();
  return dialog;
}

test.describe('Geometría y calibración', () => {
  test.afterAll(async () => {
    // Other journeys read this tank's volumes: it gets the demo's shape back (as a new version).
    const api = await adminApi();
    try {
      const res = await api.put(`/api/v1/devices/${TANK.id}/geometry`, { data: DEMO_GEOMETRY });
      expect(res.status(), await res.text()).toBe(200);
    } finally {
      await api.dispose();
    }
  });

  test('el administrador cambia el área, ve el error de un vertedero imposible y guarda una versión nueva', async ({ page }) => {
    await signIn(page, 'admin');
    const dialog = await openGeometry(page);

    // The demo's version 1: 24 m², crest 9 m, by nobody ('Demostración'); the preview draws it.
    const versions = dialog.getByTestId('geometry-versions').getByRole('listitem');
    await expect(versions.last()).toContainText('Versión 1');
    await expect(versions.last()).toContainText('Demostración');
    await expect(dialog.getByLabel('Forma', { exact: true })).toHaveValue('rectangular');
    await expect(dialog.getByLabel('Área', { exact: true })).toHaveValue('24');
    await expect(dialog.getByLabel('Nivel de vertedero', { exact: true })).toHaveValue('9');
    await expect(dialog.getByTestId('preview-crest')).toBeVisible();
    await expect(dialog.getByTestId('reference-volume')).toHaveText('216,00 m³');
    const before = await versions.count();

    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoCoveredControls(page, `the geometry dialog at ${width} px`);
    }

    // The preview follows the typing.
    await dialog.getByLabel('Área', { exact: true }).fill('30,5');
    await expect(dialog.getByTestId('reference-volume')).toHaveText('274,50 m³');

    // A crest above the sensor's maximum level (10 m) is explained next to the crest.
    const crest = dialog.getByLabel('Nivel de vertedero', { exact: true });
    await crest.fill('12');
    await expect(dialog.locator('#geometry-form-crestLevelM-error')).toHaveText('Debe ser mayor que 0 m y no superar el nivel máximo (10 m).');
    await expect(crest).toHaveAttribute('aria-invalid', 'true');
    await dialog.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect(crest).toBeFocused();

    await crest.fill('9,5');
    await expect(dialog.locator('#geometry-form-crestLevelM-error')).toHaveCount(0);
    await expect(dialog.getByTestId('reference-volume')).toHaveText('289,75 m³');
    await dialog.getByRole('button', { name: 'Guardar', exact: true }).click();

    await expectToastBehindModal(page, 'Geometría guardada', `${TANK.name}: versión ${before + 1}.`);
    await expect(versions).toHaveCount(before + 1);
    await expect(versions.first()).toContainText(`Versión ${before + 1}`);
    await expect(versions.first()).toContainText(ACCOUNTS.admin.name);
    await expect(dialog.getByTestId('geometry-current-version')).toHaveText(String(before + 1));

    const api = await adminApi();
    try {
      const stored = (await (await api.get(`/api/v1/devices/${TANK.id}/geometry`)).json()) as { version: number; crestLevelM: number; shape: unknown };
      expect(stored).toMatchObject({ version: before + 1, crestLevelM: 9.5, shape: { kind: 'rectangular', areaM2: 30.5 } });
    } finally {
      await api.dispose();
    }
  });

  test('un operador no ve el editor de geometría', async ({ page }) => {
    await signIn(page, 'operator');
    await page.goto(`/devices?id=${TANK.id}`);
    await expect(controlPanel(page)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Geometría y calibración' })).toHaveCount(0);
  });
});
