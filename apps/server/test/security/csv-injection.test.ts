// Formula injection (security.md "CSV exports"): text a user typed (an alarm comment, a device
// name, a person's name, a device id) must never reach a spreadsheet as a formula. CSV fields that
// start with = + - @, tab or CR get a leading ' (plain numbers such as -1.25 stay numbers); in the
// workbooks such text is a string cell. The files are read back as they are: the CSV as text,
// the workbook with openpyxl.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alarm } from '@agua/shared';
import { csvField } from '../../src/lib/csv';
import { jsonOf } from '../helpers/api';
import { levelMsg, postTelemetry, waitFor } from '../helpers/protocol';
import { startServer, type TestServer } from '../helpers/server';
import { ensureOpenpyxl, insertReadings, parseCsv, readWorkbook } from '../history/history-helpers';

const COMMENT = '=HYPERLINK("http://evil.test","x")';
const DEVICE_NAME = "=cmd|' /C calc'!A0";
const PERSON_NAME = '@SUM(1+1)*cmd';
const DEVICE_ID = '-2-1_calc'; // device ids may start with '-'

/** The bytes of a CSV answer as text, BOM kept (fetch's text() would drop it). */
async function csvText(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
}

describe('formula injection in exports', () => {
  let s: TestServer;
  let operator: string;

  beforeAll(async () => {
    ensureOpenpyxl();
    s = await startServer({ DEVICE_RATE_LIMIT: '0' });
    const admin = await s.login('admin');
    operator = await s.login('operator');
    const created = await s.fetch('/api/v1/devices', {
      method: 'POST',
      cookie: admin,
      json: { id: DEVICE_ID, name: DEVICE_NAME, location: 'Pruebas', type: 'level_sensor', config: { maxLevel: 5 } },
    });
    const { body: device } = await jsonOf<{ apiKey: string }>(created);
    expect(created.status).toBe(201);
    // The person who acknowledges has a formula for a name.
    const users = (await jsonOf<Array<{ id: string; username: string }>>(await s.fetch('/api/v1/users', { cookie: admin }))).body;
    const op = users.find((u) => u.username === 'operator')!;
    expect((await s.fetch(`/api/v1/users/${op.id}`, { method: 'PATCH', cookie: admin, json: { name: PERSON_NAME } })).status).toBe(200);

    // A critical level raises an alarm; the operator acknowledges it with a formula for a comment.
    const reading = await postTelemetry(s, levelMsg(DEVICE_ID, 4.9), { key: device.apiKey });
    expect(reading.status).toBe(202);
    const alarm = await waitFor(async () =>
      (await jsonOf<{ items: Alarm[] }>(await s.fetch('/api/v1/alarms?state=open', { cookie: operator }))).body.items.find((a) => a.deviceId === DEVICE_ID),
    );
    expect((await s.fetch(`/api/v1/alarms/${alarm!.id}/ack`, { method: 'POST', cookie: operator, json: { comment: COMMENT } })).status).toBe(200);
    await insertReadings(s, [{ deviceId: DEVICE_ID, tsMs: Date.now() - 60_000, valueNum: -1.25, status: 'fault' }]);
  });
  afterAll(async () => s?.close());

  it('alarm CSV: the comment, the device name and the person are text, not formulas', async () => {
    const text = await csvText(await s.fetch(`/api/v1/export-alarms.csv?deviceIds=${DEVICE_ID}`, { cookie: operator }));
    const [header, ...rows] = parseCsv(text.slice(1));
    const column = (name: string) => header!.indexOf(name);
    const row = rows.find((r) => r[column('Comentario')] !== '')!;
    expect(row[column('Comentario')]).toBe(`'${COMMENT}`);
    expect(row[column('Dispositivo')]).toBe(`'${DEVICE_NAME}`);
    expect(row[column('Reconocida por')]).toBe(`'${PERSON_NAME}`);
    // As the bytes go: no line has a field that starts a formula.
    for (const line of text.split('\r\n')) expect(line).not.toMatch(/(^|,)"?[=+\-@\t\r]/);
  });

  it('readings CSV: a device id starting with "-" is text, a negative value stays a number', async () => {
    const text = await csvText(await s.fetch(`/api/v1/export.csv?deviceIds=${DEVICE_ID}`, { cookie: operator }));
    const rows = parseCsv(text.slice(1)).slice(1);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) expect(row[0]).toBe(`'${DEVICE_ID}`);
    expect(rows.map((r) => r[2])).toContain('-1.25');
    expect(text).toContain(`,-1.25,m,Falla\r\n`);
  });

  it('alarm workbook: the same texts are string cells, not formulas', async () => {
    const res = await s.fetch(`/api/v1/export-alarms.xlsx?deviceIds=${DEVICE_ID}`, { cookie: operator });
    expect(res.status).toBe(200);
    const file = path.join(s.dataDir, 'alarmas.xlsx');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const [header, ...rows] = readWorkbook(file)[0]!.rows;
    const column = (name: string) => header!.findIndex((c) => c.t === 'string' && c.v === name);
    const row = rows.find((r) => r[column('Comentario')]!.t !== 'null')!;
    expect(row[column('Comentario')]).toEqual({ t: 'string', v: COMMENT });
    expect(row[column('Dispositivo')]).toEqual({ t: 'string', v: DEVICE_NAME });
    expect(row[column('Reconocida por')]).toEqual({ t: 'string', v: PERSON_NAME });
    for (const r of rows) for (const cell of r) expect(cell.t).not.toBe('formula');
  });

  it('csvField: every formula start is neutralised, plain numbers and other text are not', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvField(`${start}1+cmd`)[start === '\r' ? 1 : 0]).toBe("'");
    expect(csvField('\tSUM(A1)')).toBe("'\tSUM(A1)");
    expect(csvField('\r=1')).toBe(`"'\r=1"`);
    expect(csvField('-1.25')).toBe('-1.25');
    expect(csvField('+3')).toBe('+3');
    expect(csvField('-2e-3')).toBe('-2e-3');
    expect(csvField('-')).toBe("'-");
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(' =1')).toBe(' =1');
    expect(csvField('=1,2')).toBe(`"'=1,2"`);
  });
});
