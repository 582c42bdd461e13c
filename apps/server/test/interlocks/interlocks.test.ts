// docs/control.md "Interlocks": definitions, the verdict before the click and at submit, the
// demands (comment, password, a second person), bypasses, the audit trail — against a real
// server with gates on a real HTTP long poll and a real MQTT session.
import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { GATE_1, GATE_2, LEVEL_1, LEVEL_2, connectDevice, endClient, gateMsg, levelMsg, openLive, postTelemetry, sleep, waitFor } from '../helpers/protocol';
import type { LiveSocket } from '../helpers/protocol';
import { auditPage, expectApiError, getCommand, issueCommand, jsonOf, longPoll, waitForCommandStatus, type DeviceCommandMsg } from '../helpers/api';

interface Interlock {
  id: string;
  version: number;
  bypass: { until: string; by: { username: string }; comment: string } | null;
  [k: string]: unknown;
}

async function createInterlock(s: TestServer, admin: string, body: Record<string, unknown>): Promise<Interlock> {
  const res = await s.fetch('/api/v1/interlocks', { method: 'POST', cookie: admin, json: body });
  const { status, body: out } = await jsonOf<Interlock>(res);
  if (status !== 201) throw new Error(`POST /interlocks: ${status} ${JSON.stringify(out)}`);
  return out;
}

async function deleteAll(s: TestServer, admin: string): Promise<void> {
  const { body } = await jsonOf<Interlock[]>(await s.fetch('/api/v1/interlocks', { cookie: admin }));
  for (const i of body) await s.fetch(`/api/v1/interlocks/${i.id}`, { method: 'DELETE', cookie: admin });
}

/** A level sensor's reading, now. */
async function level(s: TestServer, deviceId: string, value: number): Promise<void> {
  const res = await postTelemetry(s, levelMsg(deviceId, value));
  expect(res.status).toBe(202);
}

/** A gate heard now, in a state (online for DEVICE_OFFLINE_AFTER_S). */
async function gate(s: TestServer, deviceId: string, state = 'cerrada'): Promise<void> {
  const res = await postTelemetry(s, gateMsg(deviceId, state));
  expect(res.status).toBe(202);
}

async function permissives(s: TestServer, cookie: string, deviceId: string, command: string) {
  const res = await s.fetch(`/api/v1/devices/${deviceId}/permissives?command=${command}`, { cookie });
  return jsonOf<{ allowed: boolean; mode: string | null; requires: Record<string, boolean>; reasons: Array<{ message: string; interlockId: string; mode: string; kind: string; deviceId: string; name: string }>; bypassed: unknown[] }>(res);
}

function send(s: TestServer, cookie: string, deviceId: string, body: Record<string, unknown>): Promise<Response> {
  return s.fetch(`/api/v1/devices/${deviceId}/commands`, { method: 'POST', cookie, json: body });
}

/** A live socket of a signed-in user. */
async function live(s: TestServer, cookie: string): Promise<LiveSocket> {
  const opened = await openLive(s, { cookie, origin: s.url });
  if (!opened.live) throw new Error(`live socket refused: ${opened.status}`);
  return opened.live;
}

/** Finishes whatever the gate has in flight, so the next test starts clean. */
async function settle(s: TestServer, operator: string, deviceId: string): Promise<void> {
  const res = await issueCommand(s, operator, deviceId, 'detener');
  if (res.status !== 202) return;
  const { commandId } = (await res.json()) as { commandId: string };
  const poll = await jsonOf<DeviceCommandMsg[]>(await longPoll(s, deviceId, { wait: '0' }));
  for (const c of poll.body) await s.fetch(`/api/v1/devices/${deviceId}/commands/${c.id}/ack`, { method: 'POST', headers: { 'x-api-key': `demo-key-${deviceId}` }, json: { success: true, state: 'cerrada' } });
  await waitForCommandStatus(s, operator, commandId, 'succeeded', 3000).catch(() => undefined);
}

