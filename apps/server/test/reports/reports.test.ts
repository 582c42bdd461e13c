// docs/reports.md over real HTTP: definitions with their permissions, checks and audit; an
// operator's 'Generar ahora' for a past day of a seeded history with known answers, read back
// with openpyxl (values) and pdftotext (text); the same period generated twice gives the same
// cells and the same text but the 'Generado:' line; the archive's SHA-256.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report, ReportRun } from '@agua/shared';
import { createDevice, expectApiError, jsonOf } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';
import { useTimeZone } from '../helpers/time-zone';
import { sqlRun } from '../helpers/sql';
import { pdfText, waitForRun } from './report-helpers';
import { ensureOpenpyxl, insertReadings, readWorkbook, type XCell, type XSheet } from '../history/history-helpers';

const MIN = 60_000;
const DAY = '2026-11-20';
const DAY_MS = Date.parse(`${DAY}T00:00:00Z`);

const plain = (c: XCell | undefined) => (c === undefined || c.t === 'null' ? null : c.v);
/** A row's values without the empty cells openpyxl pads it with to the sheet's width. */
const rowValues = (sheet: XSheet, i: number) => {
  const values = (sheet.rows[i] ?? []).map(plain);
  while (values.length > 0 && values[values.length - 1] === null) values.pop();
  return values;
};
/** The row index of a table's title in a sheet. */
const titleRow = (sheet: XSheet, title: string) => sheet.rows.findIndex((r) => plain(r[0]) === title && r.slice(1).every((c) => c.t === 'null'));

