import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { adminApi } from './support/api';
import { menuLinks, signIn } from './support/auth';
import { expectToast } from './support/toast';

// Report definitions of their own, named so that the clean-up finds them whatever happened.
const PREFIX = 'E2E informe';

interface ReportSummary {
  id: string;
  name: string;
}
interface RunSummary {
  id: string;
  status: string;
  from: string;
  to: string;
}

/** Deletes every definition this spec made (idempotent: 'already gone' is fine). */
async function deleteOwnReports(): Promise<void> {
  const api = await adminApi();
  try {
    const res = await api.get('/api/v1/reports');
    if (!res.ok()) return;
    for (const r of ((await res.json()) as { items: ReportSummary[] }).items.filter((x) => x.name.startsWith(PREFIX))) {
      const del = await api.delete(`/api/v1/reports/${encodeURIComponent(r.id)}`);
      if (![204, 200, 404].includes(del.status())) throw new Error(`delete report ${r.name}: ${del.status()} ${await del.text()}`);
    }
  } finally {
    await api.dispose();
  }
}

async function reportByName(name: string): Promise<ReportSummary> {
  const api = await adminApi();
  try {
    const items = ((await (await api.get('/api/v1/reports')).json()) as { items: ReportSummary[] }).items;
    const found = items.find((r) => r.name === name);
    if (!found) throw new Error(`report ${name} not found`);
    return found;
  } finally {
    await api.dispose();
  }
}

/** The report's newest run as the API lists it, once there is one. */
async function newestRun(reportId: string): Promise<RunSummary> {
  const api = await adminApi();
  try {
    let run: RunSummary | undefined;
    await expect
      .poll(async () => {
        run = ((await (await api.get('/api/v1/report-runs', { params: { reportId } })).json()) as { items: RunSummary[] }).items[0];
        return run !== undefined;
      })
      .toBe(true);
    return run!;
  } finally {
    await api.dispose();
  }
}

async function openReports(page: Page): Promise<void> {
  await menuLinks(page).filter({ hasText: /^Informes$/ }).click();
  await expect(page).toHaveURL(/\/reports$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Informes', exact: true })).toBeVisible();
}

/** A local day of the browser (Europe/Madrid in this suite), `addDays` from today, as YYYY-MM-DD. */
async function browserDay(page: Page, addDays: number): Promise<string> {
  return page.evaluate((n) => {
    const now = new Date();
    const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + n);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  }, addDays);
}

const dayText = (day: string) => day.split('-').reverse().join('/');
/** A definition's card. */
const definition = (page: Page, name: string) => page.getByRole('list', { name: 'Informes definidos' }).getByRole('listitem').filter({ hasText: name });
/** The run's row in whichever layout the width shows (a table on wide screens, cards on phones). */
const runRow = (page: Page, id: string) => page.getByTestId(`report-run-${id}`).filter({ visible: true });

