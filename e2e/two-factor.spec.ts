import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { request, type APIRequestContext, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, test } from './support/test';
import { adminApi, baseURL } from './support/api';
import { loginForm, menuLinks, PRODUCT_NAME, sidebar, submitLogin } from './support/auth';
import { deleteUserByUsername } from './support/cleanup';
import { expectNoCoveredControls, settleTransitions } from './support/layout';
import { expectToast, toastRegion } from './support/toast';

/**
 * Two-factor sign-in in the browser (docs/security.md "Two-factor sign-in"): turning it on with the
 * QR code and the recovery codes shown once, signing in with a code and with a recovery code, the
 * role requirement that shows nothing but 'Seguridad de la cuenta' until it is on, an
 * administrator's reset and the 'Sesiones' list. Every user is the test's own, and the setting is
 * put back, so that the other specs meet the demo set-up.
 */

const PASSWORD = 'Clave-e2e-2fa-segura';
const STEP_MS = 30_000;
const stamp = `${Date.now()}`.slice(-8);
const OWN = { username: `e2e2fa${stamp}`, name: `Prueba Dos Pasos ${stamp}` };
const GATED = { username: `e2e2fareq${stamp}`, name: `Prueba Obligada ${stamp}` };

/** The app's code of a secret for one 30 s step (`at` ms); a step once accepted never counts again. */
function codeAt(secret: string, at: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });
}
const stepOf = (at: number) => Math.floor(at / STEP_MS);

/** A user of the test with a password of their own (the temporary one changed through the API). */
async function createUser(admin: APIRequestContext, who: { username: string; name: string }, role: 'operator' | 'viewer'): Promise<string> {
  const temporary = `${PASSWORD}-temporal`;
  const created = await admin.post('/api/v1/users', { data: { username: who.username, name: who.name, email: `${who.username}@e2e.agua.test`, role, password: temporary } });
  expect(created.status(), await created.text()).toBe(201);
  const api = await request.newContext({ baseURL });
  try {
    const login = await api.post('/api/v1/auth/login', { data: { username: who.username, password: temporary } });
    expect(login.status(), await login.text()).toBe(200);
    const changed = await api.post('/api/v1/auth/password', { data: { currentPassword: temporary, newPassword: PASSWORD } });
    expect(changed.status(), await changed.text()).toBe(200);
  } finally {
    await api.dispose();
  }
  return ((await created.json()) as { id: string }).id;
}

async function setRequiredRoles(roles: string[]): Promise<void> {
  const admin = await adminApi();
  try {
    const res = await admin.patch('/api/v1/settings', { data: { totpRequiredRoles: roles } });
    expect(res.status(), await res.text()).toBe(200);
  } finally {
    await admin.dispose();
  }
}

/** Reads the secret the screen shows for typing by hand (groups of four). */
async function shownSecret(page: Page): Promise<string> {
  return ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
}

