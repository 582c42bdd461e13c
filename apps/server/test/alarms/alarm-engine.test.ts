// docs/alarms.md end to end over real HTTP, MQTT-free: readings raise and return level alarms with
// deadband, people acknowledge and shelve them (audited, 403 without write, 409 when it does not
// apply), a silent device, a gate fault and a failed command raise theirs, a disabled device or
// rule suppresses, every transition reaches the live socket as alarm.updated and the hello
// carries the open ones, and a restart neither loses nor repeats an alarm.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alarm, AlarmRule } from '@agua/shared';
import { ackHttp, auditPage, expectApiError, issueOk, jsonOf, longPoll } from '../helpers/api';
import { GATE_1, GATE_2, LEVEL_2, gateMsg, levelMsg, openLive, postTelemetry, sleep, waitFor, type LiveSocket } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';
import { sqlValue } from '../helpers/sql';

type AlarmWithTransitions = Alarm & { transitions: Array<{ at: string; from: string | null; to: string; by: { username: string } | null; comment: string | null }> };

describe('alarm engine', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let admin: string;
  let operator: string;
  let viewer: string;
  let live: LiveSocket;
  let ts = Date.now() - 600_000;

  /** Posts a level of esp32_nivel_02 (each reading a second after the last). */
  async function level(value: number): Promise<void> {
    ts += 1000;
    const res = await postTelemetry(s, levelMsg(LEVEL_2, value, { ts }));
    expect(res.status).toBe(202);
    await res.body?.cancel();
  }

  async function openAlarms(): Promise<Alarm[]> {
    const { status, body } = await jsonOf<{ items: Alarm[]; nextCursor: null }>(await s.fetch('/api/v1/alarms?state=open', { cookie: viewer }));
    expect(status).toBe(200);
    return body.items;
  }

  const openOf = async (kind: Alarm['kind'], deviceId = LEVEL_2) => (await openAlarms()).find((a) => a.kind === kind && a.deviceId === deviceId);
  /** Waits until the device's alarm of that kind is open in that state. */
  const waitOpen = (kind: Alarm['kind'], state: Alarm['state'], deviceId = LEVEL_2) =>
    waitFor(async () => {
      const a = await openOf(kind, deviceId);
      return a?.state === state ? a : null;
    }, 5000) as Promise<Alarm>;
  /** Waits until no alarm of the device matches. */
  const waitClosed = (match: (a: Alarm) => boolean) => waitFor(async () => !(await openAlarms()).some(match), 5000);
  const post = (path: string, cookie: string, json?: unknown) => s.fetch(path, { method: 'POST', cookie, ...(json !== undefined ? { json } : {}) });

  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '2', LOG_LEVEL: process.env.DEBUG_ALARMS ? 'error' : 'silent' }, { dataDir });
    [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
    if (process.env.DEBUG_ALARMS) {
      s.modules.bus.on('alarm.updated', (a) => console.log('ALARM', a.kind, a.deviceId, a.state, a.id));
      s.modules.bus.on('reading.created', (r) => console.log('READING', r.deviceId, r.reading.value, r.reading.ts));
    }
    const opened = await openLive(s, { cookie: viewer });
    if (!opened.live) throw new Error('live socket refused');
    live = opened.live;
  });
  afterAll(async () => {
    live?.close();
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a level over HH raises HH (critica) and H (media) as unack, pushed live with a Spanish message', async () => {
    // The demo's esp32_compuerta_02 was last heard 5 minutes before the start: its silence is the only alarm.
    const hello = (await live.next((f) => f.type === 'hello')).data.alarms as Alarm[];
    expect(hello.map((a) => [a.deviceId, a.kind, a.state])).toEqual([[GATE_2, 'device_offline', 'unack']]);
    await level(4.6); // 92 % of 5 m
    const frame = await live.next((f) => f.type === 'alarm.updated' && f.data.kind === 'level_high_high');
    expect(frame.data).toMatchObject({ deviceId: LEVEL_2, priority: 1, state: 'unack', value: 4.6, message: 'Nivel muy alto: 4,60 m (92 % de 5,00 m)', ackedBy: null, clearedAt: null });
    const open = (await openAlarms()).filter((a) => a.deviceId === LEVEL_2);
    expect(open.map((a) => [a.kind, a.priority, a.state])).toEqual([
      ['level_high_high', 1, 'unack'],
      ['level_high', 3, 'unack'],
    ]);
  });

  it('deadband: HH holds at 84 % (above 85 − 2), returns below 83 %; a reading at fault changes nothing', async () => {
    await level(4.2); // 84 %
    await sleep(100);
    expect((await openOf('level_high_high'))?.state).toBe('unack');
    await level(9); // 180 %: the sensor is at fault, not the tank
    await sleep(100);
    expect((await openOf('level_high_high'))?.state).toBe('unack');
    await level(4.1); // 82 %
    const back = await waitOpen('level_high_high', 'rtn_unack');
    expect(back.clearedAt).not.toBeNull();
    expect(back.peakValue).toBe(4.6);
  });

  it('the condition coming back while rtn_unack returns the same alarm to unack', async () => {
    const before = await openOf('level_high_high');
    await level(4.5);
    const again = await waitOpen('level_high_high', 'unack');
    expect(again.id).toBe(before!.id);
    expect(again.clearedAt).toBeNull();
    await level(4.0); // 80 %: HH back to normal again, H still active
    await waitOpen('level_high_high', 'rtn_unack');
  });

  it('acknowledgement: viewer 403; rtn_unack → cleared, unack → ack, then 409; audited with the comment', async () => {
    const hh = (await openOf('level_high_high'))!;
    const h = (await openOf('level_high'))!;
    await expectApiError(await post(`/api/v1/alarms/${hh.id}/ack`, viewer, {}), 403);
    const cleared = await jsonOf<Alarm>(await post(`/api/v1/alarms/${hh.id}/ack`, operator, { comment: 'Revisado en campo' }));
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ state: 'cleared', ackComment: 'Revisado en campo', ackedBy: { username: 'operator' } });
    const acked = await jsonOf<Alarm>(await post(`/api/v1/alarms/${h.id}/ack`, operator));
    expect(acked.body.state).toBe('ack');
    await expectApiError(await post(`/api/v1/alarms/${h.id}/ack`, operator, {}), 409, 'ALARM_NOT_ACKABLE');
    await expectApiError(await post(`/api/v1/alarms/${hh.id}/ack`, operator, {}), 409, 'ALARM_NOT_ACKABLE');
    await expectApiError(await post('/api/v1/alarms/alm_nope/ack', operator, {}), 404, 'ALARM_NOT_FOUND');
    const audited = (await auditPage(s, admin, { action: 'alarm.acked' })).find((e) => e.target === `alarm:${hh.id}`);
    expect(audited).toMatchObject({ result: 'ok', username: 'operator', details: { comment: 'Revisado en campo', state: 'cleared' } });

    const detail = await jsonOf<AlarmWithTransitions>(await s.fetch(`/api/v1/alarms/${hh.id}`, { cookie: viewer }));
    expect(detail.body.transitions.map((t) => [t.from, t.to])).toEqual([
      [null, 'unack'],
      ['unack', 'rtn_unack'],
      ['rtn_unack', 'unack'],
      ['unack', 'rtn_unack'],
      ['rtn_unack', 'cleared'],
    ]);
    expect(detail.body.transitions[4]).toMatchObject({ by: { username: 'operator' }, comment: 'Revisado en campo' });
    // An acknowledged alarm whose condition goes ends as cleared.
    await level(2.5); // 50 %: below H − deadband
    await waitClosed((a) => a.deviceId === LEVEL_2 && a.kind === 'level_high');
  });

  it('shelving: 422 without a comment or out of 1–720 minutes; shelved until lifted, then back to what the condition says', async () => {
    await level(4.6);
    const hh = await waitOpen('level_high_high', 'unack');
    for (const body of [{ minutes: 10 }, { minutes: 10, comment: '  ' }, { minutes: 0, comment: 'x' }, { minutes: 721, comment: 'x' }, { minutes: 1.5, comment: 'x' }]) {
      await expectApiError(await post(`/api/v1/alarms/${hh.id}/shelve`, operator, body), 422);
    }
    const shelved = await jsonOf<Alarm>(await post(`/api/v1/alarms/${hh.id}/shelve`, operator, { minutes: 30, comment: 'Mantenimiento del sensor' }));
    expect(shelved.body).toMatchObject({ state: 'shelved', shelveComment: 'Mantenimiento del sensor', shelvedBy: { username: 'operator' } });
    expect(Date.parse(shelved.body.shelvedUntil!) - Date.now()).toBeGreaterThan(29 * 60_000);
    await expectApiError(await post(`/api/v1/alarms/${hh.id}/ack`, operator, {}), 409, 'ALARM_NOT_ACKABLE');
    // Still active when lifted: a person must see it again.
    const lifted = await jsonOf<Alarm>(await post(`/api/v1/alarms/${hh.id}/unshelve`, operator));
    expect(lifted.body.state).toBe('unack');
    await expectApiError(await post(`/api/v1/alarms/${hh.id}/unshelve`, operator), 409, 'ALARM_NOT_SHELVED');
    // Shelved while active, condition gone meanwhile: lifted → cleared.
    await post(`/api/v1/alarms/${hh.id}/shelve`, operator, { minutes: 5, comment: 'otra vez' });
    await level(2.5);
    await sleep(100);
    expect((await openOf('level_high_high'))?.state).toBe('shelved');
    expect((await jsonOf<Alarm>(await post(`/api/v1/alarms/${hh.id}/unshelve`, operator))).body.state).toBe('cleared');
    expect((await auditPage(s, admin, { action: 'alarm.shelved' })).filter((e) => e.target === `alarm:${hh.id}`)).toHaveLength(2);
  });

  it('a gate reporting falla raises gate_fault (critica); a final state returns it', async () => {
    const poll = async (v: string) => {
      const res = await postTelemetry(s, gateMsg(GATE_2, v));
      expect(res.status).toBe(202);
      await res.body?.cancel();
    };
    await poll('falla');
    const fault = await waitOpen('gate_fault', 'unack', GATE_2);
    expect(fault).toMatchObject({ priority: 1, message: 'Falla de compuerta', value: 'falla' });
    await poll('cerrada');
    await waitOpen('gate_fault', 'rtn_unack', GATE_2);
  });

  it('a device that falls silent raises device_offline (alta); talking again returns it', async () => {
    // GATE_2 talked above (its offline alarm returned); DEVICE_OFFLINE_AFTER_S=2.
    await waitOpen('device_offline', 'rtn_unack', GATE_2);
    const offline = await waitOpen('device_offline', 'unack', GATE_2);
    expect(offline).toMatchObject({ priority: 2, message: 'Equipo sin señal' });
    const res = await postTelemetry(s, gateMsg(GATE_2, 'cerrada'));
    expect(res.status).toBe(202);
    await waitOpen('device_offline', 'rtn_unack', GATE_2);
  });

  it('a failed command raises command_failed (media), already returned: it only waits for an ack', async () => {
    const polling = longPoll(s, GATE_1, { wait: '20' });
    await sleep(100);
    const commandId = await issueOk(s, operator, GATE_1, 'abrir');
    await (await polling).body?.cancel();
    expect((await ackHttp(s, GATE_1, commandId, { success: false, message: 'motor bloqueado' })).status).toBe(200);
    const failed = await waitOpen('command_failed', 'rtn_unack', GATE_1);
    expect(failed).toMatchObject({ priority: 3, message: "Comando 'abrir' fallido: motor bloqueado" });
    const transitions = (await jsonOf<AlarmWithTransitions>(await s.fetch(`/api/v1/alarms/${failed.id}`, { cookie: viewer }))).body.transitions;
    expect(transitions.map((t) => t.to)).toEqual(['unack', 'rtn_unack']);
  });

  it('acknowledging several: the ones waiting are acked, the others skipped', async () => {
    const waiting = (await openAlarms()).filter((a) => a.state === 'unack' || a.state === 'rtn_unack');
    expect(waiting.length).toBeGreaterThan(0);
    const { body } = await jsonOf<{ acked: string[]; skipped: string[] }>(await post('/api/v1/alarms/ack', operator, { ids: [...waiting.map((a) => a.id), 'alm_nope'], comment: 'turno de noche' }));
    expect(body).toEqual({ acked: waiting.map((a) => a.id), skipped: ['alm_nope'] });
    await expectApiError(await post('/api/v1/alarms/ack', operator, { ids: [] }), 400);
  });

  it('a disabled rule or a disabled device ends its open alarms as suppressed', async () => {
    await level(4.6);
    const hh = await waitOpen('level_high_high', 'unack');
    const rules = (await jsonOf<AlarmRule[]>(await s.fetch(`/api/v1/devices/${LEVEL_2}/alarm-rules`, { cookie: admin }))).body;
    const hhRule = rules.find((r) => r.kind === 'level_high_high')!;
    expect((await s.fetch(`/api/v1/devices/${LEVEL_2}/alarm-rules/${hhRule.id}`, { method: 'PUT', cookie: admin, json: { enabled: false } })).status).toBe(200);
    await waitClosed((a) => a.deviceId === LEVEL_2 && a.kind === 'level_high_high');
    const frame = await live.next((f) => f.type === 'alarm.updated' && f.data.id === hh.id && f.data.state === 'suppressed');
    expect(frame.data.state).toBe('suppressed');
    await s.fetch(`/api/v1/devices/${LEVEL_2}/alarm-rules/${hhRule.id}`, { method: 'PUT', cookie: admin, json: { enabled: true } });
    await waitOpen('level_high_high', 'unack'); // evaluated again from the current reading: a new alarm
    expect((await openOf('level_high_high'))!.id).not.toBe(hh.id);

    expect((await s.fetch(`/api/v1/devices/${LEVEL_2}`, { method: 'PATCH', cookie: admin, json: { enabled: false } })).status).toBe(200);
    await waitClosed((a) => a.deviceId === LEVEL_2);
    await s.fetch(`/api/v1/devices/${LEVEL_2}`, { method: 'PATCH', cookie: admin, json: { enabled: true } });
  });

  it('after a restart the open alarms are the same ones: none lost, none raised twice', async () => {
    await level(4.6);
    const before = await waitOpen('level_high_high', 'unack');
    // Offline alarms may be raised by the restart itself (devices silent since before it); nothing else may.
    const notOffline = async () => Number(await sqlValue(s, "SELECT COUNT(*) FROM alarms WHERE kind != 'device_offline'"));
    const rows = await notOffline();
    live.close();
    await s.close();
    s = await startServer({ DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '2' }, { dataDir });
    viewer = await s.login('viewer');
    const opened = await openLive(s, { cookie: viewer });
    live = opened.live!;
    const hello = await live.next((f) => f.type === 'hello');
    expect((hello.data.alarms as Alarm[]).map((a) => a.id)).toContain(before.id);
    await sleep(200);
    expect((await openOf('level_high_high'))?.id).toBe(before.id);
    expect(await notOffline()).toBe(rows);
  });
});
