import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { expectLeadsWithCritical, expectLive } from './support/devices';
import { ownTank, reportLevel } from './support/own-tank';

// The control-room wall ('Sala de control'): full screen without the menu, abnormal devices first,
// the alarms beside them, and the keyboard: 's' opens it, '?' lists the shortcuts, ↑/↓ and 'r'
// acknowledge, 'a' goes to Alarmas.
test.describe('Sala de control', () => {
  test.setTimeout(90_000);
  const TANK = ownTank('e2e_tanque_sala', 'Tanque Sala E2E');

  test('se abre con S, pone primero lo anormal, y una alarma se reconoce con el teclado', async ({ page }) => {
    await signIn(page, 'operator');
    await expectLive(page);
    await reportLevel(page.request, TANK, 4.9);

    await page.keyboard.press('s');
    await expect(page).toHaveURL(/\/wall$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sala de control' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Navegación principal' })).toHaveCount(0);
    await expectLeadsWithCritical(page, 'wall-device-', TANK.id);
    await expect(page.getByTestId(`wall-reading-${TANK.id}`)).toHaveText(/^4,90\s*m$/);
    // The wall is watched from across the room: its alarm sound is on until muted, and stays muted.
    const sound = page.getByTestId('alarm-sound-toggle');
    await expect(sound).toHaveAttribute('aria-pressed', 'true');
    await sound.click();
    await expect(sound).toHaveAttribute('aria-pressed', 'false');
    await page.reload();
    await expect(page.getByTestId('alarm-sound-toggle')).toHaveAttribute('aria-pressed', 'false');

    await page.keyboard.press('?');
    const help = page.getByTestId('shortcuts-help');
    await expect(help).toContainText('Atajos de teclado');
    await expect(help).toContainText('Ir a Alarmas');
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();

    // The tank's 'Nivel muy alto' is the most urgent: select it and acknowledge it with 'r'.
    const list = page.getByTestId('wall-alarms');
    const row = list.getByRole('option').filter({ hasText: `${TANK.name} · Nivel muy alto` });
    await expect(row).toHaveAttribute('data-state', 'unack');
    await row.click();
    await expect(row).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('r');
    const dialog = page.getByTestId('ack-dialog');
    await expect(dialog).toContainText(TANK.name);
    await dialog.getByRole('button', { name: 'Reconocer' }).click();
    await expect(row).toHaveAttribute('data-state', 'ack');

    await page.keyboard.press('a');
    await expect(page).toHaveURL(/\/alarms$/);
    await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('link', { name: 'Sala de control' }).click();
    await expect(page).toHaveURL(/\/wall$/);
    await page.getByRole('link', { name: 'Salir' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
