import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { adminApi, createDevice } from './support/api';
import { ACCOUNTS, signIn, submitLogin } from './support/auth';
import { purgeDevice } from './support/cleanup';
import { DEVICES, expectLive, SIM_TIMEOUT } from './support/devices';
import { restingGate } from './support/interlocks';
import { reportLevel, type OwnTank } from './support/own-tank';
import { expectNoCoveredControls, settleTransitions } from './support/layout';
import { startExtraServer, startTileServer } from './support/tile-server';
import { expectToast } from './support/toast';
import { expectToastBehindModal } from './support/toast-modal';

const SITE = { id: 'site_reserva_limpia', name: 'Reserva Agua Limpia' };
const OTHER_SITE = { id: 'site_desbordamiento', name: 'Desbordamiento Aguas Residuales' };
const TANK = DEVICES.nivel02;
/** The demo site's gate: never simulated, so offline — the drawing greys it. */
const GATE = DEVICES.compuerta02;
/** The simulated gate, in the other demo site: the one that obeys commands. */
const LIVE_GATE = DEVICES.compuerta01;

interface SynopticBody {
  version: number;
  width: number;
  height: number;
  background: { kind: 'grid' } | { kind: 'svg'; svg: string };
  items: Array<Record<string, unknown>>;
}

/** A tank of this spec's own in the demo site (the simulator never writes to it): the alarm and the exact levels are ours. */
const OWN: OwnTank = { id: '', name: 'Tanque Sitio E2E', apiKey: '' };
let api: APIRequestContext;
/** Sites this spec made, deleted in afterAll (the newest first: a child before its parent). */
const made: string[] = [];
let before: SynopticBody;
let otherBefore: SynopticBody;

async function synoptic(siteId = SITE.id): Promise<SynopticBody> {
  const res = await api.get(`/api/v1/sites/${siteId}/synoptic`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as SynopticBody;
}

/** A site of this spec's own, without coordinates; deleted in afterAll if the test did not. */
async function makeSite(name: string, parentId: string | null = null): Promise<string> {
  const res = await api.post('/api/v1/sites', { data: { name, parentId } });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  made.push(id);
  return id;
}

/** A drawing with one label: the label tells the versions apart. */
async function saveLabel(siteId: string, baseVersion: number, label: string): Promise<void> {
  const item = { id: 'e2e_label', symbol: 'label', deviceId: null, x: 100, y: 100, w: 400, h: 60, label, rotation: 0 };
  const res = await api.put(`/api/v1/sites/${siteId}/synoptic`, { data: { baseVersion, width: 1200, height: 800, background: { kind: 'grid' }, items: [item] } });
  expect(res.status(), await res.text()).toBe(201);
}

async function seriousViolations(page: Page): Promise<string[]> {
  await settleTransitions(page);
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ") + " " + n.html.slice(0, 300)).slice(0, 1).join(" | ")}`);
}

/** `SCREENS_OUT=docs/screens`: the screenshots of docs/operator-console.md (none otherwise: a run leaves the tree as it was). */
async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  const dir = process.env.SCREENS_OUT;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage });
}

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** The demo site drawn: the reserve and our tank, the pipe between them, the inlet gate; a plan of the plot behind. */
const PLAN =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 800"><rect x="40" y="40" width="1120" height="720" rx="24" fill="none" stroke="#9ca3af" stroke-width="3" stroke-dasharray="12 8"/><path d="M40 620 H1160" stroke="#d1d5db" stroke-width="40"/><text x="60" y="700" font-family="sans-serif" font-size="22" fill="#6b7280">Camino de servicio</text></svg>';
const SHOWCASE = {
  width: 1200,
  height: 800,
  background: { kind: 'svg', svg: PLAN },
  items: [
    { id: 'label_titulo', symbol: 'label', deviceId: null, x: 120, y: 60, w: 320, h: 40, label: 'Depósito norte', rotation: 0 },
    { id: 'tank_reserva', symbol: 'tank', deviceId: TANK.id, x: 160, y: 120, w: 200, h: 260, label: '', rotation: 0 },
    { id: 'canal_1', symbol: 'channel', deviceId: null, x: 360, y: 320, w: 260, h: 40, label: '', rotation: 0 },
    { id: 'gate_entrada', symbol: 'gate', deviceId: GATE.id, x: 620, y: 260, w: 180, h: 120, label: '', rotation: 0 },
    { id: 'canal_2', symbol: 'channel', deviceId: null, x: 800, y: 320, w: 140, h: 40, label: '', rotation: 0 },
    { id: 'tank_e2e', symbol: 'tank', deviceId: null as string | null, x: 940, y: 160, w: 160, h: 220, label: '', rotation: 0 },
  ],
};

