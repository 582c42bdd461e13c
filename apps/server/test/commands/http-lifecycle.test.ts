// docs/protocol.md "Commands" and "HTTP": the command lifecycle with a device that speaks HTTP only
// (long poll, telemetry answers, acknowledgements), against the real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey, startServer, type TestServer } from '../helpers/server';
import { GATE_1, GATE_2, LEVEL_1, LEVEL_2, gateMsg, getDevice, levelMsg, postTelemetry, sleep, waitFor } from '../helpers/protocol';
import {
  ISO_Z,
  ackHttp,
  expectApiError,
  getCommand,
  issueCommand,
  issueOk,
  jsonOf,
  longPoll,
  waitForCommandStatus,
  type DeviceCommandMsg,
} from '../helpers/api';

/** Opens a long poll and waits until the server counts it (the device shows online). */
async function openLongPoll(s: TestServer, cookie: string, deviceId: string, wait = '25') {
  const abort = new AbortController();
  const started = Date.now();
  const pending = longPoll(s, deviceId, { wait, signal: abort.signal }).then(async (res) => ({
    ...(await jsonOf<DeviceCommandMsg[]>(res)),
    at: Date.now(),
  }));
  pending.catch(() => undefined); // aborted at the end of a test
  await waitFor(async () => (await getDevice(s, cookie, deviceId)).status === 'online', 3000);
  return { pending, abort, started };
}

async function telemetryCommands(s: TestServer, body: unknown): Promise<DeviceCommandMsg[]> {
  const res = await postTelemetry(s, body);
  const { status, body: out } = await jsonOf<{ accepted: number; duplicates: number; commands: DeviceCommandMsg[] }>(res);
  expect({ status, out }).toMatchObject({ status: 202 });
  expect(Array.isArray(out.commands)).toBe(true);
  return out.commands;
}

function expectDeviceCommand(c: DeviceCommandMsg, id: string, command: string) {
  expect(Object.keys(c).sort()).toEqual(['command', 'expiresAt', 'id', 'issuedAt']);
  expect(c).toMatchObject({ id, command });
  expect(c.issuedAt).toMatch(ISO_Z);
  expect(c.expiresAt).toMatch(ISO_Z);
  expect(Date.parse(c.expiresAt)).toBeGreaterThan(Date.parse(c.issuedAt));
}

