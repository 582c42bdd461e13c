import { expect, test } from './support/test';
import { ACCOUNTS, loginForm, PRODUCT_NAME, sidebar, signIn, submitLogin, type Role } from './support/auth';
import { expectToast } from './support/toast';

test.describe('Inicio de sesión', () => {
  for (const role of ['admin', 'operator', 'viewer'] as const satisfies readonly Role[]) {
    test(`${role} inicia sesión y llega al panel`, async ({ page }) => {
      const account = ACCOUNTS[role];
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: 'Iniciar Sesión', exact: true })).toBeVisible();
      await submitLogin(page, account.username, account.password, account.masterPassword);

      await expectToast(page, '¡Acceso Concedido!', 'Bienvenido al sistema de monitoreo IoT');
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { level: 1, name: PRODUCT_NAME, exact: true })).toBeVisible();
      await expect(sidebar(page).getByText(account.name, { exact: true })).toBeVisible();
      await expect(sidebar(page).getByText(account.roleName, { exact: true })).toBeVisible();
    });
  }

  test('el campo de Contraseña Maestra aparece solo con el usuario admin', async ({ page }) => {
    await page.goto('/login');
    const form = loginForm(page);
    await expect(form.username).toBeVisible();
    await expect(form.master).toHaveCount(0);

    await form.username.fill('operator');
    await expect(form.master).toHaveCount(0);
    await form.username.fill('admin');
    await expect(form.master).toBeVisible();
    await form.username.fill('admi');
    await expect(form.master).toHaveCount(0);
    await form.username.fill('admin');
    await expect(form.master).toBeVisible();
  });

  test('contraseña incorrecta: Error de Autenticación', async ({ page }) => {
    await page.goto('/login');
    await submitLogin(page, 'operator', 'contraseña-mala');
    await expectToast(page, 'Error de Autenticación', 'Credenciales de usuario inválidas');
    await expect(page).toHaveURL(/\/login$/);
    await expect(loginForm(page).submit).toHaveText('Acceder al Sistema');
    await expect(loginForm(page).submit).toBeEnabled();
  });

  test('usuario desconocido: el mismo mensaje que una contraseña incorrecta', async ({ page }) => {
    await page.goto('/login');
    await submitLogin(page, 'nadie-existe', 'lo-que-sea-123');
    await expectToast(page, 'Error de Autenticación', 'Credenciales de usuario inválidas');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('admin con Contraseña Maestra incorrecta', async ({ page }) => {
    await page.goto('/login');
    await submitLogin(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password, 'no-es-la-maestra');
    await expectToast(page, 'Error de Autenticación', 'Contraseña Maestra incorrecta');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('mientras se verifica el botón dice "Verificando..." y está deshabilitado', async ({ page }) => {
    // Hold the sign-in request until the pending state has been checked: deterministic, not a race.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1/auth/login', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/login');
    const form = loginForm(page);
    await submitLogin(page, ACCOUNTS.viewer.username, ACCOUNTS.viewer.password);
    await expect(form.submit).toHaveText('Verificando...');
    await expect(form.submit).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: PRODUCT_NAME, exact: true })).toBeVisible();
  });

  test('la página de acceso lista las cuentas de demostración', async ({ page }) => {
    await page.goto('/login');
    const demo = page.getByRole('region', { name: 'Cuentas de demostración' });
    await expect(demo).toBeVisible();
    await expect(demo).toContainText('admin / admin123 / maestra2024');
    await expect(demo).toContainText('(Administrador)');
    await expect(demo).toContainText('operator / operator123');
    await expect(demo).toContainText('(Operador)');
    await expect(demo).toContainText('viewer / viewer123');
    await expect(demo).toContainText('(Observador)');
  });

  test('Cerrar Sesión vuelve a /login y / redirige allí', async ({ page }) => {
    await signIn(page, 'operator');
    await sidebar(page).getByRole('button', { name: 'Cerrar Sesión' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Iniciar Sesión', exact: true })).toBeVisible();

    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Iniciar Sesión', exact: true })).toBeVisible();
  });

  test('recargar la página mantiene la sesión', async ({ page }) => {
    const account = await signIn(page, 'viewer');
    await page.reload();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: PRODUCT_NAME, exact: true })).toBeVisible();
    await expect(sidebar(page).getByText(account.name, { exact: true })).toBeVisible();
  });

  test('sin sesión, /devices redirige a /login', async ({ page }) => {
    await page.goto('/devices');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Iniciar Sesión', exact: true })).toBeVisible();
  });
});