test.describe.configure({ mode: 'serial' });

test.describe('Mapa y sinóptico de un sitio', () => {
  test.setTimeout(60_000);

  test.beforeAll(async () => {
    api = await adminApi();
    before = await synoptic();
    otherBefore = await synoptic(OTHER_SITE.id);
    OWN.id = `e2e_tanque_sitio_${Date.now().toString(36)}`;
    SHOWCASE.items[5]!.deviceId = OWN.id;
    OWN.apiKey = await createDevice({ id: OWN.id, name: OWN.name, location: 'Prueba', type: 'level_sensor', config: { maxLevel: 5 } });
    const res = await api.patch(`/api/v1/devices/${OWN.id}`, { data: { siteId: SITE.id } });
    expect(res.status(), await res.text()).toBe(200);
  });

  test.afterAll(async () => {
    // The drawing as it was (as a new version: versions are history), and no device of ours.
    for (const [siteId, was] of [
      [SITE.id, before],
      [OTHER_SITE.id, otherBefore],
    ] as const) {
      const now = await synoptic(siteId);
      if (now.version === was.version) continue;
      await api.put(`/api/v1/sites/${siteId}/synoptic`, { data: { baseVersion: now.version, width: was.width, height: was.height, background: was.background, items: was.items } });
    }
    await purgeDevice(OWN.id);
    for (const id of made.reverse()) {
      const res = await api.delete(`/api/v1/sites/${encodeURIComponent(id)}`);
      expect([204, 404], `site ${id}`).toContain(res.status());
    }
    await api.dispose();
  });

  test("'Mapa' muestra los sitios sobre un fondo neutro con la escala; un clic abre el sitio", async ({ page }) => {
    await signIn(page, 'viewer');
    await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Mapa' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Mapa' })).toBeVisible();
    const map = page.getByTestId('site-map');
    await expect(map).toHaveAttribute('data-tiles', 'off');
    await expect(page.getByTestId('map-no-tiles')).toContainText('Sin mapa base (modo sin conexión)');
    await expect(map.locator('.leaflet-control-scale-line')).toHaveText(/^\d+ (m|km)$/);
    await expect(map.locator('.leaflet-tile')).toHaveCount(0);
    const marker = page.getByTestId(`site-marker-${SITE.id}`);
    await expect(marker).toContainText(SITE.name);
    await expect(page.getByRole('button', { name: 'Nuevo sitio' })).toHaveCount(0);
    await expect(page.getByTestId(`site-marker-${OTHER_SITE.id}`)).toContainText(OTHER_SITE.name);
    await marker.click();
    await expect(page).toHaveURL(new RegExp(`/sites/${SITE.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: SITE.name })).toBeVisible();
    // Reading only: no editor for a viewer.
    await expect(page.getByRole('link', { name: 'Editar sinóptico' })).toHaveCount(0);
  });

  test('con un servidor de teselas el mapa las pide y muestra su atribución', async ({ page }) => {
    // A real tile server on this machine, and a server of ours started with MAP_TILE_URL naming it.
    const tiles = await startTileServer();
    const server = await startExtraServer({ MAP_TILE_URL: `${tiles.url}/{z}/{x}/{y}.png`, MAP_ATTRIBUTION: '© Teselas de prueba <b>e2e</b>' });
    try {
      await page.goto(`${server.url}/login`);
      await submitLogin(page, ACCOUNTS.viewer.username, ACCOUNTS.viewer.password);
      await expect(page).toHaveURL(`${server.url}/`);
      await page.goto(`${server.url}/map`);
      const map = page.getByTestId('site-map');
      await expect(map).toHaveAttribute('data-tiles', 'on');
      await expect(map.locator('.leaflet-tile-loaded').first()).toBeVisible();
      expect(tiles.asked.length).toBeGreaterThan(0);
      expect(tiles.asked[0]).toMatch(/^\/\d+\/\d+\/\d+\.png$/);
      // The credit is shown as typed, never as HTML.
      await expect(map.locator('.leaflet-control-attribution')).toHaveText('© Teselas de prueba <b>e2e</b>');
      await expect(page.getByTestId('map-no-tiles')).toHaveCount(0);
    } finally {
      await server.stop();
      await tiles.close();
    }
  });

  test('un sitio nuevo sin coordenadas aparece en la lista, no en el mapa', async ({ page }) => {
    const name = `Sitio E2E ${Date.now().toString(36)}`;
    await signIn(page, 'admin');
    await page.goto('/map');
    await page.getByRole('button', { name: 'Nuevo sitio' }).click();
    const form = page.getByTestId('site-form-dialog');
    await form.getByLabel('Nombre').fill(name);
    await form.getByLabel('Latitud').fill('40,4');
    await form.getByRole('button', { name: 'Guardar' }).click();
    await expect(form.getByText('Escriba la latitud y la longitud, o ninguna.')).toBeVisible();
    await form.getByLabel('Latitud').fill('');
    await form.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    try {
      await expect(page.getByText('Este sitio aún no tiene sinóptico.')).toBeVisible();
      await page.getByRole('link', { name: 'Mapa', exact: true }).first().click();
      await expect(page.getByTestId('sites-without-coordinates').getByRole('link', { name: new RegExp(name) })).toBeVisible();
      await expect(page.getByTestId(`site-marker-${id}`)).toHaveCount(0);
    } finally {
      const res = await api.delete(`/api/v1/sites/${encodeURIComponent(id)}`);
      expect([204, 404]).toContain(res.status());
    }
  });

  test("el filtro 'Sitio' del dashboard (y su exportación), de las alarmas y de los informes deja lo de un sitio", async ({ page }) => {
    await signIn(page, 'viewer');
    await expect(page.getByTestId(`device-card-${DEVICES.nivel01.id}`)).toBeVisible();
    await page.getByLabel('Sitio', { exact: true }).selectOption({ label: SITE.name });
    await expect(page).toHaveURL(new RegExp(`\\?siteId=${SITE.id}$`));
    await expect(page.getByTestId(`device-card-${TANK.id}`)).toBeVisible();
    await expect(page.getByTestId(`device-card-${DEVICES.nivel01.id}`)).toHaveCount(0);
    await expect(page.getByTestId(`device-card-${LIVE_GATE.id}`)).toHaveCount(0);
    // The export follows the filter: the site's devices only, and the site asked of the server.
    await page.getByRole('button', { name: 'Exportar a Excel' }).click();
    const dialog = page.getByTestId('export-dialog');
    await expect(dialog.getByText(TANK.name, { exact: true })).toBeVisible();
    await expect(dialog.getByText(DEVICES.nivel01.name, { exact: true })).toHaveCount(0);
    const asked = page.waitForRequest((r) => r.url().includes('/api/v1/export.csv'));
    await dialog.getByRole('button', { name: 'Descargar CSV' }).click();
    expect(new URL((await asked).url()).searchParams.get('siteId')).toBe(SITE.id);
    await page.keyboard.press('Escape');
    await page.getByLabel('Sitio', { exact: true }).selectOption({ label: 'Todos los sitios' });
    await expect(page.getByTestId(`device-card-${DEVICES.nivel01.id}`)).toBeVisible();
    await page.goto(`/alarms?siteId=${OTHER_SITE.id}`);
    await expect(page.getByLabel('Sitio', { exact: true })).toHaveValue(OTHER_SITE.id);
    // 'Informes': a definition naming one of the site's devices shows under that site, not another.
    const name = `Informe sitio E2E ${Date.now()}`;
    const created = await api.post('/api/v1/reports', { data: { name, kind: 'daily', deviceIds: [TANK.id], formats: ['xlsx'], recipients: [], schedule: null, enabled: true } });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    try {
      await page.goto(`/reports?siteId=${SITE.id}`);
      await expect(page.getByTestId(`report-${id}`)).toBeVisible();
      await page.getByLabel('Sitio', { exact: true }).selectOption({ label: OTHER_SITE.name });
      await expect(page.getByTestId(`report-${id}`)).toHaveCount(0);
    } finally {
      await api.delete(`/api/v1/reports/${id}`);
    }
  });

  test('el editor coloca los dispositivos con el teclado y el ratón, guarda, y el sinóptico vive', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, 'admin');
    await expectLive(page);
    await page.goto(`/sites/${SITE.id}`);
    await page.getByRole('link', { name: 'Editar sinóptico' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Editar sinóptico · ${SITE.name}` })).toBeVisible();
    // Start from an empty drawing whatever an earlier run left.
    const canvas = page.getByTestId('synoptic-editor-canvas');
    // (The demo's own drawing, or an earlier run's: each Delete removes the first item left.)
    const items = canvas.locator('[data-editor-item]');
    for (let left = await items.count(); left > 0; left--) {
      await items.first().focus();
      await page.keyboard.press('Delete');
      await expect(items).toHaveCount(left - 1);
    }
    await expect(canvas.locator('[data-editor-item]')).toHaveCount(0);

    // Keyboard: the placed tank takes the focus; arrows move it one step, Shift+arrows resize, Ctrl+Z undoes.
    await page.getByRole('button', { name: `Colocar ${TANK.name}` }).click();
    const tank = page.getByTestId(`editor-item-${TANK.id}`);
    await expect(tank).toBeFocused();
    const x0 = Number(await tank.getAttribute('data-x'));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await expect(tank).toHaveAttribute('data-x', String(x0 + 40));
    const h0 = Number(await tank.getAttribute('data-h'));
    await page.keyboard.press('Shift+ArrowDown');
    await expect(tank).toHaveAttribute('data-h', String(h0 + 20));
    await page.keyboard.press('Control+z');
    await expect(tank).toHaveAttribute('data-h', String(h0));

    // Mouse: the gate dragged to the right snaps to the grid.
    await page.getByRole('button', { name: `Colocar ${GATE.name}` }).click();
    const gate = page.getByTestId(`editor-item-${GATE.id}`);
    const gx0 = Number(await gate.getAttribute('data-x'));
    const box = (await gate.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 150, box.y + box.height / 2 + 10, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => Number(await gate.getAttribute('data-x'))).toBeGreaterThan(gx0 + 60);
    expect(Number(await gate.getAttribute('data-x')) % 20).toBe(0);
    // Its lower right corner resizes it, on the grid too.
    const gw0 = Number(await gate.getAttribute('data-w'));
    const handle = (await page.getByTestId('editor-resize-handle').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + handle.width / 2 + 60, handle.y + handle.height / 2 + 30, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => Number(await gate.getAttribute('data-w'))).toBeGreaterThan(gw0);
    expect(Number(await gate.getAttribute('data-w')) % 20).toBe(0);

    await page.getByRole('button', { name: `Colocar ${OWN.name}` }).click();
    await page.getByRole('button', { name: 'Etiqueta', exact: true }).click();
    const props = page.getByTestId('synoptic-item-properties');
    await props.getByLabel('Etiqueta').fill('Depósito norte');
    await props.getByLabel('Etiqueta').blur();

    expect(await seriousViolations(page), 'editor').toEqual([]);
    await expectNoCoveredControls(page, 'editor');

    // A background with a script in it: the server removes it and the editor says what went.
    const hostile = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 800" onload="alert(1)"><script>alert(1)</script><rect x="20" y="20" width="1160" height="760" fill="none" stroke="#999"/></svg>';
    await page.getByTestId('synoptic-svg-input').setInputFiles({ name: 'planta.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(hostile) });

    await page.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expectToast(page, 'Sinóptico guardado');
    await expect(page.getByTestId('synoptic-sanitized')).toContainText('script');
    await shot(page, 'site-editor-1440-light');
    const saved = await synoptic();
    expect(saved.items).toHaveLength(4);
    expect(saved.background.kind === 'svg' && saved.background.svg).not.toContain('<script');

    // The site, again: the drawing, live.
    await page.getByRole('link', { name: 'Ver sitio' }).click();
    const drawing = page.getByTestId('synoptic-drawing');
    await expect(drawing).toBeVisible();
    await expect(drawing.getByText('Depósito norte')).toBeVisible();
    // The background is an image: it cannot run anything.
    await expect(drawing.getByTestId('synoptic-background-svg')).toHaveAttribute('href', /^data:image\/svg\+xml/);
    const tankButton = drawing.getByRole('button', { name: new RegExp(`^${TANK.name}: \\d+,\\d{2} m · \\d+ %, .*(hace \\d+ s|ahora)`) });
    await expect(tankButton).toBeVisible({ timeout: SIM_TIMEOUT });
    // A simulated reading moves the tank's fill (the simulator reports every 3 s).
    const fill = drawing.locator(`[data-device-id="${TANK.id}"] [data-testid^="synoptic-fill-"]`);
    const first = await fill.getAttribute('data-percent');
    await expect(fill).not.toHaveAttribute('data-percent', first!, { timeout: SIM_TIMEOUT });

    // Our own tank: a reading shows within 2 s; a very high one raises alarms on the symbol and on the map's marker.
    const own = drawing.locator(`[data-device-id="${OWN.id}"]`);
    await reportLevel(page.request, OWN, 2);
    await expect(own).toHaveAttribute('aria-label', new RegExp(`^${OWN.name}: 2,00 m · 40 %`), { timeout: 2_000 });
    await expect(own).toHaveAttribute('data-alarm-priority', 'none');
    await reportLevel(page.request, OWN, 4.9);
    await expect(own).toHaveAttribute('data-alarm-priority', '1');
    await expect(own).toHaveAttribute('aria-label', /Crítica · 2 alarmas/);
    await page.getByRole('link', { name: 'Mapa', exact: true }).first().click();
    // The marker counts every alarm of the site's devices waiting for an acknowledgement (a simulated tank may have its own).
    await expect(page.getByTestId(`site-marker-${SITE.id}`)).toContainText(/Crítica · \d+ alarmas/);
    await expect(page.getByTestId(`site-marker-${SITE.id}`).locator('[data-priority="1"]')).toBeVisible();
  });

  test('guardar sobre una versión ajena avisa y carga la nueva; un fondo de más de 2 MB se rechaza', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto(`/sites/${SITE.id}/edit`);
    const read = await synoptic();
    await expect(page.getByText(`Sobre la versión ${read.version}.`)).toBeVisible();
    await page.getByTestId('synoptic-svg-input').setInputFiles({ name: 'enorme.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(2 * 1024 * 1024)}</svg>`) });
    await expect(page.getByText('El fondo SVG supera los 2 MB.')).toBeVisible();

    // Someone else saves meanwhile.
    const res = await api.put(`/api/v1/sites/${SITE.id}/synoptic`, { data: { baseVersion: read.version, width: read.width, height: read.height, background: read.background, items: read.items } });
    expect(res.status(), await res.text()).toBe(201);
    // The live socket says so; the editor keeps the drawing under way (its edits are not thrown away).
    await page.getByRole('button', { name: 'Etiqueta', exact: true }).click();
    await expect(page.getByTestId('synoptic-newer')).toContainText(`guardó la versión ${read.version + 1} mientras usted edita`);
    await expect(page.getByText(`Sobre la versión ${read.version}.`)).toBeVisible();
    await page.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Otra persona guardó una versión más reciente' })).toBeVisible();
    await expect(page.getByText(`Sobre la versión ${read.version + 1}.`)).toBeVisible();
    await expect(page.getByTestId('synoptic-newer')).toHaveCount(0);
    expect((await synoptic()).version).toBe(read.version + 1);
  });

  test('una orden a la compuerta desde el sinóptico pasa por la misma confirmación', async ({ page }) => {
    // The other site's drawing holds the simulated gate (set through the API: the editor is the test above).
    const now = await synoptic(OTHER_SITE.id);
    const item = { id: 'e2e_gate', symbol: 'gate', deviceId: LIVE_GATE.id, x: 100, y: 100, w: 200, h: 160, label: '', rotation: 0 };
    const res = await api.put(`/api/v1/sites/${OTHER_SITE.id}/synoptic`, { data: { baseVersion: now.version, width: 1200, height: 800, background: { kind: 'grid' }, items: [item] } });
    expect(res.status(), await res.text()).toBe(201);

    const { action, label } = await restingGate(LIVE_GATE.id);
    await signIn(page, 'operator');
    await expectLive(page);
    await page.goto(`/sites/${OTHER_SITE.id}`);
    const symbol = page.getByTestId('synoptic-drawing').locator(`[data-device-id="${LIVE_GATE.id}"]`);
    await expect(symbol).toHaveAttribute('role', 'button');
    await expect(symbol).toHaveAttribute('aria-label', new RegExp(`^${LIVE_GATE.name}: (Abierta|Cerrada), `));
    await symbol.click();
    const panel = page.getByTestId('synoptic-device-dialog');
    await expect(panel).toContainText('Panel de Control');
    await panel.getByRole('button', { name: label, exact: true }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(`¿${label} la compuerta ${LIVE_GATE.name}?`);
    await confirm.getByRole('button', { name: `${label} compuerta`, exact: true }).click();
    await expect(confirm).toBeHidden();
    await expectToastBehindModal(page, 'Comando Ejecutado', `Comando "${action}" enviado exitosamente`);
    // Its travel, on the drawing too, once the panel is closed.
    await panel.getByRole('button', { name: 'Cerrar panel' }).click();
    await expect(panel).toBeHidden();
    await expect(symbol).toHaveAttribute('aria-label', new RegExp(`^${LIVE_GATE.name}: (Abriendo|Cerrando|Abierta|Cerrada)`));
    await restingGate(LIVE_GATE.id);
  });

  test('en un teléfono el sinóptico es una lista ordenada sin desplazamiento lateral; axe limpio a 390 y 1440, claro y oscuro', async ({ page }) => {
    test.setTimeout(90_000);
    // A drawing as an engineer would make it (for the screenshots in docs/screens).
    const now = await synoptic();
    const res = await api.put(`/api/v1/sites/${SITE.id}/synoptic`, { data: { baseVersion: now.version, ...SHOWCASE } });
    expect(res.status(), await res.text()).toBe(201);
    await signIn(page, 'admin');
    await expectLive(page);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto('/map');
        await expect(page.getByTestId(`site-marker-${SITE.id}`)).toBeVisible();
        if (width === 390) {
          const list = (await page.getByRole('heading', { name: 'Sitios' }).boundingBox())!;
          const map = (await page.getByTestId('site-map').boundingBox())!;
          expect(list.y).toBeLessThan(map.y);
        }
        await noSidewaysScroll(page);
        if (scheme === 'light') await expectNoCoveredControls(page, `/map ${width}`);
        expect(await seriousViolations(page), `/map ${width} ${scheme}`).toEqual([]);
        await shot(page, `map-${width}-${scheme}`);

        await page.goto(`/sites/${SITE.id}`);
        if (width === 390) {
          const list = page.getByTestId('synoptic-list');
          await expect(list.getByRole('button', { name: new RegExp(`^${TANK.name}: \\d+,\\d{2} m · \\d+ %`) })).toBeVisible();
          await expect(list.getByRole('button', { name: new RegExp(`^${GATE.name}: .*Desconectado`) })).toBeVisible();
          await expect(list).toContainText('Depósito norte');
        } else {
          await expect(page.getByTestId('synoptic-drawing').getByRole('button', { name: new RegExp(`^${TANK.name}: `) })).toBeVisible();
        }
        await noSidewaysScroll(page);
        if (scheme === 'light') await expectNoCoveredControls(page, `/sites ${width}`);
        expect(await seriousViolations(page), `/sites ${width} ${scheme}`).toEqual([]);
        await shot(page, `site-${width}-${scheme}`, width === 390);
      }
    }
  });

  test('sitios anidados: el superior en el formulario, el bucle rechazado, los hijos sangrados en la lista; versiones vistas y restauradas; eliminar', async ({ page }) => {
    const tag = Date.now().toString(36);
    const parentName = `Cuenca E2E ${tag}`;
    const childName = `Estación E2E ${tag}`;
    const parentId = await makeSite(parentName);
    const childId = await makeSite(childName);
    await saveLabel(childId, 0, 'Primer dibujo');
    await saveLabel(childId, 1, 'Segundo dibujo');

    await signIn(page, 'admin');
    await page.goto(`/sites/${childId}`);
    // Nesting: the child put inside the parent through 'Datos del sitio'.
    await page.getByRole('button', { name: 'Datos del sitio' }).click();
    const form = page.getByTestId('site-form-dialog');
    await form.getByLabel('Sitio superior').selectOption({ label: parentName });
    await form.getByRole('button', { name: 'Guardar' }).click();
    await expectToast(page, 'Sitio actualizado');
    await expect(form).toBeHidden();
    await expect(page.getByTestId('site-parent')).toHaveText(parentName);

    // The versions, newest first, 'Sistema' or the person; the first one viewed read-only and restored.
    const versions = page.getByTestId('synoptic-versions');
    await expect(versions.getByTestId('synoptic-version-2')).toContainText('Actual');
    await expect(versions.getByTestId('synoptic-version-1')).toContainText(ACCOUNTS.admin.name);
    await expect(page.getByTestId('synoptic-drawing')).toContainText('Segundo dibujo');
    await versions.getByRole('link', { name: 'Ver la versión 1' }).click();
    await expect(page).toHaveURL(/\?version=1$/);
    await expect(page.getByTestId('synoptic-old-version')).toContainText('Está viendo la versión 1');
    await expect(page.getByTestId('synoptic-drawing')).toContainText('Primer dibujo');
    await page.getByTestId('synoptic-old-version').getByRole('button', { name: 'Restaurar la versión 1' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Restaurar', exact: true }).click();
    await expectToast(page, 'Versión 1 restaurada', 'Guardada como versión 3.');
    await expect(page).not.toHaveURL(/version=/);
    await expect(page.getByTestId('synoptic-drawing')).toContainText('Primer dibujo');
    await expect(versions.getByTestId('synoptic-version-3')).toContainText('Actual');
    expect((await synoptic(childId)).items[0]).toMatchObject({ label: 'Primer dibujo' });

    // The parent's page links its child; 'Mapa' lists the child under it.
    await page.getByTestId('site-parent').click();
    await expect(page.getByRole('heading', { level: 1, name: parentName })).toBeVisible();
    await expect(page.getByTestId('site-children').getByRole('link', { name: childName })).toBeVisible();
    // A loop is refused by the server, on the field.
    await page.getByRole('button', { name: 'Datos del sitio' }).click();
    await form.getByLabel('Sitio superior').selectOption({ label: childName });
    await form.getByRole('button', { name: 'Guardar' }).click();
    await expect(form.getByText('Un sitio no puede estar dentro de uno de sus propios sitios.')).toBeVisible();
    await expect(form.getByLabel('Sitio superior')).toBeFocused();
    // A site with a site inside it is not deleted: the server's 409 says why.
    await form.getByRole('button', { name: 'Eliminar sitio' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Sus dispositivos se conservan pero dejan de pertenecer al sitio');
    await confirm.getByRole('button', { name: 'Eliminar sitio' }).click();
    await expect(form.getByRole('alert').filter({ hasText: 'El sitio tiene sitios dentro' })).toBeVisible();
    await form.getByRole('button', { name: 'Cancelar' }).click();
    await page.getByRole('link', { name: 'Mapa', exact: true }).first().click();
    await expect(page.getByTestId(`site-children-${parentId}`).getByRole('link', { name: new RegExp(childName) })).toBeVisible();

    // The child deleted from its page: back on 'Mapa', gone from the list; the parent then goes too.
    await page.getByTestId(`site-row-${childId}`).click();
    await page.getByRole('button', { name: 'Datos del sitio' }).click();
    await form.getByRole('button', { name: 'Eliminar sitio' }).click();
    await confirm.getByRole('button', { name: 'Eliminar sitio' }).click();
    await expectToast(page, 'Sitio eliminado', childName);
    await expect(page).toHaveURL(/\/map$/);
    await expect(page.getByTestId(`site-row-${childId}`)).toHaveCount(0);
    await expect(page.getByTestId(`site-row-${parentId}`)).toBeVisible();
    expect((await api.get(`/api/v1/sites/${childId}`)).status()).toBe(404);
  });

  test("el historial de alarmas tiene el mismo filtro 'Sitio' y lo pide al servidor", async ({ page }) => {
    await signIn(page, 'viewer');
    await page.goto(`/alarms?siteId=${SITE.id}`);
    const asked = page.waitForRequest((r) => r.url().includes('/api/v1/alarms?') && new URL(r.url()).searchParams.has('limit'));
    await page.getByRole('tab', { name: 'Historial' }).click();
    expect(new URL((await asked).url()).searchParams.get('siteId')).toBe(SITE.id);
    await expect(page.getByLabel('Sitio', { exact: true })).toHaveValue(SITE.id);
    // The devices offered are the site's.
    const device = page.getByLabel('Dispositivo', { exact: true });
    await expect(device.locator('option', { hasText: TANK.name })).toHaveCount(1);
    await expect(device.locator('option', { hasText: DEVICES.nivel01.name })).toHaveCount(0);
    const other = page.waitForRequest((r) => r.url().includes('/api/v1/alarms?') && new URL(r.url()).searchParams.get('siteId') === OTHER_SITE.id);
    await page.getByLabel('Sitio', { exact: true }).selectOption({ label: OTHER_SITE.name });
    await other;
    await expect(page).toHaveURL(new RegExp(`\\?siteId=${OTHER_SITE.id}$`));
  });

  test('en un teléfono un dedo desplaza la página y dos mueven el mapa', async ({ browser }) => {
    // Touch emulated: the primary pointer is a finger (`pointer: coarse`).
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: 'es-ES' });
    const page = await context.newPage();
    try {
      await signIn(page, 'viewer');
      await page.goto('/map');
      const map = page.getByTestId('site-map');
      await expect(page.getByTestId(`site-marker-${SITE.id}`)).toBeVisible();
      await expect(map).toHaveAttribute('data-pan', 'two-fingers');
      await expect(map).not.toHaveClass(/leaflet-touch-drag/);
      // One finger moving over the map scrolls the page and says how to move the map.
      await map.scrollIntoViewIfNeeded();
      const box = (await map.boundingBox())!;
      const cdp = await context.newCDPSession(page);
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      const scrolled = await page.evaluate(() => window.scrollY);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
      for (let i = 1; i <= 5; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y - i * 30 }] });
      await expect(page.getByTestId('map-two-fingers')).toHaveAttribute('data-shown', 'true');
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled);
      // Two fingers moving together move the map (its markers follow them), not the page.
      const marker = page.getByTestId(`site-marker-${SITE.id}`);
      const at = (await map.boundingBox())!;
      const from = (await marker.boundingBox())!;
      const top = await page.evaluate(() => window.scrollY);
      const [cx, cy] = [at.x + at.width / 2, at.y + at.height / 2];
      const fingers = (dx: number) => [
        { x: cx - 40 + dx, y: cy, id: 0 },
        { x: cx + 40 + dx, y: cy, id: 1 },
      ];
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(0) });
      for (let i = 1; i <= 5; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(i * 12) });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await expect.poll(async () => (await marker.boundingBox())!.x - from.x).toBeGreaterThan(30);
      expect(await page.evaluate(() => window.scrollY)).toBe(top);
    } finally {
      await context.close();
    }
  });

  test('un dispositivo que ya no existe se lee «Dispositivo eliminado»', async ({ page }) => {
    await purgeDevice(OWN.id);
    await signIn(page, 'viewer');
    await page.goto(`/sites/${SITE.id}`);
    await expect(page.getByTestId('synoptic-drawing')).toContainText('Dispositivo eliminado');
  });
});
