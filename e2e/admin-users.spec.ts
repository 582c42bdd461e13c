import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { menuLinks, PRODUCT_NAME, sidebar, signIn, submitLogin, type Role } from './support/auth';
import { deleteUserByUsername, purgeDevice } from './support/cleanup';
import { deviceCard, DEVICES, expectLive, SIM_TIMEOUT } from './support/devices';
import { expectToast } from './support/toast';

const TEMP_PASSWORD = 'Temporal-2026x';
const GATE = DEVICES.compuerta01;

/** A username, e-mail and name that no earlier run on the same server has used. */
function uniqueUser(prefix: string) {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const username = `${prefix}${stamp}`;
  return { username, name: `Operador Prueba ${stamp}`, email: `${username}@e2e.agua.test` };
}

async function openNewUserDialog(page: Page): Promise<Locator> {
  await page.goto('/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Gestión de Usuarios', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Nuevo Usuario', exact: true }).click();
  const dialog = page.getByTestId('new-user-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Nuevo Usuario' })).toBeVisible();
  return dialog;
}

async function fillNewUser(dialog: Locator, user: { name: string; username: string; email: string }, roleLabel: string, password: string) {
  await dialog.getByLabel('Nombre completo', { exact: true }).fill(user.name);
  await dialog.getByLabel('Nombre de usuario', { exact: true }).fill(user.username);
  await dialog.getByLabel('Correo electrónico', { exact: true }).fill(user.email);
  await dialog.getByLabel('Rol', { exact: true }).selectOption({ label: roleLabel });
  await dialog.getByLabel('Contraseña temporal', { exact: true }).fill(password);
}

async function expectAccessDenied(page: Page) {
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Acceso Denegado', exact: true })).toBeVisible();
  await expect(main.getByText('No tienes permisos para acceder a esta sección.', { exact: true })).toBeVisible();
}

