import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { expectLive } from './support/devices';
import { ownTank, reportLevel } from './support/own-tank';

const PHONE = { width: 390, height: 844 };
/** The smallest comfortable touch target on a phone. */
const TOUCH = 44;

test.describe('Sonido de alarmas en la cabecera', () => {
  test('apagado por defecto; el botón de la cabecera lo enciende y se recuerda al recargar, en cualquier pantalla', async ({ page }) => {
    await signIn(page, 'operator');
    const sound = page.getByRole('banner').getByRole('button', { name: 'Sonido de alarmas' });
    await expect(sound).toHaveAttribute('aria-pressed', 'false');

    await sound.click();
    await expect(sound).toHaveAttribute('aria-pressed', 'true');
    expect(await page.evaluate(() => localStorage.getItem('agua.alarmSound'))).toBe('on');
    await page.reload();
    await expect(sound).toHaveAttribute('aria-pressed', 'true');

    // The same control on another screen; 'Alarmas' no longer has a checkbox of its own.
    await page.goto('/alarms');
    await expect(page.getByRole('heading', { level: 1, name: 'Alarmas', exact: true })).toBeVisible();
    await expect(sound).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('checkbox', { name: 'Sonido de alarmas' })).toHaveCount(0);

    // On a phone it is a full touch target, and turning it off is remembered too.
    await page.setViewportSize(PHONE);
    const box = (await sound.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(TOUCH);
    expect(box.height).toBeGreaterThanOrEqual(TOUCH);
    await sound.click();
    await expect(sound).toHaveAttribute('aria-pressed', 'false');
    await page.reload();
    await expect(sound).toHaveAttribute('aria-pressed', 'false');
  });
});

test.describe('Alarmas en un teléfono', () => {
  const TANK = ownTank('e2e_tanque_tel', 'Tanque Teléfono E2E');

  test('a 390 px el aviso de la cabecera mide 44 px y cada fila del historial muestra prioridad y estado sin desplazarse de lado', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signIn(page, 'operator');
    await expectLive(page);
    await reportLevel(page.request, TANK, 4.9);

    const banner = page.getByTestId('alarm-banner');
    await expect(banner).toBeVisible();
    expect((await banner.boundingBox())!.height).toBeGreaterThanOrEqual(TOUCH);
    // With the banner, the header still holds every control on the screen.
    const header = page.getByRole('banner');
    for (const control of [banner, header.getByRole('button', { name: 'Sonido de alarmas' }), header.getByRole('button', { name: /^Cambiar a tema/ })]) {
      await expect(control).toBeInViewport({ ratio: 1 });
    }

    await page.goto('/alarms');
    await page.getByRole('tab', { name: 'Historial' }).click();
    await page.getByLabel('Dispositivo').selectOption(TANK.id);
    // Whatever the layout (a table row or a card), the alarm's entry as shown.
    const entry = page.locator(':is(tr, li):visible', { hasText: 'Nivel muy alto: 4,90 m (98 % de 5,00 m)' });
    await expect(entry).toHaveCount(1);
    await entry.scrollIntoViewIfNeeded();
    await expect(entry.getByText('Crítica', { exact: true })).toBeInViewport({ ratio: 1 });
    await expect(entry.getByText('Activa sin reconocer', { exact: true })).toBeInViewport({ ratio: 1 });
    await expect(entry.getByText(TANK.name)).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});