describe('interlocks', () => {
  let s: TestServer;
  let admin: string;
  let operator: string;
  let viewer: string;
  let cleanName: string;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '60', APPROVAL_TIMEOUT_S: '3', LOGIN_MAX_FAILURES_PER_USER: '3' });
    [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
    const { body } = await jsonOf<{ name: string }>(await s.fetch(`/api/v1/devices/${LEVEL_2}`, { cookie: admin }));
    cleanName = body.name;
  });
  afterAll(async () => s.close());
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => endClient(c, true)));
    await deleteAll(s, admin);
    await settle(s, operator, GATE_1);
  });

  it('refuses what cannot be: detener, an unknown device, a kind not for its device, both or neither of valueM/pct (422 INTERLOCK_INVALID naming the field); only manage_devices defines', async () => {
    const base = { deviceId: GATE_1, command: 'abrir', name: 'Canal alto', mode: 'block', conditions: [{ kind: 'level', deviceId: LEVEL_2, op: '<', valueM: 4.25 }] };
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ ...base, command: 'detener' }, 'command'],
      [{ ...base, command: 'read' }, 'command'],
      [{ ...base, deviceId: 'no_such_gate' }, 'deviceId'],
      [{ ...base, name: '   ' }, 'name'],
      [{ ...base, name: 'x'.repeat(101) }, 'name'],
      [{ ...base, conditions: [] }, 'conditions'],
      [{ ...base, conditions: Array(11).fill(base.conditions[0]) }, 'conditions'],
      [{ ...base, conditions: [{ kind: 'level', deviceId: GATE_2, op: '<', valueM: 1 }] }, 'conditions[0].kind'],
      [{ ...base, conditions: [{ kind: 'gate_state', deviceId: LEVEL_1, in: ['cerrada'] }] }, 'conditions[0].kind'],
      [{ ...base, conditions: [{ kind: 'level', deviceId: LEVEL_2, op: '<', valueM: 1, pct: 20 }] }, 'conditions[0].valueM'],
      [{ ...base, conditions: [{ kind: 'level', deviceId: LEVEL_2, op: '<' }] }, 'conditions[0].valueM'],
      [{ ...base, conditions: [{ kind: 'online', deviceId: 'ghost_device' }] }, 'conditions[0].deviceId'],
      [{ ...base, conditions: [{ kind: 'alarm', deviceId: GATE_2, alarmKind: 'level_high', active: false }] }, 'conditions[0].alarmKind'],
    ];
    for (const [body, field] of bad) {
      const err = await expectApiError(await s.fetch('/api/v1/interlocks', { method: 'POST', cookie: admin, json: body }), 422, 'INTERLOCK_INVALID');
      expect((err.details as { field: string }).field, JSON.stringify(body).slice(0, 120)).toBe(field);
      expect(typeof (err.details as { reason: string }).reason).toBe('string');
    }
    await expectApiError(await s.fetch('/api/v1/interlocks', { method: 'POST', cookie: admin, json: { ...base, mode: 'maybe' } }), 400);
    await expectApiError(await s.fetch('/api/v1/interlocks', { method: 'POST', cookie: operator, json: base }), 403);
    const { body: none } = await jsonOf<unknown[]>(await s.fetch('/api/v1/interlocks', { cookie: viewer }));
    expect(none).toEqual([]);

    // Created at version 1; a change on an old version is refused; each change is +1 and audited.
    const made = await createInterlock(s, admin, base);
    expect(made).toMatchObject({ deviceId: GATE_1, command: 'abrir', name: 'Canal alto', mode: 'block', enabled: true, version: 1, bypass: null });
    const patched = await jsonOf<Interlock>(await s.fetch(`/api/v1/interlocks/${made.id}`, { method: 'PATCH', cookie: admin, json: { version: 1, mode: 'confirm' } }));
    expect(patched).toMatchObject({ status: 200, body: { version: 2, mode: 'confirm' } });
    await expectApiError(await s.fetch(`/api/v1/interlocks/${made.id}`, { method: 'PATCH', cookie: admin, json: { version: 1, mode: 'block' } }), 409, 'VERSION_CONFLICT');
    await expectApiError(await s.fetch(`/api/v1/interlocks/${made.id}`, { method: 'PATCH', cookie: admin, json: { version: 2, command: 'detener' } }), 422, 'INTERLOCK_INVALID');
    expect((await s.fetch(`/api/v1/interlocks/${made.id}`, { method: 'DELETE', cookie: admin })).status).toBe(204);
    await expectApiError(await s.fetch(`/api/v1/interlocks/${made.id}`, { cookie: admin }), 404, 'INTERLOCK_NOT_FOUND');
    const actions = (await auditPage(s, admin)).filter((e) => e.target === `interlock:${made.id}`).map((e) => e.action);
    expect(actions.sort()).toEqual(['interlock.created', 'interlock.deleted', 'interlock.updated']);
  });

  it('blocks abrir with the Spanish reason while the clean tank is high, before the click and at submit; allows it once the level drops; detener is never blocked', async () => {
    await gate(s, GATE_1);
    await level(s, LEVEL_2, 4.62);
    const lock = await createInterlock(s, admin, { deviceId: GATE_1, command: 'abrir', name: 'Tanque alto', mode: 'block', conditions: [{ kind: 'level', deviceId: LEVEL_2, op: '<', valueM: 4.25 }] });

    const before = await permissives(s, operator, GATE_1, 'abrir');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ allowed: false, mode: 'block', requires: { comment: false, password: false, approval: false }, bypassed: [] });
    expect(before.body.reasons).toEqual([{ interlockId: lock.id, name: 'Tanque alto', mode: 'block', deviceId: LEVEL_2, kind: 'level', message: `Bloqueado: ${cleanName} en nivel alto (4,62 m ≥ 4,25 m)` }]);
    const refused = await expectApiError(await issueCommand(s, operator, GATE_1, 'abrir'), 409, 'INTERLOCKED');
    expect((refused.details as { reasons: unknown[] }).reasons).toEqual(before.body.reasons);
    // cerrar has no interlock; detener never has one.
    expect((await permissives(s, viewer, GATE_1, 'cerrar')).body).toMatchObject({ allowed: true, mode: null, reasons: [] });
    expect((await permissives(s, viewer, GATE_1, 'detener')).body).toMatchObject({ allowed: true, reasons: [] });
    await expectApiError(await s.fetch(`/api/v1/devices/${GATE_1}/permissives?command=read`, { cookie: viewer }), 422, 'COMMAND_INVALID');
    await expectApiError(await s.fetch(`/api/v1/devices/nope_gate/permissives?command=abrir`, { cookie: viewer }), 404, 'DEVICE_NOT_FOUND');

    const stop = await jsonOf(await issueCommand(s, operator, GATE_1, 'detener'));
    expect(stop.status).toBe(202);

    // The level drops: allowed, and the gate's long poll gets abrir.
    await level(s, LEVEL_2, 3.1);
    expect((await permissives(s, operator, GATE_1, 'abrir')).body).toMatchObject({ allowed: true, mode: null, reasons: [] });
    await settle(s, operator, GATE_1);
    const poll = longPoll(s, GATE_1, { wait: '5' });
    const sent = await jsonOf<{ commandId: string }>(await issueCommand(s, operator, GATE_1, 'abrir'));
    expect(sent.status).toBe(202);
    const got = await jsonOf<DeviceCommandMsg[]>(await poll);
    expect(got.body.map((c) => c.id)).toContain(sent.body.commandId);
    expect((await getCommand(s, operator, sent.body.commandId)).overrides).toEqual([]);

    const refusal = (await auditPage(s, admin, { action: 'command.refused' })).find((e) => e.details?.code === 'INTERLOCKED');
    expect(refusal).toMatchObject({ username: 'operator', result: 'denied', details: { command: 'abrir', code: 'INTERLOCKED', interlockIds: [lock.id] } });
  });

  it('judges again at submit: a level that crosses after the permissive check is refused; a stale, a fault or no reading blocks', async () => {
    await gate(s, GATE_1);
    await level(s, LEVEL_2, 2.0);
    await createInterlock(s, admin, { deviceId: GATE_1, command: 'abrir', name: 'Tanque', mode: 'block', conditions: [{ kind: 'level', deviceId: LEVEL_2, op: '<=', pct: 80, maxAgeS: 2 }] });
    expect((await permissives(s, operator, GATE_1, 'abrir')).body.allowed).toBe(true);
    await level(s, LEVEL_2, 4.7); // maxLevel 5: 80 % is 4 m
    const crossed = await expectApiError(await issueCommand(s, operator, GATE_1, 'abrir'), 409, 'INTERLOCKED');
    expect((crossed.details as { reasons: Array<{ message: string }> }).reasons[0]!.message).toBe(`Bloqueado: ${cleanName} en nivel alto (4,70 m > 4,00 m)`);

    await level(s, LEVEL_2, 1.0);
    expect((await permissives(s, operator, GATE_1, 'abrir')).body.allowed).toBe(true);
    await sleep(2_300); // older than maxAgeS
    const stale = await permissives(s, operator, GATE_1, 'abrir');
    expect(stale.body.reasons.map((r) => r.message)).toEqual([`Bloqueado: ${cleanName} sin lectura válida reciente`]);
    await expectApiError(await issueCommand(s, operator, GATE_1, 'abrir'), 409, 'INTERLOCKED');
    // A fault reading (beyond 120 % of maxLevel: the sensor is at fault) is no valid reading either.
    await level(s, LEVEL_2, 1.0);
    expect((await permissives(s, operator, GATE_1, 'abrir')).body.allowed).toBe(true);
    await level(s, LEVEL_2, 9.0);
    expect((await permissives(s, operator, GATE_1, 'abrir')).body.reasons.map((r) => r.message)).toEqual([`Bloqueado: ${cleanName} sin lectura válida reciente`]);
  });

  it('gate state, presence and alarm conditions say why in words', async () => {
    await gate(s, GATE_1);
    await gate(s, GATE_2, 'abierta');
    await createInterlock(s, admin, {
      deviceId: GATE_1,
      command: 'cerrar',
      name: 'Salida abierta',
      mode: 'block',
      conditions: [
        { kind: 'gate_state', deviceId: GATE_2, in: ['cerrada', 'cerrando'] },
        { kind: 'online', deviceId: LEVEL_1 },
      ],
    });
    const { body } = await permissives(s, operator, GATE_1, 'cerrar');
    const names = await jsonOf<Array<{ id: string; name: string }>>(await s.fetch('/api/v1/devices', { cookie: admin }));
    const nameOf = (id: string) => names.body.find((d) => d.id === id)!.name;
    expect(body.reasons.map((r) => r.message)).toEqual([`Bloqueado: ${nameOf(GATE_2)} abierta, se requiere cerrada o cerrando`, `Bloqueado: ${nameOf(LEVEL_1)} desconectado`]);
  });

  it('confirm asks a comment, kept on the command and in the audit trail with what it passed', async () => {
    await gate(s, GATE_1);
    await level(s, LEVEL_2, 4.62);
    const lock = await createInterlock(s, admin, { deviceId: GATE_1, command: 'abrir', name: 'Aviso', mode: 'confirm', conditions: [{ kind: 'level', deviceId: LEVEL_2, op: '<', valueM: 4.25 }] });
    const p = await permissives(s, operator, GATE_1, 'abrir');
    expect(p.body).toMatchObject({ allowed: true, mode: 'confirm', requires: { comment: true, password: false, approval: false } });
    expect(p.body.reasons[0]!.message).toBe(`Requiere comentario: ${cleanName} en nivel alto (4,62 m ≥ 4,25 m)`);
    await expectApiError(await send(s, operator, GATE_1, { command: 'abrir' }), 422, 'COMMENT_REQUIRED');
    await expectApiError(await send(s, operator, GATE_1, { command: 'abrir', comment: '   ' }), 422, 'COMMENT_REQUIRED');
    await expectApiError(await send(s, operator, GATE_1, { command: 'abrir', comment: 'x'.repeat(501) }), 400);
    const ok = await jsonOf<{ commandId: string }>(await send(s, operator, GATE_1, { command: 'abrir', comment: 'Vaciado programado con el jefe de turno' }));
    expect(ok.status).toBe(202);
    const cmd = await getCommand(s, operator, ok.body.commandId);
    expect(cmd).toMatchObject({ comment: 'Vaciado programado con el jefe de turno', overrides: [{ interlockId: lock.id, version: 1, mode: 'confirm' }], issuedBy: { kind: 'user', username: 'operator' } });
    const issued = (await auditPage(s, admin, { action: 'command.issued' })).find((e) => e.details?.commandId === ok.body.commandId);
    expect(issued?.details).toMatchObject({ status: 'pending', comment: 'Vaciado programado con el jefe de turno', overrides: [{ interlockId: lock.id, mode: 'confirm' }], scheduleId: null });
  });

  it('reauth asks the issuer’s password: none, wrong (counted as a sign-in failure, then a lockout) and right; never stored or audited', async () => {
    await gate(s, GATE_1);
    await level(s, LEVEL_2, 4.62);
    await createInterlock(s, admin, { deviceId: GATE_1, command: 'abrir', name: 'Clave', mode: 'reauth', conditions: [{ kind: 'level', deviceId: LEVEL_2, op: '<', valueM: 4.25 }] });
    expect((await permissives(s, operator, GATE_1, 'abrir')).body.requires).toEqual({ comment: false, password: true, approval: false });
    await expectApiError(await send(s, operator, GATE_1, { command: 'abrir' }), 422, 'REAUTH_REQUIRED');
    await expectApiError(await send(s, operator, GATE_1, { command: 'abrir', password: 'wrong-one-1' }), 422, 'REAUTH_FAILED', 'Contraseña incorrecta.');
    const ok = await jsonOf<{ commandId: string }>(await send(s, operator, GATE_1, { command: 'abrir', password: 'operator123' }));
    expect(ok.status).toBe(202);
    await settle(s, operator, GATE_1);
    // LOGIN_MAX_FAILURES_PER_USER=3 here: three wrong ones, and the fourth try is a lockout, the right password too.
    for (let i = 0; i < 3; i++) await expectApiError(await send(s, operator, GATE_1, { command: 'abrir', password: `wrong-${i}-xx` }), 422, 'REAUTH_FAILED');
    const locked = await send(s, operator, GATE_1, { command: 'abrir', password: 'operator123' });
    await expectApiError(locked, 429, 'TOO_MANY_ATTEMPTS');
    const trail = JSON.stringify(await auditPage(s, admin));
    expect(trail).not.toContain('operator123');
    expect(trail).not.toContain('wrong-0-xx');
  });

  it('two persons: waits unsent, the issuer may not approve, another does and the MQTT gate gets it; a rejection and an expiry never send', async () => {
    const client = await connectDevice(s, GATE_2);
    clients.push(client);
    const received: DeviceCommandMsg[] = [];
    client.on('message', (t, payload) => {
      if (t === `agua/v1/${GATE_2}/commands`) received.push(JSON.parse(payload.toString()) as DeviceCommandMsg);
    });
    await client.subscribeAsync(`agua/v1/${GATE_2}/commands`, { qos: 1 });
    await gate(s, GATE_2);
    await level(s, LEVEL_2, 4.62);
    await createInterlock(s, admin, { deviceId: GATE_2, command: 'abrir', name: 'Dos', mode: 'two_person', conditions: [{ kind: 'level', deviceId: LEVEL_2, op: '<', valueM: 4.25 }] });
    const socket = await live(s, admin);
    try {
      const issued = await jsonOf<{ success: boolean; message: string; commandId: string; status: string }>(await send(s, operator, GATE_2, { command: 'abrir' }));
      expect(issued).toMatchObject({ status: 202, body: { success: true, message: 'Comando "abrir" en espera de aprobación', status: 'awaiting_approval' } });
      const id = issued.body.commandId;
      const waiting = await getCommand(s, admin, id);
      expect(waiting).toMatchObject({ status: 'awaiting_approval', approvedBy: null });
      expect(Date.parse(waiting.approvalExpiresAt!) - Date.parse(waiting.issuedAt)).toBe(3000);
      await socket.next((f) => f.type === 'command.updated' && (f.data as { id: string }).id === id);
      const list = await jsonOf<{ items: Array<{ id: string }> }>(await s.fetch('/api/v1/commands?status=awaiting_approval', { cookie: viewer }));
      expect(list.body.items.map((c) => c.id)).toEqual([id]);

      await expectApiError(await s.fetch(`/api/v1/commands/${id}/approve`, { method: 'POST', cookie: operator, json: {} }), 403, 'SELF_APPROVAL');
      await expectApiError(await s.fetch(`/api/v1/commands/${id}/approve`, { method: 'POST', cookie: viewer, json: {} }), 403);
      await sleep(300);
      expect(received).toEqual([]);
      const approved = await jsonOf(await s.fetch(`/api/v1/commands/${id}/approve`, { method: 'POST', cookie: admin, json: { comment: 'Visto' } }));
      expect(approved).toMatchObject({ status: 200, body: { id, approvedBy: { username: 'admin' } } });
      expect(['pending', 'delivered']).toContain((approved.body as { status: string }).status);
      await waitFor(() => received.find((c) => c.id === id), 3000);
      await expectApiError(await s.fetch(`/api/v1/commands/${id}/approve`, { method: 'POST', cookie: admin, json: {} }), 409, 'COMMAND_NOT_AWAITING_APPROVAL');
      await client.publishAsync(`agua/v1/${GATE_2}/commands/ack`, JSON.stringify({ id, success: true, state: 'abriendo' }), { qos: 1 });
      await waitForCommandStatus(s, admin, id, 'succeeded');

      // Rejected by its issuer: never sent.
      const second = (await (await send(s, operator, GATE_2, { command: 'abrir' })).json()) as { commandId: string };
      const rejected = await jsonOf(await s.fetch(`/api/v1/commands/${second.commandId}/reject`, { method: 'POST', cookie: operator, json: { comment: 'Me equivoqué' } }));
      expect(rejected).toMatchObject({ status: 200, body: { status: 'rejected' } });
      // Left alone: expired after APPROVAL_TIMEOUT_S (3 s here).
      const third = (await (await send(s, operator, GATE_2, { command: 'abrir' })).json()) as { commandId: string };
      await waitForCommandStatus(s, admin, third.commandId, 'expired', 6000);
      // Superseded by a later command accepted for the gate.
      const fourth = (await (await send(s, operator, GATE_2, { command: 'abrir' })).json()) as { commandId: string };
      expect((await jsonOf(await send(s, admin, GATE_2, { command: 'detener' }))).status).toBe(202);
      expect((await getCommand(s, admin, fourth.commandId)).status).toBe('superseded');
      expect(received.map((c) => c.id)).not.toContain(second.commandId);
      expect(received.map((c) => c.id)).not.toContain(third.commandId);
      expect(received.map((c) => c.id)).not.toContain(fourth.commandId);
      const actions = (await auditPage(s, admin)).map((e) => e.action);
      for (const a of ['command.approved', 'command.rejected', 'command.expired']) expect(actions).toContain(a);
    } finally {
      socket.close();
    }
  });

  it('at approval the device is judged again: a block that now fails answers the approver and the command waits on', async () => {
    await gate(s, GATE_1);
    await level(s, LEVEL_2, 4.62);
    await createInterlock(s, admin, { deviceId: GATE_1, command: 'abrir', name: 'Dos', mode: 'two_person', conditions: [{ kind: 'level', deviceId: LEVEL_2, op: '<', valueM: 4.25 }] });
    const { commandId } = (await (await send(s, operator, GATE_1, { command: 'abrir' })).json()) as { commandId: string };
    await createInterlock(s, admin, { deviceId: GATE_1, command: 'abrir', name: 'Muy alto', mode: 'block', conditions: [{ kind: 'level', deviceId: LEVEL_2, op: '<', valueM: 4.5 }] });
    const refused = await expectApiError(await s.fetch(`/api/v1/commands/${commandId}/approve`, { method: 'POST', cookie: admin, json: {} }), 409, 'INTERLOCKED');
    expect((refused.details as { reasons: Array<{ message: string }> }).reasons[0]!.message).toBe(`Bloqueado: ${cleanName} en nivel alto (4,62 m ≥ 4,50 m)`);
    expect((await getCommand(s, admin, commandId)).status).toBe('awaiting_approval');
  });

  it('a bypass lets the command pass (recorded as such), shows in every hello, and ends by itself or by hand, audited', async () => {
    await gate(s, GATE_1);
    await level(s, LEVEL_2, 4.62);
    const lock = await createInterlock(s, admin, { deviceId: GATE_1, command: 'abrir', name: 'Tanque alto', mode: 'block', conditions: [{ kind: 'level', deviceId: LEVEL_2, op: '<', valueM: 4.25 }] });
    await expectApiError(await s.fetch(`/api/v1/interlocks/${lock.id}/bypass`, { method: 'POST', cookie: admin, json: { minutes: 0, comment: 'x' } }), 422, 'INVALID_VALUE');
    await expectApiError(await s.fetch(`/api/v1/interlocks/${lock.id}/bypass`, { method: 'POST', cookie: admin, json: { minutes: 721, comment: 'x' } }), 422, 'INVALID_VALUE');
    await expectApiError(await s.fetch(`/api/v1/interlocks/${lock.id}/bypass`, { method: 'POST', cookie: admin, json: { minutes: 30, comment: '  ' } }), 422, 'INVALID_VALUE');
    await expectApiError(await s.fetch(`/api/v1/interlocks/${lock.id}/bypass`, { method: 'POST', cookie: operator, json: { minutes: 30, comment: 'x' } }), 403);

    const socket = await live(s, viewer);
    try {
      const by = await jsonOf<Interlock>(await s.fetch(`/api/v1/interlocks/${lock.id}/bypass`, { method: 'POST', cookie: admin, json: { minutes: 30, comment: 'Sensor en mantenimiento' } }));
      expect(by.status).toBe(200);
      expect(by.body.bypass).toMatchObject({ by: { username: 'admin' }, comment: 'Sensor en mantenimiento' });
      expect(Math.abs(Date.parse(by.body.bypass!.until) - Date.now() - 30 * 60_000)).toBeLessThan(5_000);
      await socket.next((f) => f.type === 'interlock.updated' && (f.data as Interlock).bypass !== null);
      const p = await permissives(s, operator, GATE_1, 'abrir');
      expect(p.body).toMatchObject({ allowed: true, mode: null, reasons: [], bypassed: [{ interlockId: lock.id, name: 'Tanque alto', until: by.body.bypass!.until }] });
      const sent = (await (await issueCommand(s, operator, GATE_1, 'abrir')).json()) as { commandId: string };
      expect((await getCommand(s, operator, sent.commandId)).overrides).toEqual([{ interlockId: lock.id, version: 2, mode: 'bypass' }]);

      const again = await live(s, viewer);
      const hello = await again.next((f) => f.type === 'hello');
      again.close();
      expect((hello.data as { bypasses: Interlock[] }).bypasses.map((i) => i.id)).toEqual([lock.id]);

      // Ended by hand.
      const ended = await jsonOf<Interlock>(await s.fetch(`/api/v1/interlocks/${lock.id}/bypass`, { method: 'DELETE', cookie: admin }));
      expect(ended.body.bypass).toBeNull();
      expect((await permissives(s, operator, GATE_1, 'abrir')).body.allowed).toBe(false);

      // Ends by itself at `until`: a bypass whose time is moved to a second from now (a minute is the least one can ask for).
      await s.fetch(`/api/v1/interlocks/${lock.id}/bypass`, { method: 'POST', cookie: admin, json: { minutes: 1, comment: 'Prueba corta' } });
      const until = Date.now() + 1_000;
      const seen = socket.frames.length;
      await s.modules.storage.db.updateTable('interlocks').set({ bypass_until_ms: until }).where('id', '=', lock.id).execute();
      const frame = await socket.next((f) => f.type === 'interlock.updated' && (f.data as Interlock).id === lock.id && (f.data as Interlock).bypass === null, 5_000, seen);
      expect(Date.now() - until).toBeLessThan(2_500);
      expect((frame.data as Interlock).version).toBe(5);
      const trail = (await auditPage(s, admin)).filter((e) => e.target === `interlock:${lock.id}`);
      expect(trail.filter((e) => e.action === 'interlock.bypassed')).toHaveLength(2);
      expect(trail.filter((e) => e.action === 'interlock.bypass_ended').map((e) => e.details?.reason).sort()).toEqual(['ended', 'expired']);
    } finally {
      socket.close();
    }
  });
});
