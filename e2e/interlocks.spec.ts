import type { Browser, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { baseURL } from './support/api';
import { ACCOUNTS, signIn } from './support/auth';
import { controlPanel, deviceCard, DEVICES, expectLive, selectDevice, SIM_TIMEOUT } from './support/devices';
import { bypassInterlock, clearInterlocks, createInterlock, endBypass, getGate, permitNotes, restingGate } from './support/interlocks';
import { ownTank, reportLevel } from './support/own-tank';
import { expectToast } from './support/toast';

const GATE = DEVICES.compuerta01;
const TANK = DEVICES.nivel02;
/** A condition that never holds: the demo gate never reports a fault (SIMULATOR_GATE_FAULTS=false). */
const NEVER = { kind: 'gate_state', deviceId: GATE.id, in: ['falla'] };

/** A second person in a browser of their own (the same locale and time zone as the suite's). */
async function otherPerson(browser: Browser, role: 'admin' | 'viewer'): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'es-ES', timezoneId: 'Europe/Madrid' });
  const page = await context.newPage();
  await signIn(page, role);
  await expectLive(page);
  return page;
}

/** The installation's HH:MM of a moment, as the bypass banner writes it (GET /config names the zone). */
async function installationClock(page: Page, iso: string): Promise<string> {
  const { timezone } = (await (await page.request.get('/api/v1/config')).json()) as { timezone?: string };
  return new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...(timezone ? { timeZone: timezone } : {}) }).format(new Date(iso));
}

