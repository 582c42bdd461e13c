import { expect, type Page } from '@playwright/test';

export type Role = 'admin' | 'operator' | 'viewer';

export interface Account {
  username: string;
  password: string;
  masterPassword?: string;
  /** Name shown in the sidebar (docs/product.md demo accounts). */
  name: string;
  /** Role display name shown in the sidebar. */
  roleName: string;
}

/** The demo accounts seeded with DEMO=true (docs/product.md). */
export const ACCOUNTS: Record<Role, Account> = {
  admin: { username: 'admin', password: 'admin123', masterPassword: 'maestra2024', name: 'María González', roleName: 'Administrador General' },
  operator: { username: 'operator', password: 'operator123', name: 'Juan Pérez', roleName: 'Operador' },
  viewer: { username: 'viewer', password: 'viewer123', name: 'Ana Rodríguez', roleName: 'Observador' },
};

export const PRODUCT_NAME = 'Panel de Control de Agua';

/** The login form's fields and submit button. */
export function loginForm(page: Page) {
  return {
    username: page.getByPlaceholder('Usuario', { exact: true }),
    password: page.getByPlaceholder('Contraseña', { exact: true }),
    master: page.getByPlaceholder('Contraseña Maestra', { exact: true }),
    submit: page.getByRole('button', { name: /^(Acceder al Sistema|Verificando\.\.\.)$/ }),
  };
}

/** Fills the login form (the master password only when given) and submits it. */
export async function submitLogin(page: Page, username: string, password: string, masterPassword?: string): Promise<void> {
  const form = loginForm(page);
  await form.username.fill(username);
  await form.password.fill(password);
  if (masterPassword !== undefined) await form.master.fill(masterPassword);
  await form.submit.click();
}

/** Signs in through the login page as one of the demo accounts and waits for the dashboard. */
export async function signIn(page: Page, role: Role): Promise<Account> {
  const account = ACCOUNTS[role];
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Iniciar Sesión', exact: true })).toBeVisible();
  await submitLogin(page, account.username, account.password, account.masterPassword);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: PRODUCT_NAME, exact: true })).toBeVisible();
  return account;
}

/** The desktop sidebar (the viewport is wide enough for it to be always shown). */
export function sidebar(page: Page) {
  return page.getByRole('complementary');
}

/** The main menu links in the sidebar. */
export function menuLinks(page: Page) {
  return sidebar(page).getByRole('navigation', { name: 'Navegación principal' }).getByRole('link');
}
