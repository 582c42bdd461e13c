import fs from 'node:fs';
import type { Download, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { signIn } from './support/auth';
import { DEVICES, expectLive, LEVEL_TEXT, SIM_TIMEOUT } from './support/devices';
import { expectToast } from './support/toast';
import { expectToastBehindModal } from './support/toast-modal';
import { hasOpenpyxl, readWorkbook } from './support/xlsx';

const FILE_NAME = 'Historial_Sensores_Agua.xlsx';
const HEADER = ['Fecha y Hora', 'Valor', 'Unidad', 'Estado'];
/** After the seed's columns, for level sensors with a geometry (docs/water.md "Exports"). */
const WATER_HEADER = ['Volumen (m³)', 'Lectura bruta (m)'];
const ESTADOS = ['Normal', 'Advertencia', 'Crítico', 'Falla'];

/** Opens 'Exportar a Excel' on the dashboard and returns the dialog. */
async function openExportDialog(page: Page) {
  await page.getByRole('button', { name: 'Exportar a Excel', exact: true }).click();
  const dialog = page.getByTestId('export-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Exportar historial' })).toBeVisible();
  return dialog;
}

test.describe('Exportar a Excel', () => {
  test('el observador exporta las últimas 24 h de todos los dispositivos a un xlsx real', async ({ page }, testInfo) => {
    await signIn(page, 'viewer');
    await expectLive(page);
    // At least one stored reading of the residual-water sensor before exporting.
    await expect(page.getByTestId(`reading-${DEVICES.nivel01.id}`)).toHaveText(LEVEL_TEXT, { timeout: SIM_TIMEOUT });

    const dialog = await openExportDialog(page);
    // The defaults: last 24 h, every device ticked.
    await expect(dialog.getByRole('button', { name: '24 h', exact: true })).toHaveAttribute('aria-pressed', 'true');
    const boxes = dialog.getByRole('checkbox');
    await expect(boxes.first()).toBeVisible();
    const count = await boxes.count();
    expect(count).toBeGreaterThanOrEqual(4);
    for (let i = 0; i < count; i++) await expect(boxes.nth(i)).toBeChecked();
    await expect(dialog.getByText(DEVICES.nivel01.name, { exact: true })).toBeVisible();

    const requested = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/v1/export.xlsx');
    const downloaded = page.waitForEvent('download', { timeout: 30_000 });
    const clickedAt = Date.now();
    await dialog.getByRole('button', { name: 'Descargar Excel', exact: true }).click();
    // The defaults as sent: no device filter, the 24 h up to now.
    const params = new URL((await requested).url()).searchParams;
    expect(params.has('deviceIds')).toBe(false);
    const from = Date.parse(params.get('from') ?? '');
    const to = Date.parse(params.get('to') ?? '');
    expect(to - from).toBe(24 * 3600_000);
    expect(Math.abs(to - clickedAt)).toBeLessThan(60_000);
    const download: Download = await downloaded;
    expect(download.suggestedFilename()).toBe(FILE_NAME);
    expect(await download.failure()).toBeNull();

    await expectToast(page, 'Exportación Exitosa', 'Los datos han sido exportados a Excel.');
    await expect(dialog).toBeHidden();

    const file = testInfo.outputPath(FILE_NAME);
    await download.saveAs(file);
    const bytes = fs.readFileSync(file);
    expect(bytes.length, 'workbook size').toBeGreaterThan(1024);
    // An xlsx is a ZIP archive: local file header 'PK\x03\x04'.
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');

    if (!hasOpenpyxl()) {
      const note = 'python3-openpyxl is not installed: the workbook was not read back (CI installs it, see .ci/run).';
      testInfo.annotations.push({ type: 'skipped-check', description: note });
      if (process.env.CI) throw new Error(note);
      return;
    }
    const sheets = readWorkbook(file);
    const sheet = sheets.find((s) => s.name === DEVICES.nivel01.name);
    expect(sheet, `sheets: ${sheets.map((s) => s.name).join(', ')}`).toBeDefined();
    // The demo wet well has a geometry: its volume and what its sensor sent follow the seed's columns.
    expect(sheet!.header).toEqual([...HEADER, ...WATER_HEADER]);
    expect(sheet!.dataRows).toBeGreaterThanOrEqual(1);
    // Typed cells (docs/api.md): an Excel date, a number, 'm', a Spanish status word.
    const [when, value, unit, estado] = sheet!.sample[0]!;
    expect(when![0]).toBe('datetime');
    expect(['float', 'int']).toContain(value![0]);
    expect(unit![1]).toBe('m');
    expect(ESTADOS).toContain(estado![1]);
    // Every sheet starts with the seed's header; only water columns may follow it.
    for (const s of sheets) expect([HEADER, [...HEADER, ...WATER_HEADER]], `header of '${s.name}'`).toContainEqual(s.header);
  });

  test('un rango sin lecturas (un día de 2020) avisa "Sin datos" y no descarga nada', async ({ page }) => {
    await signIn(page, 'viewer');
    const dialog = await openExportDialog(page);
    await dialog.getByRole('button', { name: 'Personalizado', exact: true }).click();
    await expect(dialog.getByRole('button', { name: 'Personalizado', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await dialog.getByLabel('Desde', { exact: true }).fill('2020-03-10T00:00');
    await dialog.getByLabel('Hasta', { exact: true }).fill('2020-03-11T00:00');

    let downloads = 0;
    page.on('download', () => downloads++);
    const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/v1/export.xlsx');
    await dialog.getByRole('button', { name: 'Descargar Excel', exact: true }).click();
    const res = await answered;
    expect(res.status()).toBe(404);

    // The dialog stays open, so the toast shows over it (its region is then aria-hidden: see the helper).
    await expectToastBehindModal(page, 'Sin datos', 'No hay lecturas para exportar en ese rango.');
    // The dialog stays open so that another range can be chosen; nothing was saved.
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Descargar Excel', exact: true })).toBeEnabled();
    expect(downloads).toBe(0);
  });
});
