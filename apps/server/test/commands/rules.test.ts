// docs/api.md "POST /api/v1/devices/{id}/commands": the refusals in their order, one command in flight,
// detener superseding, the commands page, lastCommand, the audit trail and the gate travel timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';
import { GATE_1, GATE_2, LEVEL_1, LEVEL_2, gateMsg, getDevice, levelMsg, postTelemetry, sleep, waitFor } from '../helpers/protocol';
import {
  ISO_Z,
  ackHttp,
  auditPage,
  createDevice,
  expectApiError,
  getCommand,
  issueCommand,
  issueOk,
  jsonOf,
  type ApiCommand,
  type DeviceCommandMsg,
} from '../helpers/api';

async function heard(s: TestServer, body: unknown, key?: string): Promise<DeviceCommandMsg[]> {
  const res = await postTelemetry(s, body, key ? { key } : {});
  const { status, body: out } = await jsonOf<{ commands: DeviceCommandMsg[] }>(res);
  expect({ status, out }).toMatchObject({ status: 202 });
  return out.commands;
}

const lastCommandOf = async (s: TestServer, cookie: string, id: string) =>
  ((await getDevice(s, cookie, id)) as unknown as { lastCommand: ApiCommand | null }).lastCommand;

describe('command rules', () => {
  let s: TestServer;
  let admin: string;
  let operator: string;
  let viewer: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '60' });
    [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
  });
  afterAll(async () => s.close());

  it('viewer → 403, audited as command.refused / denied', async () => {
    await heard(s, gateMsg(GATE_1, 'cerrada')); // online, so only the permission can refuse
    await expectApiError(await issueCommand(s, viewer, GATE_1, 'abrir'), 403);
    // write is checked first: even an unknown device or a bad command is 403 for a viewer.
    await expectApiError(await issueCommand(s, viewer, 'no_such_device', 'abrir'), 403);
    await expectApiError(await issueCommand(s, viewer, LEVEL_1, 'abrir'), 403);
    // …and so is a body that is not even JSON, or not JSON at all: 403 comes before parsing.
    const raw = (body: string, type: string) =>
      s.fetch(`/api/v1/devices/${GATE_2}/commands`, { method: 'POST', cookie: viewer, headers: { 'content-type': type }, body });
    await expectApiError(await raw('{"command": "abrir"', 'application/json'), 403, 'FORBIDDEN');
    await expectApiError(await raw('abrir', 'text/plain'), 403, 'FORBIDDEN');

    const refused = await auditPage(s, admin, { action: 'command.refused' });
    const mine = refused.filter((e) => e.username === 'viewer');
    // The two refusals on GATE_2 name no command: identical, they are one row now, and their
    // repeat is summed up in one more when the audit's collapse window closes.
    expect(mine.length).toBe(4);
    const onGate = mine.find((e) => e.target === `device:${GATE_1}`);
    expect(onGate).toMatchObject({ action: 'command.refused', result: 'denied', username: 'viewer' });
    expect(onGate!.at).toMatch(ISO_Z);
    expect(onGate!.details).toMatchObject({ code: 'FORBIDDEN', command: 'abrir' });
    // Nothing was issued.
    expect(await lastCommandOf(s, operator, GATE_1)).toBeNull();
    expect((await auditPage(s, admin, { action: 'command.issued' })).length).toBe(0);
  });

  it('refusals in docs/api.md order: 404 unknown device, 422 wrong command for the type, 409 offline, 400 bad body', async () => {
    await expectApiError(await issueCommand(s, operator, 'no_such_device', 'abrir'), 404);
    // 422 comes before 409: LEVEL_1 and GATE_2 have never been heard (offline).
    await expectApiError(await issueCommand(s, operator, LEVEL_1, 'abrir'), 422);
    await expectApiError(await issueCommand(s, operator, GATE_2, 'read'), 422);
    await expectApiError(await issueCommand(s, operator, GATE_2, 'restart'), 422);
    await expectApiError(await issueCommand(s, operator, GATE_2, 'volar'), 422);
    await expectApiError(await issueCommand(s, operator, GATE_1, 'read'), 422); // online gate, still a sensor command
    await expectApiError(await issueCommand(s, operator, GATE_2, 'abrir'), 409, 'DEVICE_OFFLINE');
    await expectApiError(await issueCommand(s, operator, LEVEL_1, 'read'), 409, 'DEVICE_OFFLINE');

    for (const body of [{}, { command: '' }, { cmd: 'abrir' }, { command: 'x'.repeat(100) }]) {
      const res = await s.fetch(`/api/v1/devices/${GATE_1}/commands`, { method: 'POST', cookie: operator, json: body });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    // A number is no command (coerced to the string "5" by the schema layer, it is then unknown).
    expect([400, 422]).toContain((await s.fetch(`/api/v1/devices/${GATE_1}/commands`, { method: 'POST', cookie: operator, json: { command: 5 } })).status);
    await expectApiError(await s.fetch(`/api/v1/devices/${GATE_1}/commands`, { method: 'POST', json: { command: 'abrir' } }), 401);

    const refused = (await auditPage(s, admin, { action: 'command.refused' })).filter((e) => e.username === 'operator');
    expect(refused.map((e) => e.details?.code)).toEqual(
      expect.arrayContaining(['DEVICE_NOT_FOUND', 'COMMAND_INVALID', 'DEVICE_OFFLINE']),
    );
    expect(refused.every((e) => e.result === 'denied')).toBe(true);
    expect(await lastCommandOf(s, operator, GATE_1)).toBeNull();
  });

  it('a disabled device is refused with 409 DEVICE_OFFLINE even while heard', async () => {
    await heard(s, levelMsg(LEVEL_2, 1.2));
    expect((await getDevice(s, operator, LEVEL_2)).status).toBe('online');
    const off = await s.fetch(`/api/v1/devices/${LEVEL_2}`, { method: 'PATCH', cookie: admin, json: { enabled: false } });
    expect(off.status).toBe(200);
    await expectApiError(await issueCommand(s, operator, LEVEL_2, 'read'), 409, 'DEVICE_OFFLINE');
    const on = await s.fetch(`/api/v1/devices/${LEVEL_2}`, { method: 'PATCH', cookie: admin, json: { enabled: true } });
    expect(on.status).toBe(200);
  });

  it('one command in flight: 409 COMMAND_IN_PROGRESS; detener goes through and supersedes; lastCommand follows', async () => {
    await heard(s, gateMsg(GATE_1, 'cerrada'));
    const id1 = await issueOk(s, operator, GATE_1, 'abrir');
    expect(await lastCommandOf(s, operator, GATE_1)).toMatchObject({ id: id1, command: 'abrir', status: 'pending' });

    const busy = await expectApiError(await issueCommand(s, operator, GATE_1, 'cerrar'), 409, 'COMMAND_IN_PROGRESS');
    expect(busy.details).toMatchObject({ commandId: id1 });
    await expectApiError(await issueCommand(s, operator, GATE_1, 'abrir'), 409, 'COMMAND_IN_PROGRESS');
    // The order still holds while busy: 403 and 422 come first.
    await expectApiError(await issueCommand(s, viewer, GATE_1, 'cerrar'), 403);
    await expectApiError(await issueCommand(s, operator, GATE_1, 'read'), 422);

    const id2 = await issueOk(s, operator, GATE_1, 'detener');
    const first = await getCommand(s, operator, id1);
    expect(first.status).toBe('superseded');
    expect(first.completedAt).toMatch(ISO_Z);
    expect(await lastCommandOf(s, operator, GATE_1)).toMatchObject({ id: id2, command: 'detener', status: 'pending' });

    // Only detener is handed out; the superseded command never is.
    const cmds = await heard(s, gateMsg(GATE_1, 'cerrada'));
    expect(cmds.map((c) => [c.id, c.command])).toEqual([[id2, 'detener']]);
    expect(await jsonOf(await ackHttp(s, GATE_1, id2, { success: true, state: 'cerrada' }))).toEqual({ status: 200, body: { status: 'succeeded' } });
    // A late ack of the superseded one does not revive it.
    expect(await jsonOf(await ackHttp(s, GATE_1, id1, { success: true }))).toEqual({ status: 200, body: { status: 'superseded' } });
    expect(await lastCommandOf(s, operator, GATE_1)).toMatchObject({ id: id2, status: 'succeeded' });

    // A free device takes a command again.
    const id3 = await issueOk(s, operator, GATE_1, 'cerrar');
    expect((await heard(s, gateMsg(GATE_1, 'cerrada'))).map((c) => c.id)).toEqual([id3]);
    expect(await jsonOf(await ackHttp(s, GATE_1, id3, { success: true, state: 'cerrada' }))).toEqual({ status: 200, body: { status: 'succeeded' } });
    const id4 = await issueOk(s, operator, GATE_1, 'abrir');
    expect((await heard(s, gateMsg(GATE_1, 'cerrada'))).map((c) => c.id)).toEqual([id4]);
    expect(await jsonOf(await ackHttp(s, GATE_1, id4, { success: false, message: 'Motor bloqueado' }))).toEqual({ status: 200, body: { status: 'failed' } });
    const id5 = await issueOk(s, admin, GATE_1, 'abrir');
    expect(await lastCommandOf(s, operator, GATE_1)).toMatchObject({ id: id5, status: 'pending', issuedBy: { username: 'admin' } });
    expect((await heard(s, gateMsg(GATE_1, 'cerrada'))).map((c) => c.id)).toEqual([id5]);
    expect(await lastCommandOf(s, operator, GATE_1)).toMatchObject({ id: id5, status: 'delivered' });
    expect(await jsonOf(await ackHttp(s, GATE_1, id5, { success: true, state: 'abriendo' }))).toEqual({ status: 200, body: { status: 'succeeded' } });
    expect(await lastCommandOf(s, operator, GATE_1)).toMatchObject({ id: id5, status: 'succeeded' });
    await heard(s, gateMsg(GATE_1, 'abierta'));

    // --- GET /api/v1/commands?deviceId=…&limit=2: newest first, pages with nextCursor, no repeats.
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const qs: string = `deviceId=${GATE_1}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await jsonOf<{ items: ApiCommand[]; nextCursor: string | null }>(await s.fetch(`/api/v1/commands?${qs}`, { cookie: viewer }));
      expect(page.status).toBe(200);
      expect(Object.keys(page.body).sort()).toEqual(['items', 'nextCursor']);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      for (const c of page.body.items) expect(c.deviceId).toBe(GATE_1);
      seen.push(...page.body.items.map((c) => c.id));
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual([id5, id4, id3, id2, id1]);
    expect(pages).toBe(3);

    const all = await jsonOf<{ items: ApiCommand[]; nextCursor: string | null }>(await s.fetch(`/api/v1/commands?deviceId=${GATE_1}&limit=10`, { cookie: viewer }));
    expect(all.body.nextCursor).toBeNull();
    expect(all.body.items.map((c) => [c.id, c.status])).toEqual([
      [id5, 'succeeded'],
      [id4, 'failed'],
      [id3, 'succeeded'],
      [id2, 'succeeded'],
      [id1, 'superseded'],
    ]);
    for (const c of all.body.items) {
      const i = all.body.items.indexOf(c);
      if (i > 0) expect(Date.parse(c.issuedAt)).toBeLessThanOrEqual(Date.parse(all.body.items[i - 1]!.issuedAt));
    }
    const other = await jsonOf<{ items: ApiCommand[] }>(await s.fetch(`/api/v1/commands?deviceId=${GATE_2}`, { cookie: viewer }));
    expect(other.body.items).toEqual([]);
    for (const bad of ['limit=0', 'limit=abc', 'limit=100000', 'cursor=%25%25%25', 'deviceId=A%20B']) {
      const r = await s.fetch(`/api/v1/commands?${bad}`, { cookie: viewer });
      expect({ bad, status: r.status }).toEqual({ bad, status: 400 });
    }
    await expectApiError(await s.fetch(`/api/v1/commands/cmd_nope`, { cookie: viewer }), 404);
    await expectApiError(await s.fetch(`/api/v1/commands/${id1}`), 401);

    // --- The audit trail of the device.
    const events = await auditPage(s, admin, { deviceId: GATE_1 });
    expect(events.every((e) => e.target === `device:${GATE_1}`)).toBe(true);
    const issued = events.filter((e) => e.action === 'command.issued');
    expect(issued.map((e) => e.details?.commandId)).toEqual([id5, id4, id3, id2, id1]);
    expect(issued.every((e) => e.result === 'ok')).toBe(true);
    expect(issued.find((e) => e.details?.commandId === id5)).toMatchObject({ username: 'admin' });
    expect(issued.find((e) => e.details?.commandId === id1)).toMatchObject({ username: 'operator', details: { command: 'abrir' } });
    const completed = events.filter((e) => e.action === 'command.completed' && e.details?.late !== true);
    const byId = new Map(completed.map((e) => [e.details?.commandId, e]));
    expect(byId.get(id1)).toMatchObject({ details: { status: 'superseded' } });
    expect(byId.get(id2)).toMatchObject({ result: 'ok', details: { status: 'succeeded' } });
    expect(byId.get(id4)).toMatchObject({ result: 'failed', details: { status: 'failed', message: 'Motor bloqueado' } });
    expect(byId.get(id5)).toMatchObject({ result: 'ok', details: { status: 'succeeded' } });
    // The audit is for administrators only.
    await expectApiError(await s.fetch(`/api/v1/audit?deviceId=${GATE_1}`, { cookie: operator }), 403);
  });
});

describe('gate travel timeout', () => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '60' });
    admin = await s.login('admin');
  });
  afterAll(async () => s.close());

  it('a gate that acknowledged abrir and reports nothing else is set to falla after travelTimeoutS', async () => {
    const { apiKey, device } = await createDevice(s, admin, {
      id: 'gate_travel',
      name: 'G',
      location: 'L',
      type: 'motorized_gate',
      config: { travelTimeoutS: 1 },
    });
    expect(device.config).toMatchObject({ travelTimeoutS: 1 });
    await heard(s, gateMsg('gate_travel', 'cerrada'), apiKey);
    const id = await issueOk(s, admin, 'gate_travel', 'abrir');
    expect((await heard(s, gateMsg('gate_travel', 'cerrada'), apiKey)).map((c) => c.id)).toEqual([id]);
    const ack = await ackHttp(s, 'gate_travel', id, { success: true, state: 'abriendo' }, { key: apiKey });
    expect(await jsonOf(ack)).toEqual({ status: 200, body: { status: 'succeeded' } });
    const t = Date.now();
    expect((await getDevice(s, admin, 'gate_travel')).config.state).toBe('abriendo');

    await waitFor(async () => (await getDevice(s, admin, 'gate_travel')).config.state === 'falla', 3000, 50);
    const took = Date.now() - t;
    expect(took).toBeGreaterThanOrEqual(800);
    expect(took).toBeLessThan(2500);
    expect((await getCommand(s, admin, id)).status).toBe('succeeded'); // the command itself succeeded

    // Reported as a fault everywhere: the current reading and the history say falla, and the
    // server's own record of it is not a sign of life of the device.
    const faulty = await getDevice(s, admin, 'gate_travel');
    expect(faulty.reading).toMatchObject({ value: 'falla', status: 'fault', unit: null });
    const history = await jsonOf<{ items: Array<{ value: unknown; status: string }> }>(await s.fetch('/api/v1/devices/gate_travel/readings', { cookie: admin }));
    expect(history.body.items.at(-1)).toMatchObject({ value: 'falla', status: 'fault' });
    expect(Date.parse(faulty.lastSeen!)).toBeLessThan(t);
  });

  it('a gate that reports itself moving (moved by hand, no command) and never arrives is set to falla', async () => {
    const { apiKey } = await createDevice(s, admin, { id: 'gate_manual', name: 'G3', location: 'L', type: 'motorized_gate', config: { travelTimeoutS: 1 } });
    await heard(s, gateMsg('gate_manual', 'cerrando'), apiKey);
    await sleep(500);
    await heard(s, gateMsg('gate_manual', 'cerrando'), apiKey); // still moving: the clock runs from the first report
    await waitFor(async () => (await getDevice(s, admin, 'gate_manual')).reading?.value === 'falla', 2500, 50);
  });

  it('a gate left moving by a previous run is watched again after a restart', async () => {
    const dataDir = tempDataDir();
    const env = { DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '60' };
    const first = await startServer(env, { dataDir });
    const firstAdmin = await first.login('admin');
    const { apiKey } = await createDevice(first, firstAdmin, { id: 'gate_restart', name: 'G4', location: 'L', type: 'motorized_gate', config: { travelTimeoutS: 2 } });
    await heard(first, gateMsg('gate_restart', 'abriendo'), apiKey);
    await first.close();

    const second = await startServer(env, { dataDir });
    try {
      const secondAdmin = await second.login('admin');
      expect((await getDevice(second, secondAdmin, 'gate_restart')).config.state).toBe('abriendo');
      await waitFor(async () => (await getDevice(second, secondAdmin, 'gate_restart')).config.state === 'falla', 10_000, 100); // 2 s of travel, with room for a loaded machine's restart
    } finally {
      await second.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a gate that reports the final state in time is not set to falla', async () => {
    const { apiKey } = await createDevice(s, admin, { id: 'gate_travel_ok', name: 'G2', location: 'L', type: 'motorized_gate', config: { travelTimeoutS: 1 } });
    await heard(s, gateMsg('gate_travel_ok', 'abierta'), apiKey);
    const id = await issueOk(s, admin, 'gate_travel_ok', 'cerrar');
    expect((await heard(s, gateMsg('gate_travel_ok', 'abierta'), apiKey)).map((c) => c.id)).toEqual([id]);
    await ackHttp(s, 'gate_travel_ok', id, { success: true, state: 'cerrando' }, { key: apiKey });
    await sleep(300);
    await heard(s, gateMsg('gate_travel_ok', 'cerrada'), apiKey);
    await sleep(1500);
    expect((await getDevice(s, admin, 'gate_travel_ok')).config.state).toBe('cerrada');
  });
});
