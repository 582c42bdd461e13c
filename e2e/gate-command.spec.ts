import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { controlPanel, deviceCard, deviceRow, DEVICES, expectLive, SIM_TIMEOUT } from './support/devices';
import { expectToast } from './support/toast';

const GATE = DEVICES.compuerta01;
const SETTLED = /^(Abierta|Cerrada)$/;

type Action = 'abrir' | 'cerrar';
const LABEL: Record<Action, string> = { abrir: 'Abrir', cerrar: 'Cerrar' };
const MOVING: Record<Action, string> = { abrir: 'Abriendo…', cerrar: 'Cerrando…' };
const FINAL: Record<Action, string> = { abrir: 'Abierta', cerrar: 'Cerrada' };

/**
 * Clicks the command button in `scope`, confirms in the dialog, and checks the toast, the
 * movement reported by the simulated gate and its final state in `state`.
 */
async function commandGate(page: Page, scope: Locator, state: Locator, action: Action, toastTitle: string) {
  await scope.getByRole('button', { name: LABEL[action], exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`¿${LABEL[action]} la compuerta ${GATE.name}?`);
  await expect(dialog).toContainText(GATE.id);

  // Watch for the movement from before the confirmation: the gate travels ~5 s.
  const sawMoving = expect(state).toHaveText(MOVING[action], { timeout: SIM_TIMEOUT });
  await dialog.getByRole('button', { name: `${LABEL[action]} compuerta`, exact: true }).click();
  await expect(dialog).toBeHidden();
  await expectToast(page, toastTitle, `Comando "${action}" enviado exitosamente`);
  await sawMoving;
  await expect(state).toHaveText(FINAL[action], { timeout: SIM_TIMEOUT });
}

/** Waits for the gate to be online and at rest; returns its state. */
async function settledState(state: Locator): Promise<string> {
  await expect(state).toHaveText(SETTLED, { timeout: SIM_TIMEOUT });
  return (await state.textContent())?.trim() ?? '';
}

test.describe('Comandos a la compuerta', () => {
  test.setTimeout(90_000);

  test('el operador abre y cierra la Compuerta Canal A desde el dashboard', async ({ page }) => {
    await signIn(page, 'operator');
    await expectLive(page);
    const card = deviceCard(page, GATE.id);
    await expect(card.getByText('En Línea', { exact: true })).toBeVisible({ timeout: SIM_TIMEOUT });
    await expect(card).toContainText(GATE.name);
    const state = page.getByTestId(`reading-${GATE.id}`);

    if ((await settledState(state)) === 'Abierta') await commandGate(page, card, state, 'cerrar', 'Comando Enviado');

    await commandGate(page, card, state, 'abrir', 'Comando Enviado');
    await expect(card.getByRole('status').filter({ hasText: 'Abrir' })).toContainText('Confirmado por el dispositivo');
    await commandGate(page, card, state, 'cerrar', 'Comando Enviado');
    await expect(card.getByRole('status').filter({ hasText: 'Cerrar' })).toContainText('Confirmado por el dispositivo');
  });

  test('el operador abre y cierra la compuerta desde el Panel de Control de /devices', async ({ page }) => {
    await signIn(page, 'operator');
    await expectLive(page);
    await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Dispositivos' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Control de Dispositivos de Agua' })).toBeVisible();

    const row = deviceRow(page, GATE.id);
    await expect(row.getByText('En Línea', { exact: true })).toBeVisible({ timeout: SIM_TIMEOUT });
    await row.getByRole('link', { name: GATE.name }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]id=${GATE.id}$`));

    const panel = controlPanel(page);
    await expect(panel.getByRole('heading', { name: 'Panel de Control' })).toBeVisible();
    await expect(panel).toContainText(GATE.name);
    await expect(panel).toContainText('Salida de Desbordamiento');
    // The row's reading is the one that carries the test id on this screen.
    const state = page.getByTestId(`reading-${GATE.id}`);

    if ((await settledState(state)) === 'Abierta') await commandGate(page, panel, state, 'cerrar', 'Comando Ejecutado');

    await commandGate(page, panel, state, 'abrir', 'Comando Ejecutado');
    await expect(panel.getByText('Último comando', { exact: true })).toBeVisible();
    await commandGate(page, panel, state, 'cerrar', 'Comando Ejecutado');
    // The panel's history lists both commands, confirmed by the device.
    await expect(panel.getByRole('listitem').filter({ hasText: 'Cerrar' }).first()).toContainText('Confirmado', { timeout: SIM_TIMEOUT });
  });
});