test.describe('Informes', () => {
  test.afterEach(deleteOwnReports);

  test('el administrador define un informe diario, lo genera para un día pasado y descarga el Excel cuando está listo', async ({ page }) => {
    test.setTimeout(120_000);
    const name = `${PREFIX} diario ${Date.now()}`;
    await signIn(page, 'admin');
    await openReports(page);

    // The form: the client-side check first, then a daily on-demand report in Excel only.
    await page.getByRole('button', { name: 'Nuevo informe', exact: true }).click();
    const form = page.getByTestId('report-form-dialog');
    await expect(form.getByRole('heading', { name: 'Nuevo informe' })).toBeVisible();
    await form.getByRole('button', { name: 'Crear informe', exact: true }).click();
    await expect(form.getByText('Indique un nombre.', { exact: true })).toBeVisible();
    await expect(form.getByLabel('Nombre', { exact: true })).toBeFocused();
    await form.getByLabel('Nombre', { exact: true }).fill(name);
    await expect(form.getByLabel('Tipo', { exact: true })).toHaveValue('daily');
    await form.getByRole('checkbox', { name: 'PDF', exact: true }).uncheck();
    await form.getByRole('radio', { name: 'Solo bajo demanda', exact: true }).check();
    await form.getByRole('button', { name: 'Crear informe', exact: true }).click();
    await expectToast(page, 'Informe creado', name);
    await expect(form).toBeHidden();

    const card = definition(page, name);
    await expect(card).toContainText('Diario');
    await expect(card).toContainText('Solo bajo demanda');
    await expect(card).toContainText('Todos');
    await expect(card).toContainText('Excel');
    await expect(card.getByTestId('report-enabled')).toHaveText('Activo');
    const report = await reportByName(name);

    // 'Generar ahora' offers yesterday; the test asks for the day before yesterday instead.
    const yesterday = await browserDay(page, -1);
    const day = await browserDay(page, -2);
    await card.getByRole('button', { name: `Generar ahora ${name}`, exact: true }).click();
    const dialog = page.getByTestId('generate-report-dialog');
    await expect(dialog.getByLabel('Desde', { exact: true })).toHaveValue(yesterday);
    await expect(dialog.getByLabel('Hasta', { exact: true })).toHaveValue(yesterday);
    await dialog.getByLabel('Desde', { exact: true }).fill(day);
    await dialog.getByLabel('Hasta', { exact: true }).fill(day);
    await dialog.getByRole('button', { name: 'Generar', exact: true }).click();
    await expect(dialog).toBeHidden();

    const run = await newestRun(report.id);
    expect([run.from, run.to]).toEqual([day, day]);
    const row = runRow(page, run.id);
    await expect(row).toContainText(name);
    await expect(row).toContainText(dayText(day));
    await expect(row).toContainText('María González');
    await expect(row.getByTestId('report-run-status')).toHaveText('Listo', { timeout: 60_000 });
    const excel = row.getByRole('button', { name: /^Excel/ });
    await expect(excel).toBeVisible();
    await expect(row.getByRole('button', { name: /^PDF/ })).toHaveCount(0);
    await expect(row.getByTestId('report-file-sha')).toHaveAttribute('data-sha256', /^[0-9a-f]{64}$/);

    const downloading = page.waitForEvent('download');
    await excel.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const file = await download.path();
    // An .xlsx is a zip: it starts with 'PK'.
    expect(fs.readFileSync(file).subarray(0, 2).toString('latin1')).toBe('PK');

    // The run list's filter keeps this report's runs.
    await page.getByLabel('Informe', { exact: true }).selectOption(report.id);
    await expect(page).toHaveURL(new RegExp(`reportId=${report.id}`));
    await expect(runRow(page, run.id)).toBeVisible();

    // 'Eliminar' asks first.
    await definition(page, name).getByRole('button', { name: `Eliminar ${name}`, exact: true }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm.getByRole('heading', { name: '¿Eliminar informe?' })).toBeVisible();
    await confirm.getByRole('button', { name: 'Eliminar', exact: true }).click();
    await expectToast(page, 'Informe eliminado', name);
    await expect(definition(page, name)).toHaveCount(0);
  });

  test('el observador ve los informes sin «Nuevo informe», «Generar ahora», «Editar» ni «Eliminar»', async ({ page }) => {
    const name = `${PREFIX} observador ${Date.now()}`;
    const api = await adminApi();
    try {
      const res = await api.post('/api/v1/reports', {
        data: { name, kind: 'weekly', deviceIds: null, formats: ['xlsx', 'pdf'], recipients: [], schedule: { time: '07:00', weekday: 1 }, enabled: true },
      });
      expect(res.status(), await res.text()).toBe(201);
    } finally {
      await api.dispose();
    }

    await signIn(page, 'viewer');
    await openReports(page);
    const card = definition(page, name);
    await expect(card).toContainText('Semanal');
    await expect(card).toContainText('Cada lunes a las 07:00');
    await expect(card).toContainText('Excel, PDF');
    await expect(page.getByRole('heading', { name: 'Ejecuciones', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Nuevo informe' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Generar ahora/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^(Editar|Eliminar)/ })).toHaveCount(0);
  });
});