async function signOut(page: Page): Promise<void> {
  await sidebar(page).getByRole('button', { name: 'Cerrar Sesión', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
}

async function closeToasts(page: Page): Promise<void> {
  for (const close of await toastRegion(page).getByRole('button').all()) await close.click().catch(() => undefined);
  await expect(toastRegion(page).getByRole('status')).toHaveCount(0);
}

async function seriousViolations(page: Page): Promise<string[]> {
  await settleTransitions(page);
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
}

/** Turns two-factor sign-in on from 'Seguridad de la cuenta' as a person does; returns the secret, the step used and the recovery codes. */
async function enrol(page: Page): Promise<{ secret: string; step: number; codes: string[] }> {
  const section = page.getByTestId('two-factor-section');
  await expect(section.getByTestId('two-factor-state')).toHaveText('Desactivada');
  await section.getByRole('button', { name: 'Activar', exact: true }).click();
  await expect(section.getByRole('img', { name: `Código QR para la aplicación de autenticación (Agua:${await currentUsername(page)})` })).toBeVisible();
  const secret = await shownSecret(page);
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(section.getByTestId('totp-secret')).toHaveText(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  const field = section.getByLabel('Código de verificación');
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('inputmode', 'numeric');
  await expect(field).toHaveAttribute('autocomplete', 'one-time-code');

  // A wrong code: the server's words at the field.
  const now = Date.now();
  const near = [-1, 0, 1].map((d) => codeAt(secret, now + d * STEP_MS));
  const wrong = ['000000', '111111', '222222'].find((c) => !near.includes(c))!;
  await field.fill(wrong);
  await section.getByRole('button', { name: 'Activar verificación' }).click();
  await expect(section.locator('#totp-enable-code-error')).toHaveText('Código de verificación incorrecto');
  await expect(field).toBeFocused();

  const at = Date.now();
  await field.fill(codeAt(secret, at));
  await section.getByRole('button', { name: 'Activar verificación' }).click();
  const shown = section.getByTestId('recovery-codes');
  await expect(shown.getByRole('alert')).toContainText('solo se muestran esta vez');
  const items = shown.getByRole('list', { name: 'Códigos de recuperación' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  const codes = (await items.allTextContents()).map((c) => c.trim());
  for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  await expectToast(page, 'Verificación en dos pasos activada');
  return { secret, step: stepOf(at), codes };
}

async function currentUsername(page: Page): Promise<string> {
  const me = await page.request.get('/api/v1/auth/me');
  return ((await me.json()) as { username: string }).username;
}

test.describe.serial('Verificación en dos pasos', () => {
  test.setTimeout(60_000);
  let originalRoles: string[] = [];
  let ownId = '';
  let recovery: string[] = [];
  let ownSecret = '';
  let lastStep = 0;

  test.beforeAll(async () => {
    const admin = await adminApi();
    try {
      originalRoles = ((await (await admin.get('/api/v1/settings')).json()) as { totpRequiredRoles: string[] }).totpRequiredRoles;
      ownId = await createUser(admin, OWN, 'viewer');
      await createUser(admin, GATED, 'operator');
    } finally {
      await admin.dispose();
    }
  });

  test.afterAll(async () => {
    await setRequiredRoles(originalRoles);
    await deleteUserByUsername(OWN.username);
    await deleteUserByUsername(GATED.username);
  });

  test('la activa con el código QR, guarda los códigos de recuperación e inicia sesión con un código y con un código de recuperación (una sola vez)', async ({ page }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/login');
    await submitLogin(page, OWN.username, PASSWORD);
    await expect(page.getByRole('heading', { level: 1, name: PRODUCT_NAME, exact: true })).toBeVisible();

    // 'Seguridad de la cuenta' beside the account's other screens at the foot of the menu.
    await sidebar(page).getByRole('link', { name: 'Seguridad de la cuenta' }).click();
    await expect(page).toHaveURL(/\/account\/security$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Seguridad de la cuenta' })).toBeVisible();
    const enrolled = await enrol(page);
    ownSecret = enrolled.secret;
    lastStep = enrolled.step;
    recovery = enrolled.codes;

    // 'Copiar' and 'Descargar' give the same ten codes.
    const shown = page.getByTestId('recovery-codes');
    await shown.getByRole('button', { name: 'Copiar', exact: true }).click();
    await expect(shown.getByRole('status')).toHaveText('Códigos copiados al portapapeles.');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    for (const code of recovery) expect(copied).toContain(code);
    const [download] = await Promise.all([page.waitForEvent('download'), shown.getByRole('button', { name: 'Descargar', exact: true }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^codigos-recuperacion-${OWN.username}-\\d{4}-\\d{2}-\\d{2}\\.txt$`));
    const file = fs.readFileSync((await download.path())!, 'utf8');
    expect(file.split('\n').filter((line) => /^[a-z2-7]{5}-[a-z2-7]{5}$/.test(line))).toEqual(recovery);

    await shown.getByRole('button', { name: 'He guardado los códigos' }).click();
    await expect(shown).toHaveCount(0);
    await expect(page.getByTestId('two-factor-state')).toHaveText('Activada');
    await expect(page.getByRole('button', { name: 'Desactivar' })).toBeVisible();
    await signOut(page);

    // Sign-in asks for the code after the password, keeping what was typed.
    const form = loginForm(page);
    await submitLogin(page, OWN.username, PASSWORD);
    const code = page.getByLabel('Código de verificación');
    await expect(code).toBeFocused();
    await expect(code).toHaveAttribute('inputmode', 'numeric');
    await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await expect(form.username).toHaveValue(OWN.username);
    await expect(form.password).toHaveValue(PASSWORD);
    await expect(page.getByRole('heading', { name: 'Iniciar Sesión', exact: true })).toBeVisible();

    // The code of the step turned on is spent: the server refuses it, in its words.
    await code.fill(codeAt(ownSecret, lastStep * STEP_MS));
    await form.submit.click();
    await expect(page.locator('#login-totp-error')).toHaveText('Código de verificación incorrecto');
    await expect(code).toHaveValue('');
    await expect(code).toBeFocused();

    // The next step's code is good (the server allows one step of drift).
    lastStep = Math.max(lastStep + 1, stepOf(Date.now()));
    await code.fill(codeAt(ownSecret, lastStep * STEP_MS));
    await form.submit.click();
    await expect(page.getByRole('heading', { level: 1, name: PRODUCT_NAME, exact: true })).toBeVisible();
    await signOut(page);

    // A recovery code instead, once.
    await submitLogin(page, OWN.username, PASSWORD);
    await page.getByRole('button', { name: 'Usar un código de recuperación' }).click();
    const rescue = page.getByLabel('Código de recuperación');
    await expect(rescue).toBeFocused();
    await expect(page.getByLabel('Código de verificación')).toHaveCount(0);
    await rescue.fill(recovery[0]!);
    await form.submit.click();
    await expect(page.getByRole('heading', { level: 1, name: PRODUCT_NAME, exact: true })).toBeVisible();
    await signOut(page);

    await submitLogin(page, OWN.username, PASSWORD);
    await page.getByRole('button', { name: 'Usar un código de recuperación' }).click();
    await page.getByLabel('Código de recuperación').fill(recovery[0]!);
    await form.submit.click();
    await expect(page.locator('#login-recovery-error')).toHaveText('Código de verificación incorrecto');
    // Back to the app's code, and a second recovery code would do too.
    await page.getByRole('button', { name: 'Usar el código de la aplicación' }).click();
    await expect(page.getByLabel('Código de verificación')).toBeFocused();
  });

  test("'Sesiones' lista los navegadores y cierra otro; cerrar la propia sale del sistema", async ({ page }) => {
    // Another browser of the same user (signed in with a recovery code), named by its User-Agent.
    const other = await request.newContext({ baseURL, userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86' });
    try {
      const login = await other.post('/api/v1/auth/login', { data: { username: OWN.username, password: PASSWORD, recoveryCode: recovery[1] } });
      expect(login.status(), await login.text()).toBe(200);

      await page.goto('/login');
      await submitLogin(page, OWN.username, PASSWORD);
      await page.getByRole('button', { name: 'Usar un código de recuperación' }).click();
      await page.getByLabel('Código de recuperación').fill(recovery[2]!);
      await loginForm(page).submit.click();
      await expect(page.getByRole('heading', { level: 1, name: PRODUCT_NAME, exact: true })).toBeVisible();
      await page.goto('/account/security');

      const list = page.getByRole('list', { name: 'Sesiones abiertas' });
      const mine = list.getByRole('listitem').filter({ hasText: 'Esta sesión' });
      await expect(mine).toHaveCount(1);
      await expect(mine).toContainText(/^Chromium en Linux/);
      await expect(mine).toContainText('Dirección127.0.0.1');
      const edge = list.getByRole('listitem').filter({ hasText: 'Edge en Windows' });
      await expect(edge).toHaveCount(1);
      await expect(edge.getByText('Esta sesión')).toHaveCount(0);

      await edge.getByRole('button', { name: 'Cerrar sesión de Edge en Windows (127.0.0.1)' }).click();
      const confirm = page.getByRole('alertdialog');
      await expect(confirm).toContainText('Edge en Windows (127.0.0.1) saldrá del sistema al instante');
      await confirm.getByRole('button', { name: 'Cerrar sesión', exact: true }).click();
      await expectToast(page, 'Sesión cerrada');
      await expect(edge).toHaveCount(0);
      expect((await other.get('/api/v1/auth/me')).status()).toBe(401);

      // Ending this one signs out here.
      await mine.getByRole('button', { name: 'Cerrar sesión en este navegador' }).click();
      await expect(page.getByRole('alertdialog')).toContainText('Saldrá del sistema en este navegador');
      await page.getByRole('alertdialog').getByRole('button', { name: 'Cerrar sesión', exact: true }).click();
      await expect(page).toHaveURL(/\/login$/);
      expect((await page.request.get('/api/v1/auth/me')).status()).toBe(401);
    } finally {
      await other.dispose();
    }
  });

  test('el administrador la exige a los operadores: el operador solo ve «Seguridad de la cuenta» hasta activarla, sin conexión en vivo; luego sigue al panel', async ({ page, browser }) => {
    // The admin marks 'Operador' in the users screen; the list says who must still turn it on.
    const adminContext = await browser.newContext({ baseURL, locale: 'es-ES', timezoneId: 'Europe/Madrid' });
    const admin = await adminContext.newPage();
    try {
      await admin.goto('/login');
      await submitLogin(admin, 'admin', 'admin123', 'maestra2024');
      await expect(admin.getByRole('heading', { level: 1, name: PRODUCT_NAME, exact: true })).toBeVisible();
      await menuLinks(admin).filter({ hasText: /^Usuarios$/ }).click();
      const policy = admin.getByTestId('two-factor-policy');
      const roles = policy.getByRole('group', { name: 'Exigir verificación en dos pasos a los roles' });
      await expect(roles.getByRole('checkbox')).toHaveCount(3);
      await expect(roles.getByRole('checkbox', { name: 'Operador' })).not.toBeChecked();
      await roles.getByRole('checkbox', { name: 'Operador' }).check();
      await policy.getByRole('button', { name: 'Guardar' }).click();
      await expectToast(admin, 'Ajustes guardados', 'La verificación en dos pasos es obligatoria para: Operador.');
      await expect(admin.getByTestId(`user-row-${GATED.username}`).getByTestId('user-two-factor')).toHaveText('Verificación en dos pasos: Pendiente de activar');
      await expect(admin.getByTestId(`user-row-${OWN.username}`).getByTestId('user-two-factor')).toHaveText('Verificación en dos pasos: Activada');

      // The operator signs in: only 'Seguridad de la cuenta', no live socket.
      const sockets: string[] = [];
      page.on('websocket', (ws) => sockets.push(ws.url()));
      await page.goto('/login');
      await submitLogin(page, GATED.username, PASSWORD);
      await expect(page).toHaveURL(/\/account\/security$/);
      await expect(page.getByTestId('totp-enrolment-required')).toHaveText('Debe activar la verificación en dos pasos antes de continuar.');
      await expect(menuLinks(page)).toHaveCount(0);
      await expect(sidebar(page).getByRole('link')).toHaveText(['Seguridad de la cuenta']);
      await expect(page.getByTestId('sessions-section')).toHaveCount(0);
      await page.goto('/alarms');
      await expect(page).toHaveURL(/\/account\/security$/);
      expect((await page.request.get('/api/v1/devices')).status()).toBe(403);
      expect(sockets).toEqual([]);

      const { codes } = await enrol(page);
      expect(codes).toHaveLength(10);
      await page.getByRole('button', { name: 'Continuar al panel' }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { level: 1, name: PRODUCT_NAME, exact: true })).toBeVisible();
      await expect(menuLinks(page).filter({ hasText: /^Alarmas$/ })).toBeVisible();
      await expect.poll(() => sockets.length).toBeGreaterThan(0);

      // The role requires it: 'Desactivar' is not offered, the server's reason is.
      await sidebar(page).getByRole('link', { name: 'Seguridad de la cuenta' }).click();
      await expect(page.getByTestId('two-factor-state')).toHaveText('Activada');
      await expect(page.getByTestId('two-factor-required')).toHaveText('Su rol exige la verificación en dos pasos: no puede desactivarla.');
      await expect(page.getByRole('button', { name: 'Desactivar' })).toHaveCount(0);

      // A lost phone: the admin resets the other user's; that user's sessions end.
      await admin.reload();
      const row = admin.getByTestId(`user-row-${OWN.username}`);
      await row.getByRole('button', { name: `Restablecer verificación en dos pasos de ${OWN.name}` }).click();
      const confirm = admin.getByRole('alertdialog');
      await expect(confirm).toContainText('sus sesiones abiertas se cerrarán al instante');
      await confirm.getByRole('button', { name: 'Restablecer', exact: true }).click();
      await expectToast(admin, 'Verificación en dos pasos restablecida');
      await expect(row.getByTestId('user-two-factor')).toHaveText('Verificación en dos pasos: Desactivada');
      await expect(row.getByRole('button', { name: /^Restablecer verificación en dos pasos/ })).toHaveCount(0);
      const users = (await (await admin.request.get('/api/v1/users')).json()) as Array<{ id: string; totpEnabled: boolean }>;
      expect(users.find((u) => u.id === ownId)?.totpEnabled).toBe(false);

      // The audit screen names the new actions in Spanish.
      await admin.goto('/audit');
      await expect(admin.getByRole('main').getByText('Verificación en dos pasos restablecida', { exact: true }).filter({ visible: true }).first()).toBeVisible();
    } finally {
      await adminContext.close();
      await setRequiredRoles(originalRoles);
    }
  });

  test('«Seguridad de la cuenta» a 390 y 1440 px, claro y oscuro: nada tapado, sin desplazamiento lateral ni infracciones graves', async ({ page }) => {
    await page.goto('/login');
    await submitLogin(page, OWN.username, PASSWORD);
    await expect(page.getByRole('heading', { level: 1, name: PRODUCT_NAME, exact: true })).toBeVisible();
    const shots = process.env.SCREENS_OUT;
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const size of [{ width: 390, height: 844 }, { width: 1440, height: 900 }]) {
        await page.setViewportSize(size);
        const where = `${size.width} px (${scheme})`;
        await page.goto('/account/security');
        await expect(page.getByRole('list', { name: 'Sesiones abiertas' }).getByRole('listitem').first()).toBeVisible();
        await page.getByTestId('two-factor-section').getByRole('button', { name: 'Activar', exact: true }).click();
        await expect(page.getByTestId('totp-qr')).toBeVisible();
        await closeToasts(page);
        if (shots) {
          // `SCREENS_OUT=docs/screens`: the screenshots of docs/operator-console.md.
          await settleTransitions(page);
          await page.screenshot({ path: path.join(shots, `account-security-${size.width}-${scheme}.png`), fullPage: true, animations: 'disabled' });
        }
        await expectNoCoveredControls(page, `/account/security at ${where}`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `sideways scrolling at ${where}`).toBeLessThanOrEqual(0);
        expect(await seriousViolations(page), `axe on /account/security at ${where}`).toEqual([]);
        await page.getByTestId('two-factor-section').getByRole('button', { name: 'Cancelar' }).click();
      }
    }
  });
});
