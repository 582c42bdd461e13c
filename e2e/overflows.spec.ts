import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { adminApi } from './support/api';
import { menuLinks, signIn } from './support/auth';
import { expectLive } from './support/devices';
import { expectNoCoveredControls, settleTransitions } from './support/layout';
import { ownTank, type OwnTank } from './support/own-tank';
import { expectToast, toastRegion } from './support/toast';

// A wet well of its own with a crest at 4 m and a weir (docs/water.md "Overflow events"): a spill
// opens once readings at or above 4 m span 30 s, and ends once readings under 3.95 m span 60 s.
const TANK = ownTank('e2e_pozo_desborde', 'Pozo Desborde E2E');
const GEOMETRY = { shape: { kind: 'rectangular', areaM2: 10 }, crestLevelM: 4, spill: { onDelayS: 30, offDelayS: 60, deadbandM: 0.05 }, weir: { widthM: 1.5, coefficient: 0.62 } };
const S = 1000;

interface Event {
  id: string;
  startedAt: string;
  endedAt: string | null;
}

async function giveCrest(tank: OwnTank): Promise<void> {
  const api = await adminApi();
  try {
    const res = await api.put(`/api/v1/devices/${tank.id}/geometry`, { data: GEOMETRY });
    expect(res.status(), await res.text()).toBe(200);
  } finally {
    await api.dispose();
  }
}

/** The tank's board sends a buffered batch: one level every 10 s from `fromMs`. */
async function postLevels(request: APIRequestContext, tank: OwnTank, fromMs: number, levels: number[]): Promise<void> {
  const data = levels.map((value, i) => ({ deviceId: tank.id, type: 'level_sensor', data: { value, unit: 'm' }, ts: new Date(fromMs + i * 10 * S).toISOString() }));
  const res = await request.post('/api/v1/telemetry', { headers: { 'X-API-Key': tank.apiKey }, data });
  expect(res.status(), await res.text()).toBe(202);
}
const repeat = (level: number, n: number) => Array.from({ length: n }, () => level);

/** The tank's events as the API lists them, once there are `count`. */
async function eventsOf(tank: OwnTank, count: number): Promise<Event[]> {
  const api = await adminApi();
  try {
    let items: Event[] = [];
    await expect
      .poll(async () => {
        items = ((await (await api.get('/api/v1/overflow-events', { params: { deviceId: tank.id } })).json()) as { items: Event[] }).items;
        return items.length;
      })
      .toBe(count);
    return items;
  } finally {
    await api.dispose();
  }
}

/** A closed spill two hours ago: 5 min at 4.2 m, then 3.9 m. */
async function plantClosedSpill(request: APIRequestContext, tank: OwnTank): Promise<Event> {
  await giveCrest(tank);
  await postLevels(request, tank, Date.now() - 2 * 3600 * S, [3.5, ...repeat(4.2, 30), ...repeat(3.9, 10)]);
  const [event] = await eventsOf(tank, 1);
  expect(event!.endedAt).not.toBeNull();
  return event!;
}

/** Closes the toasts left on screen (the welcome one): the layout guard is about the screen itself. */
async function closeToasts(page: Page): Promise<void> {
  const region = toastRegion(page);
  for (const close of await region.getByRole('button', { name: 'Cerrar' }).all()) await close.click();
  await expect(region.getByRole('listitem')).toHaveCount(0);
}

