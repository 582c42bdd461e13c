import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { adminApi, createDevice } from './support/api';
import { signIn } from './support/auth';
import { purgeDevice } from './support/cleanup';
import { controlPanel, DEVICES, expectLive, selectDevice } from './support/devices';
import { expectNoCoveredControls, settleTransitions } from './support/layout';
import { expectToast } from './support/toast';
import { expectToastBehindModal } from './support/toast-modal';

/**
 * Gate schedules in the device panel ('Programación', docs/control.md "Gate schedules").
 *
 * Times: the suite's browser runs in Europe/Madrid while the server keeps its machine's zone, so a
 * time shown in the browser's zone would differ from the schedule's own 'HH:MM' (unless the
 * machine is in Madrid too). The UI's schedules are set 12 h from now, so none runs during the
 * suite and moves the demo gate under another journey.
 *
 * The live run: deterministic with a gate of this spec's own that never reports (always offline):
 * a schedule for it at the next minute is due within ~70 s and its run is `skipped` ('Omitida'),
 * 'El dispositivo no está en línea.' — nothing depends on the simulator or the gate's journey.
 */

const GATE = DEVICES.compuerta01;
const PREFIX = 'E2E prog';

interface ScheduleBody {
  id: string;
  deviceId: string;
  name: string;
  time: string;
  nextRunAt: string | null;
  timezone: string;
}

async function asAdmin<T>(run: (api: APIRequestContext) => Promise<T>): Promise<T> {
  const api = await adminApi();
  try {
    return await run(api);
  } finally {
    await api.dispose();
  }
}

/** The installation's zone (GET /config). */
const installationZone = () => asAdmin(async (api) => ((await (await api.get('/api/v1/config')).json()) as { timezone: string }).timezone);

/** 'YYYY-MM-DD' of an instant in a zone. */
function dayIn(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
}

/** How the panel says when a run is: 'hoy HH:MM', 'mañana HH:MM', else its weekday and date. */
function whenText(ms: number, timeZone: string, nowMs: number): RegExp {
  const day = dayIn(ms, timeZone);
  const word = day === dayIn(nowMs, timeZone) ? 'hoy' : day === dayIn(nowMs + 86_400_000, timeZone) ? 'mañana' : '(lun|mar|mié|jue|vie|sáb|dom) \\d\\d/\\d\\d';
  return new RegExp(`^${word} ${clockIn(ms, timeZone)}$`);
}

/** 'HH:MM' of an instant in a zone. */
function clockIn(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return `${parts.hour}:${parts.minute}`;
}

const createSchedule = (data: Record<string, unknown>) =>
  asAdmin(async (api) => {
    const res = await api.post('/api/v1/schedules', { data });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as ScheduleBody;
  });

const schedulesOf = (deviceId: string) => asAdmin(async (api) => (await (await api.get('/api/v1/schedules', { params: { deviceId } })).json()) as ScheduleBody[]);

/** Deletes every schedule of the demo gate this spec made (idempotent). */
async function deleteOwnSchedules(): Promise<void> {
  await asAdmin(async (api) => {
    const list = (await (await api.get('/api/v1/schedules', { params: { deviceId: GATE.id } })).json()) as ScheduleBody[];
    for (const s of list.filter((x) => x.name.startsWith(PREFIX))) {
      const res = await api.delete(`/api/v1/schedules/${s.id}`);
      if (![204, 404].includes(res.status())) throw new Error(`delete schedule ${s.name}: ${res.status()}`);
    }
  });
}

/** The 'Programación' section of the selected gate's panel. */
function schedulesSection(page: Page): Locator {
  return page.getByTestId('gate-schedules');
}

function card(page: Page, name: string): Locator {
  return schedulesSection(page).locator('[data-testid^="schedule-sch_"]').filter({ has: page.getByTestId('schedule-name').getByText(name, { exact: true }) });
}

async function seriousViolations(page: Page): Promise<string[]> {
  await settleTransitions(page);
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
}