test.describe('Administración de usuarios', () => {
  test.describe('alta de un operador y su primer inicio de sesión', () => {
    const user = uniqueUser('op');
    test.afterAll(async () => {
      await deleteUserByUsername(user.username);
    });

    test('el admin crea un operador, que cambia su contraseña temporal y manda un comando', async ({ page }) => {
      test.setTimeout(90_000);
      await signIn(page, 'admin');
      const dialog = await openNewUserDialog(page);
      await fillNewUser(dialog, user, 'Operador', TEMP_PASSWORD);
      await dialog.getByRole('button', { name: 'Crear usuario', exact: true }).click();
      await expectToast(page, 'Usuario creado', `${user.name} (@${user.username}) deberá cambiar la contraseña temporal al iniciar sesión.`);
      await expect(dialog).toBeHidden();

      const row = page.getByTestId(`user-row-${user.username}`);
      await expect(row).toBeVisible();
      await expect(row).toContainText(user.name);
      await expect(row).toContainText(`@${user.username}`);
      await expect(row).toContainText(user.email);
      await expect(row.getByText('Operador', { exact: true })).toBeVisible();
      await expect(row.getByText('Activo', { exact: true })).toBeVisible();
      await expect(row).toContainText('Debe cambiar la contraseña');

      // Sign out, and in again as the new operator with the temporary password.
      await sidebar(page).getByRole('button', { name: 'Cerrar Sesión' }).click();
      await expect(page).toHaveURL(/\/login$/);
      await submitLogin(page, user.username, TEMP_PASSWORD);

      // Forced to 'Cambiar Contraseña', with no menu.
      await expect(page).toHaveURL(/\/account\/password$/);
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { level: 1, name: 'Cambiar Contraseña', exact: true })).toBeVisible();
      await expect(main.getByText('Debe cambiar su contraseña antes de continuar.', { exact: true })).toBeVisible();
      await expect(sidebar(page).getByText(user.name, { exact: true })).toBeVisible();
      await expect(menuLinks(page)).toHaveCount(0);
      // Nothing else can be reached before the change.
      await page.goto('/');
      await expect(page).toHaveURL(/\/account\/password$/);
      await expect(menuLinks(page)).toHaveCount(0);

      const newPassword = `Nueva-${Date.now()}x`;
      await main.getByLabel('Contraseña actual', { exact: true }).fill(TEMP_PASSWORD);
      await main.getByLabel('Nueva contraseña', { exact: true }).fill(newPassword);
      await main.getByLabel('Confirmar nueva contraseña', { exact: true }).fill(newPassword);
      await main.getByRole('button', { name: 'Cambiar Contraseña', exact: true }).click();
      await expectToast(page, 'Contraseña Actualizada', 'Su contraseña ha sido cambiada.');

      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { level: 1, name: PRODUCT_NAME, exact: true })).toBeVisible();
      await expect(menuLinks(page)).toHaveText(['Dashboard', 'Dispositivos', 'Mapa', 'Alarmas', 'Desbordamientos', 'Informes']);
      await expect(sidebar(page).getByText('Operador', { exact: true })).toBeVisible();

      // An operator may command the gate: 'Abrir' or 'Cerrar', whichever moves it.
      await expectLive(page);
      const card = deviceCard(page, GATE.id);
      await expect(card.getByText('En Línea', { exact: true })).toBeVisible({ timeout: SIM_TIMEOUT });
      const state = page.getByTestId(`reading-${GATE.id}`);
      await expect(state).toHaveText(/^(Abierta|Cerrada)$/, { timeout: SIM_TIMEOUT });
      const open = (await state.textContent())?.trim() === 'Abierta';
      const [label, command, final] = open ? ['Cerrar', 'cerrar', 'Cerrada'] : ['Abrir', 'abrir', 'Abierta'];

      const button = card.getByRole('button', { name: label, exact: true });
      await expect(button).toBeEnabled({ timeout: SIM_TIMEOUT });
      await button.click();
      const confirm = page.getByRole('alertdialog');
      await expect(confirm).toContainText(`¿${label} la compuerta ${GATE.name}?`);
      await confirm.getByRole('button', { name: `${label} compuerta`, exact: true }).click();
      await expect(confirm).toBeHidden();
      await expectToast(page, 'Comando Enviado', `Comando "${command}" enviado exitosamente`);
      // Leave the gate at rest for the specs that follow.
      await expect(state).toHaveText(final, { timeout: SIM_TIMEOUT });
    });
  });

  test('el formulario muestra errores en español: contraseña corta y usuario repetido', async ({ page }) => {
    const user = uniqueUser('val');
    try {
      await signIn(page, 'admin');
      const dialog = await openNewUserDialog(page);
      await fillNewUser(dialog, user, 'Operador', 'corta123');
      await dialog.getByRole('button', { name: 'Crear usuario', exact: true }).click();

      const password = dialog.getByLabel('Contraseña temporal', { exact: true });
      await expect(dialog.getByText('La contraseña debe tener al menos 10 caracteres.', { exact: true })).toBeVisible();
      await expect(password).toHaveAttribute('aria-invalid', 'true');
      await expect(password).toBeFocused();
      await expect(dialog).toBeVisible();

      // A valid password but a username that exists: the server's answer shows beside the field.
      await password.fill(TEMP_PASSWORD);
      await expect(dialog.getByText('La contraseña debe tener al menos 10 caracteres.', { exact: true })).toHaveCount(0);
      const username = dialog.getByLabel('Nombre de usuario', { exact: true });
      await username.fill('admin');
      await dialog.getByRole('button', { name: 'Crear usuario', exact: true }).click();
      await expect(dialog.getByText('El nombre de usuario ya existe.', { exact: true })).toBeVisible();
      await expect(username).toHaveAttribute('aria-invalid', 'true');
      await expect(dialog).toBeVisible();

      // Nothing was created.
      const res = await page.request.get('/api/v1/users');
      expect(res.ok()).toBe(true);
      const users = (await res.json()) as Array<{ email: string }>;
      expect(users.filter((u) => u.email === user.email)).toHaveLength(0);

      await dialog.getByRole('button', { name: 'Cancelar', exact: true }).click();
      await expect(dialog).toBeHidden();
    } finally {
      await deleteUserByUsername(user.username);
    }
  });

  for (const role of ['operator', 'viewer'] as const satisfies readonly Role[]) {
    test(`${role}: sin acceso a usuarios ni a la gestión de dispositivos (UI y API)`, async ({ page }) => {
      await signIn(page, role);
      await page.goto('/users');
      await expectAccessDenied(page);
      await expect(page.getByRole('button', { name: 'Nuevo Usuario' })).toHaveCount(0);

      await page.goto('/devices');
      await expect(page.getByRole('heading', { level: 1, name: 'Control de Dispositivos de Agua' })).toBeVisible();
      await expect(page.getByTestId(`device-row-${GATE.id}`)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Nuevo Dispositivo' })).toHaveCount(0);

      // The server refuses too, with the session of this page.
      const user = uniqueUser('x');
      const deviceId = `sensor_e2e_denied_${Date.now()}`;
      try {
        const users = await page.request.post('/api/v1/users', {
          data: { username: user.username, name: user.name, email: user.email, role: 'viewer', password: TEMP_PASSWORD },
        });
        expect(users.status(), await users.text()).toBe(403);
        expect(((await users.json()) as { code: string }).code).toBe('FORBIDDEN');

        const devices = await page.request.post('/api/v1/devices', {
          data: { id: deviceId, name: 'Sensor prohibido', location: 'Ninguna', type: 'level_sensor', waterType: 'clean', config: { maxLevel: 5 } },
        });
        expect(devices.status(), await devices.text()).toBe(403);
        expect(((await devices.json()) as { code: string }).code).toBe('FORBIDDEN');
      } finally {
        // Should the server ever accept them, leave nothing behind.
        await deleteUserByUsername(user.username);
        await purgeDevice(deviceId);
      }
    });
  }
});