async function openOverflows(page: Page, tank: OwnTank): Promise<void> {
  await menuLinks(page).filter({ hasText: /^Desbordamientos$/ }).click();
  await expect(page).toHaveURL(/\/overflows$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Desbordamientos', exact: true })).toBeVisible();
  await page.getByLabel('Dispositivo', { exact: true }).selectOption(tank.id);
  await expect(page).toHaveURL(new RegExp(`deviceId=${tank.id}`));
}

/** The event's row in whichever layout the width shows (a table on wide screens, cards on phones). */
const row = (page: Page, id: string) => page.getByTestId(`overflow-${id}`).filter({ visible: true });

test.describe('Desbordamientos', () => {
  test('el operador ve el desbordamiento y sus recuentos, anota la causa y el aviso a la autoridad, y ve abrirse y cerrarse uno nuevo en directo', async ({ page }) => {
    const closed = await plantClosedSpill(page.request, TANK);
    await signIn(page, 'operator');
    await expectLive(page);
    await openOverflows(page, TANK);

    const first = row(page, closed.id);
    await expect(first).toHaveAttribute('data-state', 'closed');
    await expect(first).toContainText('5 min');
    await expect(first).toContainText('4,20 m');
    await expect(first).toContainText('por vertedero');
    await expect(first).toContainText(/\d+,\d m³/);
    await expect(first).toContainText('No');
    await expect(first).toContainText(TANK.name);
    await expect(page.getByTestId('overflow-count-value')).toHaveText('1');
    await expect(page.getByTestId('overflow-1224-value')).toHaveText('1');
    await expect(page.getByTestId('overflow-duration-value')).toHaveText('5 min');
    await expect(page.getByTestId('overflow-year-1224')).toContainText(`Vertidos 12/24 en ${new Date().getFullYear()}`);
    await expect(page.getByTestId('overflow-year-1224-value')).toHaveText('1');

    // A future time is refused in the server's words; then the cause and 'now' are saved.
    await first.getByRole('button', { name: /^Editar el desbordamiento/ }).click();
    const dialog = page.getByTestId('overflow-edit-dialog');
    await expect(dialog.getByRole('heading', { name: 'Editar desbordamiento' })).toBeVisible();
    await dialog.getByLabel('Causa', { exact: true }).fill('Lluvia intensa');
    await dialog.getByLabel('Comunicado a la autoridad', { exact: true }).fill(`${new Date().getFullYear() + 1}-01-01T10:00`);
    await dialog.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect(dialog.locator('#overflow-notifiedAt-error')).toHaveText('La fecha de aviso a la autoridad no puede ser futura.');
    await expect(dialog.getByLabel('Comunicado a la autoridad', { exact: true })).toBeFocused();
    await dialog.getByRole('button', { name: 'Ahora', exact: true }).click();
    await dialog.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expectToast(page, 'Desbordamiento actualizado', TANK.name);
    await expect(dialog).toBeHidden();
    await expect(first).toContainText('Lluvia intensa');
    await expect(first).toContainText(/Sí — /);

    const api = await adminApi();
    try {
      const stored = (await (await api.get(`/api/v1/overflow-events/${closed.id}`)).json()) as { cause: string; notifiedAt: string };
      expect(stored.cause).toBe('Lluvia intensa');
      expect(Date.now() - Date.parse(stored.notifiedAt)).toBeLessThan(5 * 60 * S);
    } finally {
      await api.dispose();
    }

    // Live, without reloading: a spill opens ('En curso', highlighted) and then ends.
    const liveFrom = Date.now() - 5 * 60 * S;
    await postLevels(page.request, TANK, liveFrom, repeat(4.3, 6));
    const open = page.locator('[data-testid^="overflow-"][data-state="open"]').filter({ visible: true });
    await expect(open).toHaveCount(1);
    await expect(open.getByTestId('overflow-open')).toHaveText('En curso');
    await expect(page.getByTestId('overflow-count-value')).toHaveText('2');
    await postLevels(page.request, TANK, liveFrom + 60 * S, repeat(3.8, 10));
    await expect(open).toHaveCount(0);
    const [newest] = await eventsOf(TANK, 2);
    await expect(row(page, newest!.id)).toHaveAttribute('data-state', 'closed');
    await expect(row(page, closed.id)).toContainText('Lluvia intensa');
  });

  test('el observador ve los desbordamientos sin ningún control para editarlos; un periodo sin eventos lo dice', async ({ page }) => {
    const closed = await plantClosedSpill(page.request, TANK);
    await signIn(page, 'viewer');
    await openOverflows(page, TANK);
    await expect(row(page, closed.id)).toContainText('4,20 m');
    await expect(page.getByRole('button', { name: /Editar/ })).toHaveCount(0);

    // A period before any event: the empty state names the filter.
    await page.getByLabel('Desde', { exact: true }).fill('2020-01-01');
    await page.getByLabel('Hasta', { exact: true }).fill('2020-01-31');
    await expect(page.getByTestId('overflow-empty').filter({ visible: true })).toHaveText('No hay desbordamientos para este filtro.');
    await expect(page.getByTestId('overflow-count-value')).toHaveText('0');
    await expect(page.getByTestId('overflow-volume-value')).toHaveText('—');
  });

  test('a 390 y 1440 px, claro y oscuro, ningún control queda tapado, no hay desplazamiento lateral ni infracciones graves de accesibilidad', async ({ page }) => {
    const closed = await plantClosedSpill(page.request, TANK);
    await signIn(page, 'operator');
    await openOverflows(page, TANK);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const size of [{ width: 390, height: 844 }, { width: 1440, height: 900 }]) {
        await page.setViewportSize(size);
        await expect(row(page, closed.id)).toBeVisible();
        await closeToasts(page);
        await settleTransitions(page);
        await expectNoCoveredControls(page, `/overflows at ${size.width} px (${scheme})`);
        const overflowX = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflowX, `sideways scrolling at ${size.width} px`).toBeLessThanOrEqual(0);
        // With events on screen (the accessibility pass sees the screen of the demo, maybe empty).
        const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze();
        expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`), `axe at ${size.width} px (${scheme})`).toEqual([]);
      }
    }
    // The edit dialog on a phone: every control reachable.
    await page.setViewportSize({ width: 390, height: 844 });
    await row(page, closed.id).getByRole('button', { name: /^Editar el desbordamiento/ }).click();
    const dialog = page.getByTestId('overflow-edit-dialog');
    await expect(dialog).toBeVisible();
    await expectNoCoveredControls(page, 'the overflow edit dialog at 390 px');
    // The date-time field's own width must not push the form past the phone's edge (clipped, not scrolled).
    expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  });
});