describe('reports', () => {
  useTimeZone('UTC');
  let s: TestServer;
  let admin: string;
  let operator: string;
  let viewer: string;
  let report: Report;

  beforeAll(async () => {
    ensureOpenpyxl();
    s = await startServer({ TZ: 'UTC', DEVICE_RATE_LIMIT: '0' });
    [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
    await createDevice(s, admin, { id: 'rep_nivel', name: 'Depósito Informe', location: 'Pruebas', type: 'level_sensor', waterType: 'residual', config: { maxLevel: 5 } });
    const geometry = await s.fetch('/api/v1/devices/rep_nivel/geometry', { method: 'PUT', cookie: admin, json: { shape: { kind: 'rectangular', areaM2: 502.65 }, crestLevelM: 4 } });
    expect(geometry.status).toBe(200);
    // A day at 2.000 m, one reading a minute, silent from 10:00 to 11:00 (a gap of 61 min between 09:59 and 11:00).
    const rows = [];
    for (let m = 0; m < 1440; m++) if (m < 600 || m >= 660) rows.push({ deviceId: 'rep_nivel', tsMs: DAY_MS + m * MIN, valueNum: 2 });
    await insertReadings(s, rows);
    // A spill that day, as the overflow events keep it, annotated by an operator.
    await sqlRun(
      s,
      'INSERT INTO overflow_events (id, device_id, started_at_ms, ended_at_ms, last_reading_ms, peak_level_m, volume_m3, method, cause, notified_at_ms, notes, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      'ovf_rep1', 'rep_nivel', DAY_MS + 15 * 60 * MIN, DAY_MS + 16 * 60 * MIN, DAY_MS + 16 * 60 * MIN, 4.25, 1005.3, 'weir', 'Tormenta', null, null, DAY_MS,
    );
  });
  afterAll(async () => s?.close());

  it('definitions: admins define them, 422 for what cannot be, audited; everyone reads them', async () => {
    const body = { name: 'Diario depósitos', kind: 'daily', deviceIds: ['rep_nivel', 'esp32_compuerta_01'], formats: ['xlsx', 'pdf'], recipients: ['ops@example.com'], schedule: { time: '07:00' } };
    await expectApiError(await s.fetch('/api/v1/reports', { method: 'POST', cookie: operator, json: body }), 403);
    await expectApiError(await s.fetch('/api/v1/reports', { method: 'POST', cookie: admin, json: { ...body, kind: 'weekly' } }), 422, 'REPORT_SCHEDULE_INVALID');
    await expectApiError(await s.fetch('/api/v1/reports', { method: 'POST', cookie: admin, json: { ...body, recipients: ['usr_nobody'] } }), 422, 'REPORT_RECIPIENT_UNKNOWN');
    await expectApiError(await s.fetch('/api/v1/reports', { method: 'POST', cookie: admin, json: { ...body, deviceIds: ['nope'] } }), 422, 'DEVICE_NOT_FOUND');
    await expectApiError(await s.fetch('/api/v1/reports', { method: 'POST', cookie: admin, json: { ...body, formats: [] } }), 400);
    await expectApiError(await s.fetch('/api/v1/reports', { method: 'POST', cookie: admin, json: { ...body, schedule: { time: '25:00' } } }), 400);
    const created = await jsonOf<Report>(await s.fetch('/api/v1/reports', { method: 'POST', cookie: admin, json: body }));
    expect(created.status).toBe(201);
    report = created.body;
    expect(report).toMatchObject({ name: 'Diario depósitos', kind: 'daily', enabled: true, schedule: { time: '07:00' }, recipients: ['ops@example.com'] });
    const list = await jsonOf<{ items: Report[] }>(await s.fetch('/api/v1/reports', { cookie: viewer }));
    expect(list.body.items.map((r) => r.id)).toContain(report.id);
    const audit = await jsonOf<{ items: Array<{ action: string; target: string }> }>(await s.fetch('/api/v1/audit?limit=20', { cookie: admin }));
    expect(audit.body.items.some((e) => e.action === 'report.created' && e.target === `report:${report.id}`)).toBe(true);
  });

  it("'Generar ahora' by an operator: the workbook and the PDF hold the day's figures, the archive its SHA-256", async () => {
    // A gate operation that day: the commands keep when and who.
    await sqlRun(
      s,
      "INSERT INTO commands (id, device_id, command, status, issued_by_id, issued_by_username, issued_by_name, issued_at_ms, expires_at_ms, completed_at_ms) VALUES ('cmd_rep1', 'esp32_compuerta_01', 'abrir', 'succeeded', 'usr_x', 'operator', 'Juan Pérez', ?, ?, ?)",
      DAY_MS + 8 * 60 * MIN, DAY_MS + 9 * 60 * MIN, DAY_MS + 8 * 60 * MIN + 20_000,
    );
    await expectApiError(await s.fetch(`/api/v1/reports/${report.id}/runs`, { method: 'POST', cookie: viewer, json: { from: DAY, to: DAY } }), 403);
    await expectApiError(await s.fetch(`/api/v1/reports/${report.id}/runs`, { method: 'POST', cookie: operator, json: { from: '2026-11-21', to: DAY } }), 400, 'RANGE_INVALID');
    await expectApiError(await s.fetch(`/api/v1/reports/${report.id}/runs`, { method: 'POST', cookie: operator, json: { from: '2024-01-01', to: DAY } }), 400, 'PERIOD_TOO_LONG');
    // Absurd periods and bodies: refused with a clear error, nothing queued.
    await expectApiError(await s.fetch(`/api/v1/reports/${report.id}/runs`, { method: 'POST', cookie: operator, json: { from: '0001-01-01', to: '9999-12-31' } }), 400, 'PERIOD_TOO_LONG');
    await expectApiError(await s.fetch(`/api/v1/reports/${report.id}/runs`, { method: 'POST', cookie: operator, json: { from: '9999-12-30', to: '9999-12-31' } }), 400, 'PERIOD_IN_FUTURE');
    await expectApiError(await s.fetch(`/api/v1/reports/${report.id}/runs`, { method: 'POST', cookie: operator, json: { from: '2026-13-01', to: '2026-13-02' } }), 400);
    await expectApiError(await s.fetch(`/api/v1/reports/${report.id}/runs`, { method: 'POST', cookie: operator, json: { from: DAY } }), 400, 'VALIDATION_FAILED');
    await expectApiError(await s.fetch(`/api/v1/reports/${report.id}/runs`, { method: 'POST', cookie: operator, json: { from: DAY, to: DAY, extra: 1 } }), 400);
    await expectApiError(await s.fetch('/api/v1/reports/rpt_nope/runs', { method: 'POST', cookie: operator, json: {} }), 404, 'REPORT_NOT_FOUND');
    await expectApiError(await s.fetch('/api/v1/report-runs?limit=1000000', { cookie: viewer }), 400);
    await expectApiError(await s.fetch(`/api/v1/reports`, { method: 'POST', cookie: admin, json: { name: 'x'.repeat(5000), kind: 'daily', formats: ['xlsx'] } }), 400);
    await expectApiError(await s.fetch(`/api/v1/reports`, { method: 'POST', cookie: admin, json: { name: '   ', kind: 'daily', formats: ['xlsx'] } }), 422);
    await expectApiError(await s.fetch(`/api/v1/report-runs/${'x'.repeat(100)}/file?format=xlsx`, { cookie: viewer }), 400);
    await expectApiError(await s.fetch('/api/v1/report-runs/rrn_nope/file?format=docx', { cookie: viewer }), 400);
    expect((await jsonOf<{ items: ReportRun[] }>(await s.fetch(`/api/v1/report-runs?reportId=${report.id}`, { cookie: viewer }))).body.items).toEqual([]);
    const posted = await jsonOf<ReportRun>(await s.fetch(`/api/v1/reports/${report.id}/runs`, { method: 'POST', cookie: operator, json: { from: DAY, to: DAY } }));
    expect(posted.status).toBe(202);
    expect(posted.body).toMatchObject({ reportId: report.id, from: DAY, to: DAY, requestedBy: { username: 'operator' } });
    const run = await waitForRun(s, viewer, posted.body.id);
    expect(run.status).toBe('done');
    expect(run.files.map((f) => f.format).sort()).toEqual(['pdf', 'xlsx']);

    const xlsx = await s.fetch(`/api/v1/report-runs/${run.id}/file?format=xlsx`, { cookie: viewer });
    expect(xlsx.status).toBe(200);
    const bytes = Buffer.from(await xlsx.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(run.files.find((f) => f.format === 'xlsx')!.sha256);
    const file = path.join(os.tmpdir(), `report-${run.id}.xlsx`);
    fs.writeFileSync(file, bytes);
    const sheets = readWorkbook(file);
    fs.rmSync(file);
    expect(sheets.map((x) => x.name)).toEqual(['Compuerta Canal A', 'Depósito Informe']);
    const sensor = sheets[1]!;
    expect(rowValues(sensor, 0)).toEqual([
      'Fecha', 'Nivel mín. (m)', 'Nivel máx. (m)', 'Nivel medio (m)', 'Volumen inicial (m³)', 'Volumen final (m³)', 'Entrada (m³)', 'Salida (m³)', 'Tiempo sobre vertedero (s)', 'Desbordamientos', 'Completitud (%)',
    ]);
    expect(sensor.rows[1]![0]).toMatchObject({ t: 'date', v: `${DAY}T00:00:00.000` });
    const [, min, max, mean, v0, v1] = rowValues(sensor, 1) as number[];
    expect([min, max, mean]).toEqual([2, 2, 2]);
    expect(v0).toBeCloseTo(1005.3, 1);
    expect(v1).toBeCloseTo(1005.3, 1);
    expect(plain(sensor.rows[1]![9])).toBe(1);
    // The tables after the daily one, each after an empty row and its title.
    for (const title of ['Alarmas', 'Operaciones de compuertas', 'Desbordamientos', 'Datos faltantes']) {
      const at = titleRow(sensor, title);
      expect(at, title).toBeGreaterThan(1);
      expect(sensor.rows[at - 1]!.every((c) => c.t === 'null')).toBe(true);
    }
    const alarmsAt = titleRow(sensor, 'Alarmas');
    expect(rowValues(sensor, alarmsAt + 1)).toEqual(['Prioridad', 'Alarmas', 'Tiempo medio hasta reconocer (s)']);
    expect(rowValues(sensor, alarmsAt + 2)).toEqual(['Crítica', 0]);
    const spillAt = titleRow(sensor, 'Desbordamientos');
    expect(rowValues(sensor, spillAt + 2).slice(2, 6)).toEqual([3600, 4.25, 1005.3, 'Tormenta']);
    const gapAt = titleRow(sensor, 'Datos faltantes');
    expect(rowValues(sensor, gapAt + 1)).toEqual(['Desde', 'Hasta', 'Duración (s)', 'Tipo']);
    expect(sensor.rows[gapAt + 2]![0]).toMatchObject({ t: 'date', v: `${DAY}T09:59:00.000` });
    expect(rowValues(sensor, gapAt + 2).slice(2)).toEqual([3660, 'Sin datos']);
    const gate = sheets[0]!;
    expect(plain(gate.rows[0]![0])).toBe('Alarmas');
    const opsAt = titleRow(gate, 'Operaciones de compuertas');
    expect(rowValues(gate, opsAt + 2).slice(1, 3)).toEqual(['Juan Pérez', 'Abrir']);

    const pdf = await s.fetch(`/api/v1/report-runs/${run.id}/file?format=pdf`, { cookie: viewer });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('Informe Diario depósitos');
    expect(text).toContain('Diario · 20/11/2026');
    expect(text).toContain('1.005,3 m³');
    expect(text).toContain('Tormenta');
    expect(text).toMatch(/Generado: \d{2}\/\d{2}\/\d{4}/);
  });

  it('the same period generated twice gives the same cells and the same PDF text but the generation line', async () => {
    const once = async () => {
      const posted = await jsonOf<ReportRun>(await s.fetch(`/api/v1/reports/${report.id}/runs`, { method: 'POST', cookie: operator, json: { from: DAY, to: DAY } }));
      const run = await waitForRun(s, operator, posted.body.id);
      const xlsx = Buffer.from(await (await s.fetch(`/api/v1/report-runs/${run.id}/file?format=xlsx`, { cookie: operator })).arrayBuffer());
      const file = path.join(os.tmpdir(), `report-${run.id}.xlsx`);
      fs.writeFileSync(file, xlsx);
      const sheets = readWorkbook(file);
      fs.rmSync(file);
      const pdf = Buffer.from(await (await s.fetch(`/api/v1/report-runs/${run.id}/file?format=pdf`, { cookie: operator })).arrayBuffer());
      return { sheets, text: pdfText(pdf).split('\n').filter((l) => !l.includes('Generado:')) };
    };
    const a = await once();
    await new Promise((r) => setTimeout(r, 1100));
    const b = await once();
    expect(b.sheets).toEqual(a.sheets);
    expect(b.text).toEqual(a.text);
  });

  it('runs: a page newest first, a file only when done, 404s', async () => {
    const page = await jsonOf<{ items: ReportRun[]; nextCursor: string | null }>(await s.fetch(`/api/v1/report-runs?reportId=${report.id}&limit=2`, { cookie: viewer }));
    expect(page.body.items).toHaveLength(2);
    expect(page.body.nextCursor).not.toBeNull();
    expect(Date.parse(page.body.items[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(page.body.items[1]!.createdAt));
    const next = await jsonOf<{ items: ReportRun[]; nextCursor: string | null }>(await s.fetch(`/api/v1/report-runs?reportId=${report.id}&limit=2&cursor=${page.body.nextCursor}`, { cookie: viewer }));
    expect(next.body.items).toHaveLength(1);
    expect(next.body.nextCursor).toBeNull();
    await expectApiError(await s.fetch('/api/v1/report-runs/rrn_nope', { cookie: viewer }), 404, 'REPORT_RUN_NOT_FOUND');
    await expectApiError(await s.fetch('/api/v1/report-runs?cursor=%%%', { cookie: viewer }), 400);
    // A queued run has no file yet.
    const definition = JSON.stringify({ ...report, deviceIds: null, createdAtMs: 0, enabledAtMs: 0, updatedAtMs: 0 });
    await sqlRun(s, "INSERT INTO report_runs (id, report_id, definition_json, from_date, to_date, status, send, attempts, mailed, created_at_ms) VALUES ('rrn_wait', ?, ?, ?, ?, 'running', 0, 1, 0, 0)", report.id, definition, DAY, DAY);
    await sqlRun(s, 'UPDATE report_runs SET lease_until_ms = ? WHERE id = ?', Date.now() + 3_600_000, 'rrn_wait');
    await expectApiError(await s.fetch('/api/v1/report-runs/rrn_wait/file?format=xlsx', { cookie: viewer }), 409, 'REPORT_NOT_READY');
    // 20 runs waiting or under way: 'Generar ahora' waits its turn.
    for (let i = 1; i < 20; i++) {
      await sqlRun(s, "INSERT INTO report_runs (id, report_id, definition_json, from_date, to_date, status, send, attempts, mailed, created_at_ms, lease_until_ms) VALUES (?, ?, ?, ?, ?, 'running', 0, 1, 0, 0, ?)", `rrn_busy${i}`, report.id, definition, DAY, DAY, Date.now() + 3_600_000);
    }
    const full = await s.fetch(`/api/v1/reports/${report.id}/runs`, { method: 'POST', cookie: operator, json: { from: DAY, to: DAY } });
    expect(full.headers.get('retry-after')).toBe('30');
    await expectApiError(full, 429, 'REPORT_QUEUE_FULL');
    await sqlRun(s, "DELETE FROM report_runs WHERE id LIKE 'rrn_busy%' OR id = 'rrn_wait'");
  });

  it('a definition deleted keeps its runs; audited', async () => {
    const res = await s.fetch(`/api/v1/reports/${report.id}`, { method: 'DELETE', cookie: admin });
    expect(res.status).toBe(204);
    await expectApiError(await s.fetch(`/api/v1/reports/${report.id}`, { cookie: viewer }), 404, 'REPORT_NOT_FOUND');
    const page = await jsonOf<{ items: ReportRun[] }>(await s.fetch(`/api/v1/report-runs?reportId=${report.id}`, { cookie: viewer }));
    expect(page.body.items.filter((r) => r.status === 'done').length).toBeGreaterThanOrEqual(3);
  });
});