describe('HTTP device: lifecycle (COMMAND_TIMEOUT_S=10)', () => {
  let s: TestServer;
  let operator: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '60' });
    operator = await s.login('operator');
  });
  afterAll(async () => s.close());

  it('long poll gets abrir at once; delivered; success ack → succeeded; gate state follows ack then telemetry', async () => {
    const before = await getDevice(s, operator, GATE_1);
    expect(before.status).toBe('offline'); // SIMULATE=false: never heard yet

    const poll = await openLongPoll(s, operator, GATE_1);
    const res = await issueCommand(s, operator, GATE_1, 'abrir');
    const issuedAt = Date.now();
    const { status, body } = await jsonOf(res);
    expect(status).toBe(202);
    expect(Object.keys(body).sort()).toEqual(['commandId', 'message', 'success']);
    expect(body).toMatchObject({ success: true, message: 'Comando "abrir" enviado exitosamente' });
    const commandId = body.commandId as string;

    const answered = await poll.pending;
    expect(answered.status).toBe(200);
    expect(answered.at - issuedAt).toBeLessThan(1000); // at once, not after the 25 s wait
    expect(answered.body).toHaveLength(1);
    expectDeviceCommand(answered.body[0]!, commandId, 'abrir');
    // The device held a long poll, so COMMAND_TIMEOUT_S (10 s) applies.
    expect(Date.parse(answered.body[0]!.expiresAt) - Date.parse(answered.body[0]!.issuedAt)).toBe(10_000);

    const delivered = await getCommand(s, operator, commandId);
    expect(delivered).toMatchObject({ id: commandId, deviceId: GATE_1, command: 'abrir', status: 'delivered', completedAt: null, message: null });
    expect(delivered.issuedBy).toMatchObject({ username: 'operator', name: 'Juan Pérez' });
    expect(delivered.issuedAt).toMatch(ISO_Z);
    expect(delivered.deliveredAt).toMatch(ISO_Z);

    const ack = await ackHttp(s, GATE_1, commandId, { success: true, state: 'abriendo' });
    expect(await jsonOf(ack)).toEqual({ status: 200, body: { status: 'succeeded' } });

    const done = await getCommand(s, operator, commandId);
    expect(done.status).toBe('succeeded');
    expect(done.completedAt).toMatch(ISO_Z);
    const moving = await getDevice(s, operator, GATE_1);
    expect(moving.config.state).toBe('abriendo');
    expect((moving as unknown as { lastCommand: { id: string; status: string } }).lastCommand).toMatchObject({ id: commandId, status: 'succeeded' });

    expect(await telemetryCommands(s, gateMsg(GATE_1, 'abierta'))).toEqual([]);
    const open = await getDevice(s, operator, GATE_1);
    expect(open.config.state).toBe('abierta');
    expect(open.reading).toMatchObject({ value: 'abierta', unit: null, status: 'normal' });
  });

  it('a device that only posts gets the waiting command in the telemetry answer; failure ack → failed with its message', async () => {
    // GATE_1 was heard by the previous test (offline after 60 s): it is online and holds no long poll.
    expect((await getDevice(s, operator, GATE_1)).status).toBe('online');
    const id = await issueOk(s, operator, GATE_1, 'cerrar');
    expect((await getCommand(s, operator, id)).status).toBe('pending'); // nobody to hand it to yet

    const cmds = await telemetryCommands(s, gateMsg(GATE_1, 'abierta'));
    expect(cmds).toHaveLength(1);
    expectDeviceCommand(cmds[0]!, id, 'cerrar');
    // A device that only posts gets its own offline timeout (60 s) rather than COMMAND_TIMEOUT_S.
    expect(Date.parse(cmds[0]!.expiresAt) - Date.parse(cmds[0]!.issuedAt)).toBe(60_000);
    expect((await getCommand(s, operator, id)).status).toBe('delivered');

    const ack = await ackHttp(s, GATE_1, id, { success: false, message: 'Motor bloqueado' });
    expect(await jsonOf(ack)).toEqual({ status: 200, body: { status: 'failed' } });
    const failed = await getCommand(s, operator, id);
    expect(failed).toMatchObject({ status: 'failed', message: 'Motor bloqueado' });
    expect(failed.completedAt).toMatch(ISO_Z);
    expect((await getDevice(s, operator, GATE_1)).config.state).toBe('abierta'); // nothing moved

    // Settled: a new command is accepted (no COMMAND_IN_PROGRESS), and a repeated ack does not revive it.
    const again = await ackHttp(s, GATE_1, id, { success: true });
    expect(await jsonOf(again)).toEqual({ status: 200, body: { status: 'failed' } });
    expect((await getCommand(s, operator, id)).status).toBe('failed');
  });

  it('acknowledgement errors: unknown id 404, wrong device key 403/401, no key 401, bad bodies 400/422 (command untouched)', async () => {
    expect(await telemetryCommands(s, gateMsg(GATE_2, 'cerrada'))).toEqual([]);
    const id = await issueOk(s, operator, GATE_2, 'abrir');
    const cmds = await telemetryCommands(s, gateMsg(GATE_2, 'cerrada'));
    expect(cmds.map((c) => c.id)).toEqual([id]);

    await expectApiError(await ackHttp(s, GATE_2, 'cmd_does_not_exist', { success: true }), 404);
    // Another device's key on this device's route.
    const mismatch = await ackHttp(s, GATE_2, id, { success: true }, { key: demoKey(GATE_1) });
    expect([401, 403]).toContain(mismatch.status);
    const mismatchBody = (await mismatch.json()) as { code: string };
    if (mismatch.status === 403) expect(mismatchBody.code).toBe('DEVICE_ID_MISMATCH');
    // Another device acknowledging (on its own route) a command that is not its own.
    await expectApiError(await ackHttp(s, GATE_1, id, { success: true }), 404);
    await expectApiError(await ackHttp(s, GATE_2, id, { success: true }, { key: null }), 401);
    await expectApiError(await ackHttp(s, GATE_2, id, { success: true }, { key: 'demo-key-wrong' }), 401);

    for (const bad of [{}, { success: 'yes' }, { state: 'abriendo' }, [], null, 'true']) {
      const r = await ackHttp(s, GATE_2, id, bad);
      expect({ bad, status: r.status }).toEqual({ bad, status: 400 });
    }
    await expectApiError(await ackHttp(s, GATE_2, id, null, { raw: '{not json' }), 400);
    const volando = await ackHttp(s, GATE_2, id, { success: true, state: 'volando' });
    expect([400, 422]).toContain(volando.status);
    const tooLong = await ackHttp(s, GATE_2, id, { success: false, message: 'x'.repeat(5000) });
    expect([400, 422]).toContain(tooLong.status);

    // None of that touched the command or the gate.
    expect((await getCommand(s, operator, id)).status).toBe('delivered');
    expect((await getDevice(s, operator, GATE_2)).config.state).toBe('cerrada');

    expect(await jsonOf(await ackHttp(s, GATE_2, id, { success: true, state: 'abriendo' }))).toEqual({ status: 200, body: { status: 'succeeded' } });
    expect((await getDevice(s, operator, GATE_2)).config.state).toBe('abriendo');
  });

  it('long poll parameters: wait=abc 400, wait=0 answers [] at once, wait=1 answers [] after about 1 s', async () => {
    for (const wait of ['abc', '-1', '1.5', '', '1e3']) {
      const res = await longPoll(s, LEVEL_1, { wait });
      expect({ wait, status: res.status }).toEqual({ wait, status: 400 });
    }
    let t = Date.now();
    const zero = await longPoll(s, LEVEL_1, { wait: '0' });
    expect(await jsonOf(zero)).toEqual({ status: 200, body: [] });
    expect(Date.now() - t).toBeLessThan(500);

    t = Date.now();
    const one = await longPoll(s, LEVEL_1, { wait: '1' });
    expect(await jsonOf(one)).toEqual({ status: 200, body: [] });
    const took = Date.now() - t;
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(2500);
  });

  it('long poll needs the key of that device: none 401, wrong 401, another device 403, a session alone 401', async () => {
    await expectApiError(await longPoll(s, LEVEL_1, { wait: '0', key: null }), 401);
    await expectApiError(await longPoll(s, LEVEL_1, { wait: '0', key: 'nope' }), 401);
    await expectApiError(await longPoll(s, LEVEL_1, { wait: '0', key: demoKey(LEVEL_2) }), 403, 'DEVICE_ID_MISMATCH');
    await expectApiError(await longPoll(s, LEVEL_1, { wait: '0', key: null, headers: { cookie: operator } }), 401);
  });

  it('a command issued after the device abandoned its long poll is not lost to that poll: the next poll gets it', async () => {
    const poll = await openLongPoll(s, operator, LEVEL_2);
    poll.abort.abort();
    await sleep(200); // the server sees the connection close
    // Heard a moment ago (offline after 60 s), so it is still online and takes commands.
    expect((await getDevice(s, operator, LEVEL_2)).status).toBe('online');
    const id = await issueOk(s, operator, LEVEL_2, 'read');
    expect((await getCommand(s, operator, id)).status).toBe('pending'); // not handed to the dead poll
    const t = Date.now();
    const next = await jsonOf<DeviceCommandMsg[]>(await longPoll(s, LEVEL_2, { wait: '5' }));
    expect(Date.now() - t).toBeLessThan(1000);
    expect(next.status).toBe(200);
    expect(next.body.map((c) => c.id)).toEqual([id]);
    expect(await jsonOf(await ackHttp(s, LEVEL_2, id, { success: true }))).toEqual({ status: 200, body: { status: 'succeeded' } });
    expect(await telemetryCommands(s, levelMsg(LEVEL_2, 1.5))).toEqual([]);
  });
});