test.describe('Enclavamientos delante de los comandos', () => {
  test.setTimeout(90_000);
  test.beforeEach(clearInterlocks);
  test.afterEach(clearInterlocks);

  test("un 'Abrir' bloqueado está desactivado con su motivo escrito; 'Detener' nunca; al quitar el enclavamiento vuelve", async ({ page }) => {
    const interlock = await createInterlock({
      deviceId: GATE.id,
      command: 'abrir',
      name: 'Tanque limpio imposible',
      mode: 'block',
      conditions: [{ kind: 'level', deviceId: TANK.id, op: '>', valueM: 1000 }],
    });
    const reason = new RegExp(`^Bloqueado: ${TANK.name} (en nivel bajo \\(\\d+,\\d{2} m ≤ 1000,00 m\\)|sin lectura válida reciente)$`);

    await signIn(page, 'operator');
    await expectLive(page);
    const card = deviceCard(page, GATE.id);
    const abrir = card.getByRole('button', { name: 'Abrir', exact: true });
    await expect(abrir).toBeDisabled({ timeout: SIM_TIMEOUT });
    const notes = permitNotes(card, GATE.id, 'abrir');
    await expect(notes).toContainText('Abrir bloqueado');
    await expect(notes.getByRole('listitem')).toHaveText(reason);
    // The reason is the button's description too, not only text beside it.
    await expect(abrir).toHaveAccessibleDescription(/Bloqueado: Sensor Nivel Agua Limpia/);
    await expect(card.getByRole('button', { name: 'Cerrar', exact: true })).toBeEnabled();

    // The device panel says the same; 'Detener' is never blocked.
    const panel = await selectDevice(page, GATE);
    await expect(panel.getByRole('button', { name: 'Abrir', exact: true })).toBeDisabled();
    await expect(permitNotes(panel, GATE.id, 'abrir').getByRole('listitem')).toHaveText(reason);
    await expect(panel.getByRole('button', { name: 'Detener', exact: true })).toBeEnabled();

    // The interlock goes (a live frame): the button comes back without a reload.
    const api = page.request;
    expect((await api.get(`/api/v1/interlocks/${interlock.id}`)).status()).toBe(200);
    await clearInterlocks();
    await expect(panel.getByRole('button', { name: 'Abrir', exact: true })).toBeEnabled();
    await expect(permitNotes(panel, GATE.id, 'abrir')).toHaveCount(0);
  });

  test('un enclavamiento de comentario pide el «Comentario» en la confirmación, y el comando sale con él', async ({ page }) => {
    const { action, label } = await restingGate(GATE.id);
    await createInterlock({ deviceId: GATE.id, command: action, name: 'Motivo obligatorio', mode: 'confirm', conditions: [NEVER] });

    await signIn(page, 'operator');
    await expectLive(page);
    const card = deviceCard(page, GATE.id);
    await expect(permitNotes(card, GATE.id, action)).toContainText(`Requiere comentario: ${GATE.name}`, { timeout: SIM_TIMEOUT });
    await card.getByRole('button', { name: label, exact: true }).click();

    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText(`¿${label} la compuerta ${GATE.name}?`);
    await expect(dialog.getByTestId('command-dialog-reasons')).toContainText(`Requiere comentario: ${GATE.name}`);
    const comment = dialog.getByLabel('Comentario');
    await expect(comment).toBeFocused();
    await dialog.getByRole('button', { name: `${label} compuerta`, exact: true }).click();
    await expect(dialog).toContainText('Escriba un comentario');
    await comment.fill('Maniobra de prueba e2e');
    await dialog.getByRole('button', { name: `${label} compuerta`, exact: true }).click();
    await expect(dialog).toBeHidden();
    await expectToast(page, 'Comando Enviado', `Comando "${action}" enviado exitosamente`);
    await expect.poll(async () => (await getGate(GATE.id)).lastCommand?.comment).toBe('Maniobra de prueba e2e');
  });

  test('un enclavamiento de contraseña rechaza una equivocada sin perder el comentario y acepta la buena', async ({ page }) => {
    const { action, label } = await restingGate(GATE.id);
    await createInterlock({ deviceId: GATE.id, command: action, name: 'Motivo', mode: 'confirm', conditions: [NEVER] });
    await createInterlock({ deviceId: GATE.id, command: action, name: 'Contraseña de nuevo', mode: 'reauth', conditions: [NEVER] });

    await signIn(page, 'operator');
    await expectLive(page);
    const panel = await selectDevice(page, GATE);
    await expect(permitNotes(panel, GATE.id, action)).toContainText('Requiere contraseña', { timeout: SIM_TIMEOUT });
    await panel.getByRole('button', { name: label, exact: true }).click();

    const dialog = page.getByRole('alertdialog');
    const password = dialog.getByLabel('Contraseña');
    await expect(password).toHaveAttribute('type', 'password');
    await expect(password).toHaveAttribute('autocomplete', 'current-password');
    await dialog.getByLabel('Comentario').fill('Con contraseña');
    await password.fill('no-es-la-buena');
    await dialog.getByRole('button', { name: `${label} compuerta`, exact: true }).click();

    // The server's refusal, in the dialog, beside the password; what was typed stays, but the password.
    await expect(dialog.locator('#command-password-error')).toHaveText('Contraseña incorrecta.');
    await expect(password).toHaveValue('');
    await expect(password).toBeFocused();
    await expect(dialog.getByLabel('Comentario')).toHaveValue('Con contraseña');

    await password.fill(ACCOUNTS.operator.password);
    await dialog.getByRole('button', { name: `${label} compuerta`, exact: true }).click();
    await expect(dialog).toBeHidden();
    await expectToast(page, 'Comando Ejecutado', `Comando "${action}" enviado exitosamente`);
    await expect(controlPanel(page).getByRole('listitem').filter({ hasText: 'Comentario: Con contraseña' }).first()).toBeVisible({ timeout: SIM_TIMEOUT });
  });

  test('un comando de dos personas espera: su autor no puede aprobarlo, otra persona lo aprueba y sale; un observador no ve nada que pulsar', async ({ page, browser }) => {
    const { action, label } = await restingGate(GATE.id);
    await createInterlock({ deviceId: GATE.id, command: action, name: 'Dos personas', mode: 'two_person', conditions: [NEVER] });

    await signIn(page, 'operator');
    await expectLive(page);
    const card = deviceCard(page, GATE.id);
    await expect(permitNotes(card, GATE.id, action)).toContainText('Requiere aprobación', { timeout: SIM_TIMEOUT });
    await card.getByRole('button', { name: label, exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByRole('note')).toContainText('Requiere la aprobación de otra persona');
    await dialog.getByRole('button', { name: `${label} compuerta`, exact: true }).click();
    await expect(dialog).toBeHidden();
    await expectToast(page, 'En espera de aprobación');

    // The issuer sees it waiting, may reject it, never approve it (the server says so too).
    const mine = page.getByTestId('approval-panel');
    await expect(mine.getByRole('heading', { name: 'Aprobación pendiente' })).toBeVisible();
    await expect(mine).toContainText(`${label} · ${GATE.name}`);
    await expect(mine).toContainText('Solicitado por usted');
    await expect(mine).toContainText(/caduca en \d+:\d{2}/);
    await expect(mine.getByRole('button', { name: /^Rechazar / })).toBeVisible();
    await expect(mine.getByRole('button', { name: /^Aprobar / })).toHaveCount(0);
    const waiting = await getGate(GATE.id);
    expect(waiting.lastCommand?.status).toBe('awaiting_approval');
    const self = await page.request.post(`/api/v1/commands/${waiting.lastCommand!.id}/approve`, { data: {} });
    expect(self.status()).toBe(403);
    expect(((await self.json()) as { code: string }).code).toBe('SELF_APPROVAL');

    // A viewer sees nothing to click.
    const viewer = await otherPerson(browser, 'viewer');
    await expect(viewer.getByTestId('approval-panel')).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: /^Aprobar / })).toHaveCount(0);
    await viewer.context().close();

    // Another person approves it in their own browser: the command goes, and leaves both lists.
    const admin = await otherPerson(browser, 'admin');
    const theirs = admin.getByTestId('approval-panel');
    await expect(theirs).toContainText(`Solicitado por ${ACCOUNTS.operator.name}`);
    await theirs.getByRole('button', { name: `Aprobar ${label} en ${GATE.name}` }).click();
    const decision = admin.getByRole('alertdialog');
    await expect(decision).toContainText(`¿Aprobar «${label}» en ${GATE.name}?`);
    await decision.getByRole('button', { name: `Aprobar «${label}»` }).click();
    await expectToast(admin, 'Comando aprobado');
    await expect(theirs).toHaveCount(0);
    await expect(mine).toHaveCount(0);
    await expect.poll(async () => (await getGate(GATE.id)).lastCommand?.approvedBy?.username).toBe('admin');
    await admin.context().close();
  });
});

