import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { adminApi } from './support/api';
import { contrastOf } from './support/contrast';
import { expectLive } from './support/devices';
import { ownTank, reportLevel } from './support/own-tank';

// A tank of its own, purged afterwards: its shelved alarms go with it, so no other spec of the
// shared server sees them. A new id per test.
const TANK = ownTank('e2e_tanque_susp', 'Tanque Suspensión E2E');

/** The state of the tank's alarm of that kind, from the API (outside the UI under test). */
async function stateOf(kind: string): Promise<string | undefined> {
  const api = await adminApi();
  try {
    const { items } = (await (await api.get('/api/v1/alarms?state=open')).json()) as { items: Array<{ deviceId: string; kind: string; state: string }> };
    return items.find((a) => a.deviceId === TANK.id && a.kind === kind)?.state;
  } finally {
    await api.dispose();
  }
}

/** WCAG AA for normal text. */
const AA = 4.5;

/** The contrast of a row's secondary (muted) text, in the light theme and then the dark one. */
async function expectReadableInBothThemes(page: Page, rowText: ReturnType<Page['getByText']>, where: string) {
  expect(await contrastOf(rowText), `${where}, light`).toBeGreaterThanOrEqual(AA);
  await page.getByRole('button', { name: 'Cambiar a tema oscuro' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(await contrastOf(rowText), `${where}, dark`).toBeGreaterThanOrEqual(AA);
  await page.getByRole('button', { name: 'Cambiar a tema claro' }).click();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
}

test.describe('Suspender alarmas', () => {
  test("una alarma Crítica pide una segunda confirmación; suspendida pasa a 'Suspendidas' con quién y hasta cuándo", async ({ page }) => {
    await signIn(page, 'operator');
    await expectLive(page);
    await reportLevel(page.request, TANK, 4.9);

    await page.goto('/alarms');
    const active = page.getByTestId('open-alarms');
    const critical = active.getByRole('listitem').filter({ hasText: `${TANK.name} · Nivel muy alto` });
    await expect(critical).toHaveAttribute('data-state', 'unack');
    const dialog = page.getByTestId('shelve-dialog');

    const askToShelve = async (row: typeof critical, minutes: string) => {
      await row.getByRole('button', { name: 'Suspender' }).click();
      await dialog.getByLabel('Minutos').fill(minutes);
      await dialog.getByLabel('Motivo').fill('Mantenimiento del sensor');
      await dialog.getByRole('button', { name: 'Suspender', exact: true }).click();
    };

    // The first 'Suspender' of a Crítica alarm asks again, naming the device, the minutes and what is lost.
    await askToShelve(critical, '30');
    const confirm = dialog.getByRole('alert');
    await expect(confirm).toContainText('Suspender una alarma Crítica');
    await expect(confirm).toContainText(TANK.name);
    await expect(confirm).toContainText('30 minutos');
    await expect(confirm).toContainText('no sonará ni se notificará aunque la condición siga activa');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
    await expect(critical).toHaveAttribute('data-state', 'unack');
    expect(await stateOf('level_high_high')).toBe('unack');

    // Confirmed, it leaves the active list for 'Suspendidas', with who shelved it and until when.
    await askToShelve(critical, '30');
    await dialog.getByRole('button', { name: 'Suspender de todos modos' }).click();
    await expect(dialog).toBeHidden();
    await expect(critical).toHaveCount(0);
    expect(await stateOf('level_high_high')).toBe('shelved');
    const shelvedList = page.getByRole('region', { name: /^Suspendidas/ });
    const shelved = shelvedList.getByRole('listitem').filter({ hasText: `${TANK.name} · Nivel muy alto` });
    await expect(shelved).toContainText('Crítica');
    await expect(shelved).toContainText(/Hasta \d{1,2} \S+ \d{4}, \d{1,2}:\d{2}:\d{2} \(quedan 30 min\)/);
    await expect(shelved).toContainText('por Juan Pérez');
    await expect(shelved).toContainText('Mantenimiento del sensor');
    await expectReadableInBothThemes(page, shelved.getByText('Mantenimiento del sensor'), 'a shelved row');

    // A lower priority is shelved at once; 'Reactivar' brings it back to the active list.
    const high = active.getByRole('listitem').filter({ hasText: `${TANK.name} · Nivel alto` });
    await askToShelve(high, '15');
    await expect(dialog).toBeHidden();
    const shelvedHigh = shelvedList.getByRole('listitem').filter({ hasText: `${TANK.name} · Nivel alto` });
    await shelvedHigh.getByRole('button', { name: 'Reactivar' }).click();
    await expect(shelvedHigh).toHaveCount(0);
    await expect(high).toHaveAttribute('data-state', 'unack');

    // An acknowledged row stays readable too (it used to be dimmed with opacity).
    await high.getByRole('button', { name: 'Reconocer' }).click();
    await page.getByTestId('ack-dialog').getByRole('button', { name: 'Reconocer' }).click();
    await expect(high).toHaveAttribute('data-state', 'ack');
    await expectReadableInBothThemes(page, high.getByText(/^Nivel alto: /), 'an acknowledged row');
  });
});