describe('HTTP device: timeout (COMMAND_TIMEOUT_S=1)', () => {
  let s: TestServer;
  let operator: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', COMMAND_TIMEOUT_S: '1', DEVICE_OFFLINE_AFTER_S: '60' });
    operator = await s.login('operator');
  });
  afterAll(async () => s.close());

  it('no ack → timed_out after about 1–2 s; a late ack does not revive it but its gate state is applied', async () => {
    const poll = await openLongPoll(s, operator, GATE_1);
    const issuedAt = Date.now();
    const id = await issueOk(s, operator, GATE_1, 'abrir');
    const got = await poll.pending;
    expect(got.body.map((c) => c.id)).toEqual([id]);
    expect(Date.parse(got.body[0]!.expiresAt) - Date.parse(got.body[0]!.issuedAt)).toBe(1000);

    const timedOut = await waitForCommandStatus(s, operator, id, 'timed_out', 4000);
    const took = Date.now() - issuedAt;
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(3000);
    expect(timedOut.completedAt).toMatch(ISO_Z);

    // Never handed out again.
    expect(await jsonOf(await longPoll(s, GATE_1, { wait: '0' }))).toEqual({ status: 200, body: [] });
    expect(await telemetryCommands(s, gateMsg(GATE_1, 'cerrada'))).toEqual([]);
    expect((await getDevice(s, operator, GATE_1)).config.state).toBe('cerrada');

    const late = await ackHttp(s, GATE_1, id, { success: true, state: 'abriendo' });
    expect(await jsonOf(late)).toEqual({ status: 200, body: { status: 'timed_out' } });
    expect((await getCommand(s, operator, id)).status).toBe('timed_out');
    expect((await getDevice(s, operator, GATE_1)).config.state).toBe('abriendo');

    // The device is free for a new command.
    const next = await issueOk(s, operator, GATE_1, 'cerrar');
    expect(next).not.toBe(id);
  });

  it('a device that only posts gets its own offline timeout instead of COMMAND_TIMEOUT_S', async () => {
    expect(await telemetryCommands(s, levelMsg(LEVEL_1, 2))).toEqual([]);
    const id = await issueOk(s, operator, LEVEL_1, 'read');
    const cmds = await telemetryCommands(s, levelMsg(LEVEL_1, 2.1));
    expect(cmds.map((c) => c.id)).toEqual([id]);
    expect(Date.parse(cmds[0]!.expiresAt) - Date.parse(cmds[0]!.issuedAt)).toBe(60_000);
    await sleep(1500);
    expect((await getCommand(s, operator, id)).status).toBe('delivered'); // not timed out after COMMAND_TIMEOUT_S
    expect(await jsonOf(await ackHttp(s, LEVEL_1, id, { success: true }))).toEqual({ status: 200, body: { status: 'succeeded' } });
  });
});