test.describe('El permiso de un comando sigue a las lecturas', () => {
  const TANK_OWN = ownTank('e2e_tanque_permiso', 'Tanque Permiso E2E');
  test.beforeEach(clearInterlocks);
  test.afterEach(clearInterlocks);

  test("'Abrir' se bloquea y se libera solo cuando cambia el nivel del tanque del que depende", async ({ page }) => {
    await reportLevel(page.request, TANK_OWN, 4);
    await createInterlock({ deviceId: GATE.id, command: 'abrir', name: 'Tanque propio con sitio', mode: 'block', conditions: [{ kind: 'level', deviceId: TANK_OWN.id, op: '<', valueM: 3 }] });
    await signIn(page, 'operator');
    await expectLive(page);
    const card = deviceCard(page, GATE.id);
    const abrir = card.getByRole('button', { name: 'Abrir', exact: true });
    await expect(abrir).toBeDisabled({ timeout: SIM_TIMEOUT });
    await expect(permitNotes(card, GATE.id, 'abrir').getByRole('listitem')).toHaveText(`Bloqueado: ${TANK_OWN.name} en nivel alto (4,00 m ≥ 3,00 m)`);
    // A reading of the tank (a live frame) asks the check again: no reload, no fast polling.
    await reportLevel(page.request, TANK_OWN, 2);
    await expect(abrir).toBeEnabled({ timeout: SIM_TIMEOUT });
    await expect(permitNotes(card, GATE.id, 'abrir')).toHaveCount(0);
    await reportLevel(page.request, TANK_OWN, 3.5);
    await expect(abrir).toBeDisabled({ timeout: SIM_TIMEOUT });
  });
});

test.describe('Aviso de enclavamiento anulado', () => {
  test.setTimeout(150_000);
  test.beforeEach(clearInterlocks);
  test.afterEach(clearInterlocks);

  test('un observador ve «Enclavamiento anulado hasta HH:MM»; se va al terminar la anulación, y a su hora aunque no llegue ningún aviso', async ({ page }) => {
    // The live socket passes through the test: once asked, the frames of a bypass ending are held back.
    let holdEnds = false;
    let held = 0;
    await page.routeWebSocket(/\/api\/v1\/live$/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((message) => {
        if (holdEnds && typeof message === 'string' && message.includes('"interlock.updated"') && (JSON.parse(message) as { data: { bypass: unknown } }).data.bypass === null) {
          held += 1;
          return;
        }
        ws.send(message);
      });
      ws.onMessage((message) => server.send(message));
    });

    const interlock = await createInterlock({ deviceId: GATE.id, command: 'abrir', name: 'Aguas abajo libres', mode: 'block', conditions: [NEVER] });
    const bypassed = await bypassInterlock(interlock.id, 30, 'Limpieza del canal');
    // The browser's clock runs as usual until the test moves it on (below), instead of waiting a real minute.
    await page.clock.install();
    await signIn(page, 'viewer');
    await expectLive(page);
    const banner = page.getByTestId('bypass-banner');
    await expect(banner).toContainText(`Enclavamiento anulado hasta ${await installationClock(page, bypassed.bypass!.until)}`);
    await expect(banner).toContainText(`«Aguas abajo libres» (${GATE.name} · Abrir)`);
    await expect(banner).toContainText('Limpieza del canal');
    // On every screen.
    await page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Alarmas' }).click();
    await expect(banner).toBeVisible();
    await endBypass(interlock.id);
    await expect(banner).toHaveCount(0);

    // A bypass of one minute whose end is never announced: the banner leaves at its time anyway.
    // The browser's clock is moved past it; on the server the minute has not passed, so no end
    // frame exists yet (and any would be held back): the screen decides alone.
    holdEnds = true;
    const short = await bypassInterlock(interlock.id, 1, 'Un minuto');
    await expect(banner).toContainText(`Enclavamiento anulado hasta ${await installationClock(page, short.bypass!.until)}`);
    await page.clock.fastForward(Date.parse(short.bypass!.until) - Date.now() + 1_000);
    await expect(banner).toHaveCount(0);
    // Live again (the jump looked like a silent link: a new hello, which still lists the bypass): still gone.
    await expectLive(page);
    await expect(banner).toHaveCount(0);
    expect(held).toBe(0);
  });
});
