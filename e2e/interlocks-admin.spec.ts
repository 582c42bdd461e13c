import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { adminApi, apiAs } from './support/api';
import { menuLinks, signIn } from './support/auth';
import { deviceCard, DEVICES, expectLive, SIM_TIMEOUT } from './support/devices';
import { bypassInterlock, clearInterlocks, createInterlock, listInterlocks } from './support/interlocks';
import { expectNoCoveredControls, settleTransitions } from './support/layout';
import { expectToast, toastRegion } from './support/toast';

const GATE = DEVICES.compuerta01;
const TANK = DEVICES.nivel02;
const NEVER = { kind: 'gate_state', deviceId: GATE.id, in: ['falla'] };

async function openInterlocks(page: Page): Promise<void> {
  await menuLinks(page).filter({ hasText: /^Enclavamientos$/ }).click();
  await expect(page).toHaveURL(/\/interlocks$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Enclavamientos', exact: true })).toBeVisible();
}

async function closeToasts(page: Page): Promise<void> {
  for (const close of await toastRegion(page).getByRole('button').all()) await close.click().catch(() => undefined);
  await expect(toastRegion(page).getByRole('status')).toHaveCount(0);
}

/** axe's serious and critical findings on the page as it is. */
async function seriousViolations(page: Page): Promise<string[]> {
  await settleTransitions(page);
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
}

test.describe('Enclavamientos (administración)', () => {
  test.setTimeout(120_000);
  test.beforeEach(clearInterlocks);
  test.afterEach(clearInterlocks);

  test('el administrador crea uno con el constructor de condiciones; el 422 del servidor aparece en su campo; lo prueba, lo anula, lo edita y lo elimina', async ({ page }) => {
    await signIn(page, 'admin');
    await expectLive(page);
    await openInterlocks(page);
    await expect(page.getByText('No hay enclavamientos definidos.')).toBeVisible();

    await page.getByRole('button', { name: 'Nuevo enclavamiento' }).click();
    const form = page.getByTestId('interlock-form-dialog');
    await form.getByLabel('Dispositivo que recibe el comando').selectOption({ label: GATE.name });
    // 'detener' is never offered.
    await expect(form.getByLabel('Comando', { exact: true }).locator('option')).toHaveText(['Abrir', 'Cerrar']);
    await form.getByLabel('Comando', { exact: true }).selectOption({ label: 'Cerrar' });
    await form.getByLabel('Nombre').fill('Tanque limpio por debajo del máximo');
    await form.getByRole('radio', { name: 'Pedir comentario' }).check();

    const first = form.getByTestId('condition-0');
    await expect(first.getByLabel('Tipo')).toHaveValue('level');
    // A level condition offers level sensors only.
    await expect(first.getByLabel('Dispositivo').locator('option', { hasText: GATE.name })).toHaveCount(0);
    await first.getByLabel('Dispositivo').selectOption({ label: TANK.name });
    await first.getByLabel('Comparación').selectOption('<');
    await first.getByLabel('Nivel (m)').fill('1500');

    await form.getByRole('button', { name: 'Añadir condición' }).click();
    const second = form.getByTestId('condition-1');
    await second.getByLabel('Tipo').selectOption({ label: 'Estado de compuerta' });
    await expect(second.getByLabel('Dispositivo').locator('option', { hasText: TANK.name })).toHaveCount(0);
    await second.getByLabel('Dispositivo').selectOption({ label: GATE.name });
    await second.getByRole('checkbox', { name: 'Cerrada' }).check();
    await second.getByRole('checkbox', { name: 'Abierta' }).check();

    // Nothing checks the level's range in the browser: the server's 422 lands on the field, in its words.
    await form.getByRole('button', { name: 'Crear enclavamiento' }).click();
    const value = first.getByLabel('Nivel (m)');
    await expect(form.locator('#ilk-conditions-0-value-error')).toHaveText('Un nivel entre 0 y 1000 m.');
    await expect(value).toHaveAttribute('aria-invalid', 'true');
    await expect(value).toBeFocused();
    await expect(form.getByLabel('Nombre')).toHaveValue('Tanque limpio por debajo del máximo');

    await value.fill('4,5');
    await expect(form.locator('#ilk-conditions-0-value-error')).toHaveCount(0);
    await form.getByRole('button', { name: 'Crear enclavamiento' }).click();
    await expect(form).toBeHidden();
    await expectToast(page, 'Enclavamiento creado', 'Tanque limpio por debajo del máximo');

    const [created] = await listInterlocks();
    expect(created).toMatchObject({ deviceId: GATE.id, command: 'cerrar', mode: 'confirm', enabled: true });
    const group = page.getByTestId(`interlock-group-${GATE.id}`);
    const item = page.getByTestId(`interlock-${created!.id}`);
    await expect(group.getByRole('heading', { name: GATE.name })).toBeVisible();
    await expect(group.getByRole('heading', { name: 'Cerrar' })).toBeVisible();
    await expect(item).toContainText('Pedir comentario');
    await expect(item).toContainText('Activo');
    await expect(item.getByRole('listitem')).toHaveText([`${TANK.name}: nivel < 4,50 m`, `${GATE.name}: Abierta o Cerrada`]);

    // 'Probar con los valores actuales': the server's check of the command now.
    await group.getByRole('button', { name: 'Probar con los valores actuales' }).click();
    await expect(group.getByTestId('permissive-verdict')).toContainText(/«Cerrar» se permite ahora/);

    // 'Anular' with minutes and a required comment: the banner appears; 'Terminar anulación' ends it.
    await item.getByRole('button', { name: /^Anular / }).click();
    const bypass = page.getByTestId('bypass-dialog');
    await bypass.getByLabel('Minutos').fill('0');
    await bypass.getByRole('button', { name: 'Anular enclavamiento' }).click();
    await expect(bypass.locator('#bypass-minutes-error')).toHaveText('Entre 1 y 720 minutos (12 h).');
    await expect(bypass.locator('#bypass-comment-error')).toBeVisible();
    await bypass.getByLabel('Minutos').fill('45');
    await bypass.getByLabel('Comentario').fill('Calibración del sensor');
    await bypass.getByRole('button', { name: 'Anular enclavamiento' }).click();
    await expect(bypass).toBeHidden();
    const banner = page.getByTestId('bypass-banner');
    await expect(banner).toContainText('Enclavamiento anulado hasta');
    await expect(banner).toContainText('«Tanque limpio por debajo del máximo»');
    await expect(item).toContainText('Anulado por María González: Calibración del sensor');
    await item.getByRole('button', { name: /^Terminar anulación/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Terminar anulación' }).click();
    await expect(banner).toHaveCount(0);
    await expect(item.getByRole('button', { name: /^Anular / })).toBeVisible();

    // Someone else changes it while the form is open: 409, the form says so and shows theirs.
    await item.getByRole('button', { name: /^Editar / }).click();
    const edit = page.getByTestId('interlock-form-dialog');
    await expect(edit.getByLabel('Dispositivo que recibe el comando')).toBeDisabled();
    const api = await adminApi();
    const fresh = (await listInterlocks())[0]!;
    const patched = await api.patch(`/api/v1/interlocks/${fresh.id}`, { data: { version: fresh.version, name: 'Cambiado por otra persona' } });
    expect(patched.status(), await patched.text()).toBe(200);
    await api.dispose();
    await edit.getByLabel('Nombre').fill('Mi cambio');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await expect(edit.getByRole('alert')).toContainText('Otra persona cambió este enclavamiento');
    await expect(edit.getByLabel('Nombre')).toHaveValue('Cambiado por otra persona');
    await edit.getByRole('radio', { name: 'Bloquear' }).check();
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await expect(edit).toBeHidden();
    await expect(item).toContainText('Bloquear');

    await item.getByRole('button', { name: /^Eliminar / }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('¿Eliminar el enclavamiento «Cambiado por otra persona»?');
    await confirm.getByRole('button', { name: 'Eliminar' }).click();
    await expect(item).toHaveCount(0);
    await expect(page.getByText('No hay enclavamientos definidos.')).toBeVisible();
    expect(await listInterlocks()).toEqual([]);
  });

  test('a 390 y 1440 px, claro y oscuro: ningún control tapado, sin desplazamiento lateral ni infracciones graves (pantalla, formulario, aviso, aprobación y compuerta bloqueada)', async ({ page }) => {
    const blocked = await createInterlock({ deviceId: GATE.id, command: 'abrir', name: 'Nunca abrir en la prueba', mode: 'block', conditions: [NEVER] });
    await createInterlock({ deviceId: GATE.id, command: 'cerrar', name: 'Nivel del tanque', mode: 'two_person', conditions: [{ kind: 'level', deviceId: TANK.id, op: '>', pct: 99 }, NEVER] });
    await bypassInterlock(blocked.id, 60, 'Prueba de diseño');
    // A two-person command waiting, issued by the operator: the admin sees 'Aprobación pendiente'.
    const operator = await apiAs('operator');
    const issued = await operator.post(`/api/v1/devices/${GATE.id}/commands`, { data: { command: 'cerrar' } });
    expect(issued.status(), await issued.text()).toBe(202);
    expect(((await issued.json()) as { status?: string }).status).toBe('awaiting_approval');
    await operator.dispose();

    await signIn(page, 'admin');
    await expectLive(page);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const size of [{ width: 390, height: 844 }, { width: 1440, height: 900 }]) {
        await page.setViewportSize(size);
        const where = `${size.width} px (${scheme})`;
        await page.goto('/interlocks');
        await expect(page.getByTestId('bypass-banner')).toBeVisible();
        await expect(page.getByTestId('approval-panel')).toBeVisible();
        await expect(page.getByTestId(`interlock-${blocked.id}`)).toBeVisible();
        await closeToasts(page);
        await expectNoCoveredControls(page, `/interlocks at ${where}`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `sideways scrolling at ${where}`).toBeLessThanOrEqual(0);
        expect(await seriousViolations(page), `axe on /interlocks at ${where}`).toEqual([]);

        await page.getByRole('button', { name: 'Nuevo enclavamiento' }).click();
        const form = page.getByTestId('interlock-form-dialog');
        await form.getByRole('button', { name: 'Añadir condición' }).click();
        await form.getByTestId('condition-1').getByLabel('Tipo').selectOption({ label: 'Estado de compuerta' });
        await expectNoCoveredControls(page, `the interlock form at ${where}`);
        expect(await form.evaluate((el) => el.scrollWidth - el.clientWidth), `the form scrolls sideways at ${where}`).toBeLessThanOrEqual(0);
        expect(await seriousViolations(page), `axe on the interlock form at ${where}`).toEqual([]);
        await form.getByRole('button', { name: 'Cancelar' }).click();

        await page.goto('/');
        const card = deviceCard(page, GATE.id);
        await expect(card.getByRole('button', { name: 'Cerrar', exact: true })).toBeVisible({ timeout: SIM_TIMEOUT });
        await expect(card.getByTestId(`permit-${GATE.id}-cerrar`)).toBeVisible({ timeout: SIM_TIMEOUT });
        await closeToasts(page);
        await expectNoCoveredControls(page, `the dashboard with interlocks at ${where}`);
        expect(await seriousViolations(page), `axe on the dashboard with interlocks at ${where}`).toEqual([]);
        await card.getByRole('button', { name: 'Cerrar', exact: true }).click();
        const dialog = page.getByRole('alertdialog');
        await expect(dialog.getByRole('note')).toBeVisible();
        await expectNoCoveredControls(page, `the command dialog at ${where}`);
        expect(await seriousViolations(page), `axe on the command dialog at ${where}`).toEqual([]);
        await dialog.getByRole('button', { name: 'Cancelar' }).click();
      }
    }
  });
});
