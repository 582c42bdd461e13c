// The alarm history out of the system: the ISA-18.2 figures (/alarms/stats) and the export to
// Excel and CSV with the seed's conventions (one sheet 'Alarmas', newest first, Spanish labels,
// date cells; 404 NO_DATA), read back by openpyxl, an implementation independent of ExcelJS.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alarm } from '@agua/shared';
import { expectApiError, jsonOf } from '../helpers/api';
import { LEVEL_2, levelMsg, postTelemetry, waitFor } from '../helpers/protocol';
import { startServer, type TestServer } from '../helpers/server';
import { ensureOpenpyxl, readWorkbook } from '../history/history-helpers';

interface Stats {
  from: string;
  to: string;
  total: number;
  perTenMinutes: { max: number; mean: number };
  floods: number;
  top: Array<{ deviceId: string; ruleId: string; kind: string; count: number }>;
  chattering: Array<{ deviceId: string; ruleId: string; kind: string; count: number }>;
  standing: number;
  meanTimeToAckS: number | null;
}

describe('alarm history: figures and export', () => {
  let s: TestServer;
  let operator: string;
  let ts = Date.now() - 300_000;
  const startedAt = new Date().toISOString();

  const level = async (value: number) => {
    ts += 1000;
    const res = await postTelemetry(s, levelMsg(LEVEL_2, value, { ts }));
    expect(res.status).toBe(202);
    await res.body?.cancel();
  };
  const openHH = async () =>
    (await jsonOf<{ items: Alarm[] }>(await s.fetch('/api/v1/alarms?state=open', { cookie: operator }))).body.items.find(
      (a) => a.deviceId === LEVEL_2 && a.kind === 'level_high_high',
    );

  beforeAll(async () => {
    ensureOpenpyxl();
    s = await startServer({ DEVICE_RATE_LIMIT: '0', SIMULATE: 'false' });
    operator = await s.login('operator');
    // HH raised, returned and acknowledged three times within the minute: chattering.
    for (let i = 0; i < 3; i++) {
      await level(4.8);
      const hh = (await waitFor(openHH))!;
      await level(1);
      await waitFor(async () => (await openHH())?.state === 'rtn_unack');
      const ack = await s.fetch(`/api/v1/alarms/${hh.id}/ack`, { method: 'POST', cookie: operator, json: { comment: `vuelta ${i + 1}` } });
      expect(ack.status).toBe(200);
      await ack.body?.cancel();
    }
  });
  afterAll(async () => s?.close());

  it('stats: totals, the chattering rule, the top rules and the mean time to acknowledge', async () => {
    const { status, body } = await jsonOf<Stats>(await s.fetch(`/api/v1/alarms/stats?from=${encodeURIComponent(startedAt)}`, { cookie: operator }));
    expect(status).toBe(200);
    const hhCount = body.top.find((r) => r.kind === 'level_high_high');
    expect(hhCount).toMatchObject({ deviceId: LEVEL_2, count: 3 });
    expect(body.chattering).toEqual([expect.objectContaining({ deviceId: LEVEL_2, kind: 'level_high_high', count: 3 })]);
    expect(body.total).toBeGreaterThanOrEqual(4); // 3 × HH and H once at least
    expect(body.perTenMinutes.max).toBe(body.total);
    expect(body.floods).toBe(0);
    expect(body.meanTimeToAckS).not.toBeNull();
    expect(body.meanTimeToAckS!).toBeGreaterThan(0);
    expect(body.meanTimeToAckS!).toBeLessThan(30);
    expect(body.standing).toBe(0);
    await expectApiError(await s.fetch('/api/v1/alarms/stats?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', { cookie: operator }), 400, 'RANGE_INVALID');
  });

  it('Excel: one sheet Alarmas, the headers, newest first, Spanish labels, date cells', async () => {
    const res = await s.fetch(`/api/v1/export-alarms.xlsx?deviceIds=${LEVEL_2}`, { cookie: operator });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Historial_Alarmas.xlsx"');
    const file = path.join(s.dataDir, 'alarmas.xlsx');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const sheets = readWorkbook(file);
    expect(sheets.map((x) => x.name)).toEqual(['Alarmas']);
    const [header, ...rows] = sheets[0]!.rows;
    expect(header!.map((c) => (c.t === 'string' ? c.v : null))).toEqual(['Fecha y Hora', 'Dispositivo', 'Alarma', 'Prioridad', 'Estado', 'Valor', 'Reconocida por', 'Comentario', 'Normalizada']);
    const hh = rows.filter((r) => r[2]!.t === 'string' && r[2]!.v === 'Nivel muy alto');
    expect(hh).toHaveLength(3);
    expect(hh[0]!.map((c) => (c.t === 'date' ? 'date' : c.t === 'null' ? null : c.v))).toEqual(['date', 'Sensor Nivel Agua Limpia', 'Nivel muy alto', 'Crítica', 'Finalizada', 4.8, 'Juan Pérez', 'vuelta 3', 'date']);
    const raised = rows.map((r) => (r[0]!.t === 'date' ? r[0]!.v : ''));
    expect([...raised].sort().reverse()).toEqual(raised); // newest first
  });

  it('CSV: BOM, header, the same rows; nothing in range → 404 NO_DATA; unknown device → 404', async () => {
    const res = await s.fetch('/api/v1/export-alarms.csv', { cookie: operator });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Historial_Alarmas.csv"');
    // fetch's text() would drop the BOM: decode the bytes as they are.
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text.startsWith('\uFEFFFecha y Hora,Dispositivo,Alarma,Prioridad,Estado,Valor,Reconocida por,Comentario,Normalizada\r\n')).toBe(true);
    expect(text).toMatch(/\r\n\d{4}-\d{2}-\d{2}T[\d:.]+[+-]\d{2}:\d{2},Sensor Nivel Agua Limpia,Nivel muy alto,Crítica,Finalizada,4\.8,Juan Pérez,vuelta 3,\d{4}-/);
    await expectApiError(await s.fetch('/api/v1/export-alarms.csv?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z', { cookie: operator }), 404, 'NO_DATA');
    await expectApiError(await s.fetch('/api/v1/export-alarms.xlsx?deviceIds=no_such_device', { cookie: operator }), 404, 'DEVICE_NOT_FOUND');
    await expectApiError(await s.fetch('/api/v1/export-alarms.csv'), 401);
  });
});
