import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { ACCOUNTS, menuLinks, sidebar, signIn, type Role } from './support/auth';

const MENU: Record<Role, string[]> = {
  admin: ['Dashboard', 'Dispositivos', 'Mapa', 'Alarmas', 'Desbordamientos', 'Informes', 'Enclavamientos', 'Usuarios', 'Auditoría', 'Notificaciones', 'Manual Admin'],
  operator: ['Dashboard', 'Dispositivos', 'Mapa', 'Alarmas', 'Desbordamientos', 'Informes'],
  viewer: ['Dashboard', 'Dispositivos', 'Mapa', 'Alarmas', 'Desbordamientos', 'Informes'],
};

async function expectAccessDenied(page: Page) {
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Acceso Denegado', exact: true })).toBeVisible();
  await expect(main.getByText('No tienes permisos para acceder a esta sección.', { exact: true })).toBeVisible();
}

/** The number shown on a users tile, e.g. 'Total Usuarios' → 4. */
async function tileValue(page: Page, label: string): Promise<number> {
  const tile = page.getByRole('region', { name: 'Resumen de usuarios' }).locator(':scope > *').filter({ hasText: label });
  await expect(tile).toHaveCount(1);
  const text = (await tile.innerText()).replace(label, '');
  const match = /\d+/.exec(text);
  if (!match) throw new Error(`no number in tile '${label}': ${text}`);
  return Number(match[0]);
}

test.describe('Roles y permisos', () => {
  for (const role of ['admin', 'operator', 'viewer'] as const) {
    test(`menú y rol en la barra lateral: ${role}`, async ({ page }) => {
      await signIn(page, role);
      await expect(menuLinks(page)).toHaveText(MENU[role]);
      await expect(sidebar(page).getByText(ACCOUNTS[role].roleName, { exact: true })).toBeVisible();
    });
  }

  test('operador en /users, /manual y /interlocks ve Acceso Denegado', async ({ page }) => {
    await signIn(page, 'operator');
    await page.goto('/users');
    await expectAccessDenied(page);
    await expect(page.getByRole('heading', { name: 'Gestión de Usuarios' })).toHaveCount(0);

    await page.goto('/manual');
    await expectAccessDenied(page);

    await page.goto('/interlocks');
    await expectAccessDenied(page);
    await expect(page.getByRole('heading', { name: 'Enclavamientos' })).toHaveCount(0);
  });

  test('observador en /users ve Acceso Denegado', async ({ page }) => {
    await signIn(page, 'viewer');
    await page.goto('/users');
    await expectAccessDenied(page);
  });

  test('admin ve Gestión de Usuarios con los usuarios de ejemplo', async ({ page }) => {
    await signIn(page, 'admin');
    await menuLinks(page).filter({ hasText: 'Usuarios' }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Gestión de Usuarios', exact: true })).toBeVisible();

    const list = page.getByRole('list', { name: 'Lista de usuarios' });
    for (const name of ['María González', 'Juan Pérez', 'Ana Rodríguez', 'Luis Martínez']) {
      await expect(list.getByText(name, { exact: true })).toBeVisible();
    }
    // Other tests (or engineers) may have created users: the seed's four are a lower bound.
    expect(await tileValue(page, 'Total Usuarios')).toBeGreaterThanOrEqual(4);
    expect(await tileValue(page, 'Administradores')).toBeGreaterThanOrEqual(1);
    expect(await tileValue(page, 'Operadores')).toBeGreaterThanOrEqual(2);
    expect(await tileValue(page, 'Observadores')).toBeGreaterThanOrEqual(1);
    expect(await tileValue(page, 'Usuarios Activos')).toBeGreaterThanOrEqual(3);
  });
});
