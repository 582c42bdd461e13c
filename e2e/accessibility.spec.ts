import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { expectLive } from './support/devices';
import { settlePage, settleTransitions, watchRequests } from './support/layout';

/** Every screen an administrator can open (the others' are a subset), and the device panel. */
const SCREENS = ['/', '/wall', '/devices', '/devices?id=esp32_nivel_01', '/alarms', '/overflows', '/reports', '/account/password', '/account/notifications', '/users', '/audit', '/notifications', '/manual', '/interlocks', '/map'];

/** axe's serious and critical findings on the page as it is, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  await settleTransitions(page);
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
}

test.describe('Accesibilidad (axe)', () => {
  test.setTimeout(180_000);

  for (const scheme of ['light', 'dark'] as const) {
    test(`ninguna infracción grave en la página de acceso ni en ninguna pantalla, tema ${scheme === 'light' ? 'claro' : 'oscuro'}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: 'Iniciar Sesión', exact: true })).toBeVisible();
      expect(await seriousViolations(page), '/login').toEqual([]);

      await signIn(page, 'admin');
      await expectLive(page);
      watchRequests(page);
      for (const path of SCREENS) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        // Let live data and lazy parts settle (the sign-in toast went with the page it was on).
        await settlePage(page);
        expect(await seriousViolations(page), path).toEqual([]);
      }
    });
  }
});