describe('HTTP device: handed out again after 5 s without ack (COMMAND_TIMEOUT_S=20)', () => {
  let s: TestServer;
  let operator: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', COMMAND_TIMEOUT_S: '20', DEVICE_OFFLINE_AFTER_S: '60' });
    operator = await s.login('operator');
  });
  afterAll(async () => s.close());

  it('the same command id comes again on a telemetry answer / long poll after 5 s, not before', async () => {
    expect(await telemetryCommands(s, levelMsg(LEVEL_1, 3))).toEqual([]);
    const id = await issueOk(s, operator, LEVEL_1, 'read');

    const first = await telemetryCommands(s, levelMsg(LEVEL_1, 3.1));
    const handedAt = Date.now();
    expect(first.map((c) => c.id)).toEqual([id]);
    const deliveredAt = (await getCommand(s, operator, id)).deliveredAt;
    expect(deliveredAt).toMatch(ISO_Z);

    // Within 5 s: neither a telemetry answer nor a long poll hands it out again.
    expect(await telemetryCommands(s, levelMsg(LEVEL_1, 3.2))).toEqual([]);
    expect(await jsonOf(await longPoll(s, LEVEL_1, { wait: '0' }))).toEqual({ status: 200, body: [] });
    await sleep(Math.max(0, handedAt + 3000 - Date.now()));
    expect(await telemetryCommands(s, levelMsg(LEVEL_1, 3.3))).toEqual([]);

    await sleep(Math.max(0, handedAt + 5200 - Date.now()));
    const again = await telemetryCommands(s, levelMsg(LEVEL_1, 3.4));
    expect(again).toHaveLength(1);
    expect(again[0]).toEqual(first[0]); // same id, same issuedAt/expiresAt
    const redeliveredAt = Date.now();
    // Still delivered (first delivery time kept), not a new command.
    const still = await getCommand(s, operator, id);
    expect(still).toMatchObject({ status: 'delivered', deliveredAt });

    // The next hand-out is again 5 s away: a long poll right now gets nothing.
    expect(await jsonOf(await longPoll(s, LEVEL_1, { wait: '0' }))).toEqual({ status: 200, body: [] });
    expect(Date.now() - redeliveredAt).toBeLessThan(4000);

    expect(await jsonOf(await ackHttp(s, LEVEL_1, id, { success: true }))).toEqual({ status: 200, body: { status: 'succeeded' } });
    expect(await telemetryCommands(s, levelMsg(LEVEL_1, 3.5))).toEqual([]);
  });

  it('a long poll opened after 5 s gets the unacknowledged command at once', async () => {
    const poll = await openLongPoll(s, operator, LEVEL_2);
    const id = await issueOk(s, operator, LEVEL_2, 'read');
    const got = await poll.pending;
    const handedAt = Date.now();
    expect(got.body.map((c) => c.id)).toEqual([id]);

    await sleep(Math.max(0, handedAt + 5200 - Date.now()));
    const t = Date.now();
    const again = await jsonOf<DeviceCommandMsg[]>(await longPoll(s, LEVEL_2, { wait: '10' }));
    expect(Date.now() - t).toBeLessThan(1000);
    expect(again.body).toEqual(got.body);
    expect(await jsonOf(await ackHttp(s, LEVEL_2, id, { success: true }))).toEqual({ status: 200, body: { status: 'succeeded' } });
  });

  it('a long poll held open across the 5 s mark is answered with the unacknowledged command (same id)', async () => {
    const poll = await openLongPoll(s, operator, GATE_1);
    const id = await issueOk(s, operator, GATE_1, 'abrir');
    const got = await poll.pending;
    const handedAt = Date.now();
    expect(got.body.map((c) => c.id)).toEqual([id]);

    // The device lost its ack and went straight back to waiting, as HTTP firmware does.
    const abort = new AbortController();
    const res = await longPoll(s, GATE_1, { wait: '12', signal: abort.signal });
    const again = await jsonOf<DeviceCommandMsg[]>(res);
    const after = Date.now() - handedAt;
    expect({ body: again.body, within: after < 7500 }).toEqual({ body: got.body, within: true });
    expect(after).toBeGreaterThanOrEqual(4800);
    expect(await jsonOf(await ackHttp(s, GATE_1, id, { success: true, state: 'abriendo' }))).toEqual({ status: 200, body: { status: 'succeeded' } });
  });
});