test.describe('Programación de compuertas', () => {
  test.afterEach(deleteOwnSchedules);

  test('un administrador crea una programación desde el panel: su próxima ejecución y las siguientes, en hora de la instalación', async ({ page }) => {
    const zone = await installationZone();
    const time = clockIn(Date.now() + 12 * 3_600_000, zone);
    const name = `${PREFIX} riego`;

    await signIn(page, 'admin');
    await expectLive(page);
    const panel = await selectDevice(page, GATE);
    const section = schedulesSection(page);
    await expect(panel.getByRole('heading', { name: 'Programación', exact: true })).toBeVisible();
    await expect(section).toContainText(`Horas de la instalación (${zone}).`);

    await section.getByRole('button', { name: 'Nueva programación' }).click();
    const dialog = page.getByTestId('schedule-form-dialog');
    await expect(dialog.getByRole('heading', { name: 'Nueva programación' })).toBeVisible();
    await expect(dialog.getByText('Aparecen al crear la programación.')).toBeVisible();
    await dialog.getByLabel('Hora', { exact: true }).fill(time);
    // The name left empty is 'Abrir HH:MM': the placeholder says so.
    await expect(dialog.getByLabel('Nombre')).toHaveAttribute('placeholder', `Abrir ${time}`);
    await dialog.getByRole('button', { name: 'Laborables' }).click();
    await expect(dialog.getByRole('checkbox', { name: 'Sábado' })).not.toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Lunes' })).toBeChecked();
    await dialog.getByRole('checkbox', { name: 'Sábado' }).click();
    await dialog.getByLabel('Cerrar después de (minutos)').fill('30');
    await dialog.getByLabel('Nombre').fill(name);
    await dialog.getByLabel('Prioridad de la alarma').selectOption('2');
    await dialog.getByRole('button', { name: 'Crear programación' }).click();

    // The dialog stays open (modal): the toast is looked for behind it.
    await expectToastBehindModal(page, 'Programación creada', name);
    // The dialog goes on as the schedule's editor, with the next 10 runs the server plans.
    await expect(dialog.getByRole('heading', { name: 'Editar programación' })).toBeVisible();
    const items = dialog.getByTestId('schedule-preview-item');
    await expect(items).toHaveCount(10);
    const [saved] = (await schedulesOf(GATE.id)).filter((s) => s.name === name);
    expect(saved).toBeDefined();
    const closeAt = clockIn(Date.parse(saved!.nextRunAt!) + 30 * 60_000, zone);
    // Each run at the schedule's own time (the installation's zone, not the browser's), with its close.
    await expect(items.first()).toContainText(new RegExp(`${time} · Abrir`));
    await expect(items.first()).toContainText(`Cierra a la${closeAt.startsWith('01:') ? '' : 's'} ${closeAt}`);
    await expect(dialog.getByTestId('schedule-verdict')).toHaveText('Se ejecutará');
    await dialog.getByRole('button', { name: 'Listo', exact: true }).click();
    await expect(dialog).toBeHidden();

    const created = card(page, name);
    await expect(created.getByTestId('schedule-summary')).toHaveText(`Abrir a la${time.startsWith('01:') ? '' : 's'} ${time} · Lun, Mar, Mié, Jue, Vie, Sáb · y cierra a los 30 min`);
    await expect(created.getByTestId('schedule-state')).toHaveText('Activa');
    await expect(created.getByTestId('schedule-next')).toHaveText(whenText(Date.parse(saved!.nextRunAt!), zone, Date.now()));
    await expect(created.getByTestId('schedule-verdict')).toHaveText('Se ejecutará');

    // Disabled, it has no next run; enabled again, it has.
    await created.getByRole('button', { name: `Desactivar ${name}` }).click();
    await expectToast(page, 'Programación desactivada', name);
    await expect(created.getByTestId('schedule-state')).toHaveText('Desactivada');
    await expect(created.getByTestId('schedule-next')).toHaveText('ninguna');
    await created.getByRole('button', { name: `Activar ${name}` }).click();
    await expect(created.getByTestId('schedule-state')).toHaveText('Activa');

    // Deleted after a confirmation.
    await created.getByRole('button', { name: `Eliminar ${name}` }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('¿Eliminar programación?');
    await confirm.getByRole('button', { name: 'Eliminar', exact: true }).click();
    await expectToast(page, 'Programación eliminada', name);
    await expect(created).toHaveCount(0);
    expect((await schedulesOf(GATE.id)).some((s) => s.name === name)).toBe(false);
  });

  test("el servidor rechaza una programación sin días: su motivo sale en 'Días' y no se crea nada", async ({ page }) => {
    await signIn(page, 'admin');
    await selectDevice(page, GATE);
    const before = (await schedulesOf(GATE.id)).length;
    await schedulesSection(page).getByRole('button', { name: 'Nueva programación' }).click();
    const dialog = page.getByTestId('schedule-form-dialog');
    await dialog.getByLabel('Nombre').fill(`${PREFIX} sin días`);
    // All seven are chosen at first; the form lets them all go and sends that for the server to judge.
    for (const day of ['Lunes', 'Martes', 'Miércoles', 'Jueves', 'Viernes', 'Sábado', 'Domingo']) await dialog.getByRole('checkbox', { name: day }).click();
    await dialog.getByRole('button', { name: 'Crear programación' }).click();

    const error = dialog.locator('#schedule-days-error');
    await expect(error).toHaveText('Uno o más días de la semana, de 1 (lunes) a 7 (domingo), sin repetir.');
    await expect(dialog.getByRole('group', { name: 'Días' })).toHaveAttribute('aria-describedby', /schedule-days-error/);
    await expect(dialog.getByRole('group', { name: 'Días' })).toBeFocused();
    await expect(dialog.getByRole('heading', { name: 'Nueva programación' })).toBeVisible();
    expect((await schedulesOf(GATE.id)).length).toBe(before);

    // Choosing a day clears the message.
    await dialog.getByRole('checkbox', { name: 'Domingo' }).click();
    await expect(error).toHaveCount(0);
  });

  for (const role of ['operator', 'viewer'] as const) {
    test(`${role === 'operator' ? 'un operador' : 'un observador'} ve las programaciones sin poder cambiarlas`, async ({ page }) => {
      const zone = await installationZone();
      const time = clockIn(Date.now() + 12 * 3_600_000, zone);
      const name = `${PREFIX} ${role}`;
      await createSchedule({ deviceId: GATE.id, action: 'cerrar', time, days: [1, 2, 3, 4, 5, 6, 7], name });

      await signIn(page, role);
      await selectDevice(page, GATE);
      const seen = card(page, name);
      await expect(seen.getByTestId('schedule-summary')).toHaveText(`Cerrar a la${time.startsWith('01:') ? '' : 's'} ${time} · Todos los días`);
      await expect(seen.getByTestId('schedule-next')).toContainText(time);
      await expect(seen.getByTestId('schedule-verdict')).toHaveText('Se ejecutará');
      await expect(schedulesSection(page).getByRole('button', { name: 'Nueva programación' })).toHaveCount(0);
      for (const action of ['Editar', 'Desactivar', 'Eliminar']) await expect(seen.getByRole('button', { name: new RegExp(`^${action} `) })).toHaveCount(0);
      // The history is for everyone who reads.
      await seen.getByRole('button', { name: `Últimas ejecuciones de ${name}` }).click();
      await expect(seen.getByText('Aún no se ha ejecutado.')).toBeVisible();
    });
  }

  test.describe('con una compuerta propia que nunca informa (siempre desconectada)', () => {
    let gateId = '';
    test.beforeEach(async () => {
      gateId = `e2e_sched_${Date.now().toString(36)}`;
      await createDevice({ id: gateId, name: 'Compuerta E2E programada', location: 'Prueba', type: 'motorized_gate' });
    });
    test.afterEach(async () => {
      await purgeDevice(gateId);
    });

    test("una ejecución que vence llega en directo al historial: 'Omitida', porque la compuerta no está en línea; la misma hora abre la compuerta del demo, y 'Cerrar' pide 'Tomar control manual'", async ({ page }) => {
      test.setTimeout(200_000);
      const zone = await installationZone();
      // The next minute, or the one after when this one is almost over: the server owes no run
      // planned before the schedule existed.
      const now = Date.now();
      const due = Math.floor(now / 60_000) * 60_000 + (now % 60_000 > 45_000 ? 120_000 : 60_000);
      const schedule = await createSchedule({ deviceId: gateId, action: 'abrir', time: clockIn(due, zone), days: [1, 2, 3, 4, 5, 6, 7], durationMin: 5, name: `${PREFIX} en vivo` });
      expect(Date.parse(schedule.nextRunAt!)).toBe(due);
      // The same minute opens the simulated demo gate for 30 min (one wait for both journeys).
      const manual = await createSchedule({ deviceId: GATE.id, action: 'abrir', time: clockIn(due, zone), days: [1, 2, 3, 4, 5, 6, 7], durationMin: 30, name: `${PREFIX} manual` });

      await signIn(page, 'admin');
      await expectLive(page);
      await page.goto(`/devices?id=${gateId}`);
      const seen = card(page, `${PREFIX} en vivo`);
      // Judged now, the run would not go: the gate is offline (the preview judges only the interlocks).
      await expect(seen.getByTestId('schedule-verdict')).toHaveText('Se omitirá: El dispositivo no está en línea.');
      await expect(seen.getByTestId('schedule-next')).toHaveText(whenText(due, zone, Date.now()));
      await seen.getByRole('button', { name: `Últimas ejecuciones de ${PREFIX} en vivo` }).click();
      await expect(seen.getByText('Aún no se ha ejecutado.')).toBeVisible();

      // No reload: the schedule.run frame brings it (the list is not polled when nothing is pending).
      const run = seen.locator('[data-testid^="schedule-run-"]').first();
      await expect(run).toHaveAttribute('data-status', 'skipped', { timeout: due - Date.now() + 30_000 });
      await expect(run).toContainText('Omitida');
      await expect(run).toContainText('Hora programada');
      await expect(run).toContainText('El dispositivo no está en línea.');
      await expect(run).toContainText(`${clockIn(due, zone)} · Abrir`);
      // A skipped abrir plans no close-after; the next run moved on to tomorrow.
      await expect(seen.getByTestId('schedule-closing')).toHaveCount(0);
      await expect(seen.getByTestId('schedule-next')).toHaveText(whenText(due + 86_400_000, zone, Date.now()));

      // The demo gate took its abrir; its close is planned 30 min after. A person's 'Cerrar' now
      // meets the schedule: 'Tomar control manual' sends it and cancels the planned close.
      type Run = { trigger: string; status: string; commandId: string | null };
      const runs = () => asAdmin(async (api) => ((await (await api.get(`/api/v1/schedules/${manual.id}/runs`)).json()) as { items: Run[] }).items);
      await expect.poll(async () => (await runs()).map((r) => `${r.trigger}:${r.status}`).sort(), { timeout: 30_000 }).toEqual(['duration:pending', 'time:issued']);
      const opened = (await runs()).find((r) => r.trigger === 'time')!;
      await expect.poll(async () => asAdmin(async (api) => ((await (await api.get(`/api/v1/commands/${opened.commandId}`)).json()) as { status: string }).status), { timeout: 20_000 }).toBe('succeeded');
      const panel = await selectDevice(page, GATE);
      await panel.getByRole('button', { name: 'Cerrar', exact: true }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByRole('button', { name: 'Cerrar compuerta', exact: true }).click();
      await expect(dialog).toContainText(`La compuerta sigue la programación «${PREFIX} manual» (cierre a las ${clockIn(due + 30 * 60_000, zone)}).`);
      await dialog.getByRole('button', { name: 'Tomar control manual', exact: true }).click();
      await expect(dialog).toBeHidden();
      await expectToast(page, 'Comando Ejecutado', 'Comando "cerrar" enviado exitosamente');
      await expect.poll(async () => (await runs()).find((r) => r.trigger === 'duration')?.status).toBe('cancelled');
    });

    test('la vista previa dice por qué se omitiría: un enclavamiento que no se cumple', async ({ page }) => {
      const zone = await installationZone();
      const time = clockIn(Date.now() + 12 * 3_600_000, zone);
      const name = `${PREFIX} enclavada`;
      // The demo gate's abrir needs this spec's gate online, which it never is.
      const interlock = await asAdmin(async (api) => {
        const res = await api.post('/api/v1/interlocks', {
          data: { deviceId: GATE.id, command: 'abrir', name: 'E2E prog: compuerta propia en línea', conditions: [{ kind: 'online', deviceId: gateId }], mode: 'block' },
        });
        expect(res.status(), await res.text()).toBe(201);
        return (await res.json()) as { id: string };
      });
      try {
        await createSchedule({ deviceId: GATE.id, action: 'abrir', time, days: [1, 2, 3, 4, 5, 6, 7], name });
        await signIn(page, 'admin');
        await selectDevice(page, GATE);
        const seen = card(page, name);
        await expect(seen.getByTestId('schedule-verdict')).toHaveAttribute('data-verdict', 'skip');
        await expect(seen.getByTestId('schedule-verdict')).toContainText(/^Se omitirá: Bloqueado/);
        await seen.getByRole('button', { name: `Editar ${name}` }).click();
        const dialog = page.getByTestId('schedule-form-dialog');
        await expect(dialog.getByTestId('schedule-preview-item')).toHaveCount(10);
        await expect(dialog.getByTestId('schedule-preview-item').first()).toContainText('Se omitirá');
        await expect(dialog.getByTestId('schedule-verdict')).toContainText(/^Se omitirá: Bloqueado/);
      } finally {
        await asAdmin((api) => api.delete(`/api/v1/interlocks/${interlock.id}`));
      }
    });
  });

  test('diseño a 390 y 1440 px, claro y oscuro: nada tapado y sin infracciones graves de accesibilidad', async ({ page }) => {
    test.setTimeout(180_000);
    const zone = await installationZone();
    const time = clockIn(Date.now() + 12 * 3_600_000, zone);
    await createSchedule({ deviceId: GATE.id, action: 'abrir', time, days: [1, 2, 3, 4, 5], durationMin: 45, name: `${PREFIX} diseño` });
    await createSchedule({ deviceId: GATE.id, action: 'cerrar', time, days: [6, 7], enabled: false, name: `${PREFIX} diseño desactivada` });

    await signIn(page, 'admin');
    await expectLive(page);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const scheme of ['light', 'dark'] as const) {
        const where = `${width} px, ${scheme}`;
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`/devices?id=${GATE.id}`);
        const seen = card(page, `${PREFIX} diseño`);
        await expect(seen.getByTestId('schedule-verdict')).toHaveText('Se ejecutará');
        await seen.getByRole('button', { name: `Últimas ejecuciones de ${PREFIX} diseño` }).click();
        await expect(seen.getByText('Aún no se ha ejecutado.')).toBeVisible();
        // No toast left over a control (the layout guard's way).
        for (const close of await page.getByRole('region', { name: /^Notificación/ }).getByRole('button').all()) await close.click();
        await settleTransitions(page);
        await expectNoCoveredControls(page, `the panel, ${where}`);
        expect(await seriousViolations(page), `the panel, ${where}`).toEqual([]);

        await seen.getByRole('button', { name: `Editar ${PREFIX} diseño` }).click();
        const dialog = page.getByTestId('schedule-form-dialog');
        await expect(dialog.getByTestId('schedule-preview-item')).toHaveCount(10);
        await settleTransitions(page);
        await expectNoCoveredControls(page, `the dialog, ${where}`);
        expect(await seriousViolations(page), `the dialog, ${where}`).toEqual([]);
        await dialog.getByRole('button', { name: 'Listo', exact: true }).click();
        await expect(dialog).toBeHidden();
      }
    }
    await expect(controlPanel(page)).toBeVisible();
  });
});
