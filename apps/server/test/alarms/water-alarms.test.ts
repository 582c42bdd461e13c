// docs/water.md "Alarms" over real HTTP: time_to_overflow follows a level sensor's live time to
// overflow (raised by readings rising at a known rate, cleared when they fall or stop), and
// level_above_crest follows its overflow events (raised once readings at or above the crest span
// onDelayS, cleared once readings below crest − deadband span offDelayS); every level sensor has
// both, a first crest turns them on (unless an admin edited them), removing it turns them off;
// level rules take setpointPct or setpointM; clean-water sensors watch their low levels.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alarm, AlarmRule, Device } from '@agua/shared';
import { createDevice, expectApiError, jsonOf } from '../helpers/api';
import { LEVEL_1, LEVEL_2, levelMsg, openLive, postTelemetry, waitFor, type LiveSocket } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';
import { sqlValue } from '../helpers/sql';

const S = 1000;
const rulesPath = (deviceId: string) => `/api/v1/devices/${deviceId}/alarm-rules`;

describe('water alarms', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let admin: string;
  let viewer: string;
  let live: LiveSocket;
  const keys: Record<string, string> = {};

  async function rulesOf(deviceId: string): Promise<Record<string, AlarmRule>> {
    const { status, body } = await jsonOf<AlarmRule[]>(await s.fetch(rulesPath(deviceId), { cookie: viewer }));
    expect(status).toBe(200);
    return Object.fromEntries(body.map((r) => [r.kind, r]));
  }
  const putRule = (deviceId: string, ruleId: string, body: unknown) => s.fetch(`${rulesPath(deviceId)}/${encodeURIComponent(ruleId)}`, { method: 'PUT', cookie: admin, json: body });
  const putGeometry = async (deviceId: string, body: unknown) => {
    const res = await s.fetch(`/api/v1/devices/${deviceId}/geometry`, { method: 'PUT', cookie: admin, json: body });
    expect(res.status).toBe(200);
    await res.body?.cancel();
  };
  /** A level sensor of this test with its own key. */
  async function sensor(id: string, maxLevel: number, waterType: 'residual' | 'clean' | null = 'residual'): Promise<void> {
    keys[id] = (await createDevice(s, admin, { id, name: `Sensor ${id}`, location: 'Pruebas', type: 'level_sensor', waterType, config: { maxLevel } })).apiKey;
  }
  /** Posts [ts, level] readings of a device as one batch. */
  async function post(deviceId: string, readings: Array<[number, number]>): Promise<void> {
    const body = readings.map(([ts, value]) => levelMsg(deviceId, value, { ts: new Date(ts).toISOString() }));
    const res = await postTelemetry(s, body, { key: keys[deviceId] });
    expect(res.status).toBe(202);
    await res.body?.cancel();
  }
  /** The device's alarm of that kind as the live socket told it in that state (every transition is told, none missed). */
  const waitAlarm = async (deviceId: string, kind: Alarm['kind'], state: Alarm['state'], timeoutMs = 5000): Promise<Alarm> => {
    const frame = await live.next((f) => f.type === 'alarm.updated' && (f.data as Alarm).deviceId === deviceId && (f.data as Alarm).kind === kind && (f.data as Alarm).state === state, timeoutMs);
    return frame.data as Alarm;
  };
  const alarmById = async (id: string) => (await jsonOf<Alarm>(await s.fetch(`/api/v1/alarms/${id}`, { cookie: viewer }))).body;
  const analyticsOf = async (deviceId: string) => (await jsonOf<Device>(await s.fetch(`/api/v1/devices/${deviceId}`, { cookie: viewer }))).body.analytics;

  const ENV = { DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '10', LOG_LEVEL: 'silent' };

  beforeAll(async () => {
    s = await startServer(ENV, { dataDir });
    [admin, viewer] = await Promise.all([s.login('admin'), s.login('viewer')]);
    const opened = await openLive(s, { cookie: viewer });
    if (!opened.live) throw new Error('live socket refused');
    live = opened.live;
  });
  afterAll(async () => {
    live?.close();
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('every level sensor has both water rules: on for the demo wet well with its crest, off for the clean tank without one', async () => {
    const well = await rulesOf(LEVEL_1);
    expect(Object.keys(well)).toEqual(['level_high_high', 'level_high', 'level_low', 'level_low_low', 'rate_of_rise', 'time_to_overflow', 'level_above_crest', 'device_offline', 'command_failed']);
    expect(well.time_to_overflow).toMatchObject({ enabled: true, priority: 1, setpointMin: 60, deadbandPct: 2, onDelayS: 0, offDelayS: 0 });
    expect(well.level_above_crest).toMatchObject({ enabled: true, priority: 1 });
    const tank = await rulesOf(LEVEL_2);
    expect(tank.time_to_overflow).toMatchObject({ enabled: false, priority: 1, setpointMin: 60 });
    expect(tank.level_above_crest).toMatchObject({ enabled: false, priority: 1 });
  });

  it('clean-water sensors have level_low and level_low_low on (the demo clean tank too); residual ones off', async () => {
    expect((await rulesOf(LEVEL_2)).level_low).toMatchObject({ enabled: true, setpointPct: 20, setpointM: null });
    expect((await rulesOf(LEVEL_2)).level_low_low).toMatchObject({ enabled: true, setpointPct: 10 });
    expect((await rulesOf(LEVEL_1)).level_low).toMatchObject({ enabled: false });
    await sensor('limpia_nueva', 4, 'clean');
    await sensor('residual_nueva', 4, 'residual');
    const clean = await rulesOf('limpia_nueva');
    const residual = await rulesOf('residual_nueva');
    expect([clean.level_low!.enabled, clean.level_low_low!.enabled]).toEqual([true, true]);
    expect([residual.level_low!.enabled, residual.level_low_low!.enabled]).toEqual([false, false]);
  });

  it('a first crest turns both on, removing it turns them off; one an admin edited stays as set', async () => {
    await sensor('cresta_nueva', 5);
    const before = await rulesOf('cresta_nueva');
    expect([before.time_to_overflow!.enabled, before.level_above_crest!.enabled]).toEqual([false, false]);
    await putGeometry('cresta_nueva', { shape: { kind: 'rectangular', areaM2: 10 }, crestLevelM: 4 });
    let rules = await rulesOf('cresta_nueva');
    expect([rules.time_to_overflow!.enabled, rules.level_above_crest!.enabled]).toEqual([true, true]);
    // A new version that keeps a crest changes nothing; one without turns both off.
    await putGeometry('cresta_nueva', { shape: { kind: 'rectangular', areaM2: 10 }, crestLevelM: 4.5 });
    expect((await rulesOf('cresta_nueva')).time_to_overflow!.enabled).toBe(true);
    await putGeometry('cresta_nueva', { shape: { kind: 'rectangular', areaM2: 10 } });
    rules = await rulesOf('cresta_nueva');
    expect([rules.time_to_overflow!.enabled, rules.level_above_crest!.enabled]).toEqual([false, false]);
    // An admin sets the forecast alarm (still off, 30 min): a crest again leaves it as set.
    expect((await putRule('cresta_nueva', rules.time_to_overflow!.id, { setpointMin: 30 })).status).toBe(200);
    await putGeometry('cresta_nueva', { shape: { kind: 'rectangular', areaM2: 10 }, crestLevelM: 4 });
    rules = await rulesOf('cresta_nueva');
    expect(rules.time_to_overflow).toMatchObject({ enabled: false, setpointMin: 30 });
    expect(rules.level_above_crest!.enabled).toBe(true);
  });

  it('time_to_overflow: raised by readings rising at a known rate, returns when they fall', async () => {
    await sensor('pozo_subida', 10);
    // Flow window 30 s: readings over 16 s give a flow.
    await putGeometry('pozo_subida', { shape: { kind: 'rectangular', areaM2: 10 }, crestLevelM: 9, flowWindowS: 30 });
    const t = Date.now();
    // 5 mm/s for 16 s up to 6.08 m: (9 − 6.08) / 0.005 = 584 s to the crest, under 60 min.
    await post('pozo_subida', Array.from({ length: 17 }, (_, i): [number, number] => [t - 19 * S + i * S, 6 + 0.005 * i]));
    const raised = await waitAlarm('pozo_subida', 'time_to_overflow', 'unack');
    expect(raised.priority).toBe(1);
    expect(raised.value).toBeCloseTo(584, 3);
    expect(raised.message).toBe('Desborde próximo: en ≈ 10 min (límite 60 min)');
    // Then the level falls: no forecast of overflow, the condition is gone.
    await post('pozo_subida', [
      [t - 2 * S, 5],
      [t - 1 * S, 5],
    ]);
    const returned = await waitAlarm('pozo_subida', 'time_to_overflow', 'rtn_unack');
    expect(returned.id).toBe(raised.id);
    const figures = await analyticsOf('pozo_subida');
    expect(figures!.netFlowM3h).toBeLessThan(0);
    expect(figures!.timeToOverflowS).toBeNull();
  });

  it('time_to_overflow: returns when the readings stop (stale data has no forecast)', async () => {
    await sensor('pozo_parado', 10);
    await putGeometry('pozo_parado', { shape: { kind: 'rectangular', areaM2: 10 }, crestLevelM: 9, flowWindowS: 30 });
    const t = Date.now();
    await post('pozo_parado', Array.from({ length: 17 }, (_, i): [number, number] => [t - 19 * S + i * S, 6 + 0.005 * i]));
    const raised = await waitAlarm('pozo_parado', 'time_to_overflow', 'unack');
    // Nothing more arrives: 10 s (the offline timeout) after its newest reading the data is stale.
    const returned = await waitAlarm('pozo_parado', 'time_to_overflow', 'rtn_unack', 20_000);
    expect(returned.id).toBe(raised.id);
    expect(Date.parse(returned.clearedAt!)).toBeGreaterThanOrEqual(t - 3 * S + 10 * S);
    expect((await analyticsOf('pozo_parado'))!.timeToOverflowS).toBeNull();
  });

  it('level_above_crest: raised once readings at or above the crest span onDelayS, cleared once readings below crest − deadband span offDelayS', async () => {
    await sensor('vertedero', 5);
    await putGeometry('vertedero', { shape: { kind: 'rectangular', areaM2: 10 }, crestLevelM: 4, spill: { onDelayS: 30, offDelayS: 60, deadbandM: 0.1 } });
    const t0 = Date.now() - 600 * S;
    const at = (s10: number) => t0 + s10 * 10 * S;
    const from = live.frames.length;
    // 20 s at the crest: too short to open a spill.
    await post('vertedero', [
      [at(0), 4.05],
      [at(1), 4.05],
      [at(2), 4.05],
    ]);
    // 30 s after the first: it opens (started at t0), its peak now 4.2 m.
    await post('vertedero', [[at(3), 4.2]]);
    const frame = await live.next((f) => f.type === 'alarm.updated' && (f.data as Alarm).deviceId === 'vertedero' && (f.data as Alarm).kind === 'level_above_crest', 5000, from);
    const raised = frame.data as Alarm;
    // Raised by the fourth reading, not before: the first frame already carries its peak.
    expect(raised).toMatchObject({ state: 'unack', priority: 1, value: 4.2, message: 'Nivel sobre vertedero: 4,20 m (vertedero a 4,00 m)' });
    // 3.95 is below the crest but within the deadband (3.9): the end starts at 3.8 (50), and 50 s of it is not enough.
    await post('vertedero', [[at(4), 3.95], ...[5, 6, 7, 8, 9, 10].map((i): [number, number] => [at(i), 3.8])]);
    // An acknowledgement is decided after those readings: still active, it becomes 'ack' (not 'cleared').
    const acked = await jsonOf<Alarm>(await s.fetch(`/api/v1/alarms/${raised.id}/ack`, { method: 'POST', cookie: admin, json: {} }));
    expect(acked.body.state).toBe('ack');
    // 60 s below the band: the spill ends, the acknowledged alarm is over.
    await post('vertedero', [[at(11), 3.8]]);
    const cleared = await waitFor(async () => {
      const a = await alarmById(raised.id);
      return a.state === 'cleared' ? a : null;
    }, 5000);
    expect(cleared!.peakValue).toBe(4.2);
  });

  it('level rules take setpointPct or setpointM: one nulls the other, both 422; setpointM does not follow the thresholds', async () => {
    await sensor('metros', 5);
    const rules = await rulesOf('metros');
    const high = rules.level_high!;
    const both = await expectApiError(await putRule('metros', high.id, { setpointPct: 70, setpointM: 3.5 }), 422, 'ALARM_RULE_INVALID');
    expect(both.details).toEqual({ field: 'setpointM', reason: 'setpoint_pct_and_m' });
    const inMetres = await jsonOf<AlarmRule>(await putRule('metros', high.id, { setpointM: 3.5 }));
    expect(inMetres).toEqual({ status: 200, body: { ...high, setpointPct: null, setpointM: 3.5 } });
    // Compared with the lows in metres: a low at 3.5 m (70 % of 5 m) would not be below it.
    const low = rules.level_low!;
    const clash = await expectApiError(await putRule('metros', low.id, { setpointM: 3.5 }), 422, 'ALARM_RULE_INVALID');
    expect(clash.details).toEqual({ field: 'setpointM', reason: 'high_not_above_low' });
    await expectApiError(await putRule('metros', low.id, { setpointPct: 70 }), 422, 'ALARM_RULE_INVALID');
    expect((await putRule('metros', low.id, { setpointM: 3.4 })).status).toBe(200);
    // At or above maxLevel it could never act; kinds without a level setpoint refuse it.
    const above = await expectApiError(await putRule('metros', rules.level_high_high!.id, { setpointM: 5 }), 422, 'ALARM_RULE_INVALID');
    expect(above.details).toEqual({ field: 'setpointM', reason: 'setpoint_above_max_level' });
    expect((await expectApiError(await putRule('metros', rules.time_to_overflow!.id, { setpointM: 3 }), 422)).details).toEqual({ field: 'setpointM', reason: 'not_for_kind' });
    expect((await expectApiError(await putRule('metros', high.id, { setpointMin: 30 }), 422)).details).toEqual({ field: 'setpointMin', reason: 'not_for_kind' });
    await expectApiError(await putRule('metros', high.id, { setpointM: null }), 400);

    // The thresholds move: HH (in %, equal to criticalPct) follows; H in metres stays.
    const patch = await s.fetch('/api/v1/devices/metros', { method: 'PATCH', cookie: admin, json: { config: { warningPct: 65, criticalPct: 80 } } });
    expect(patch.status).toBe(200);
    await patch.body?.cancel();
    const after = await rulesOf('metros');
    expect(after.level_high).toMatchObject({ setpointPct: null, setpointM: 3.5 });
    expect(after.level_high_high).toMatchObject({ setpointPct: 80, setpointM: null });
    // Back to %: the metres are gone.
    const back = await jsonOf<AlarmRule>(await putRule('metros', high.id, { setpointPct: 75 }));
    expect(back.body).toMatchObject({ setpointPct: 75, setpointM: null });
  });

  it('a level alarm set in metres is raised above that level', async () => {
    const high = (await rulesOf('metros')).level_high!;
    expect((await putRule('metros', high.id, { setpointM: 4 })).status).toBe(200);
    await post('metros', [[Date.now() - 1000, 4.01]]);
    const raised = await waitAlarm('metros', 'level_high', 'unack');
    expect(raised.value).toBe(4.01);
  });

  it('after a restart an open spill is still open: its alarm is the same one, and it clears when the spill ends', async () => {
    await sensor('vertedero_reinicio', 5);
    await putGeometry('vertedero_reinicio', { shape: { kind: 'rectangular', areaM2: 10 }, crestLevelM: 4, spill: { onDelayS: 30, offDelayS: 60, deadbandM: 0.1 } });
    const t0 = Date.now() - 900 * S;
    const at = (s10: number) => t0 + s10 * 10 * S;
    await post('vertedero_reinicio', [0, 1, 2, 3, 4].map((i): [number, number] => [at(i), 4.1]));
    const raised = await waitAlarm('vertedero_reinicio', 'level_above_crest', 'unack');
    const count = () => sqlValue(s, "SELECT COUNT(*) FROM alarms WHERE device_id = 'vertedero_reinicio' AND kind = 'level_above_crest'").then(Number);
    expect(await count()).toBe(1);

    live.close();
    await s.close();
    s = await startServer(ENV, { dataDir });
    [admin, viewer] = await Promise.all([s.login('admin'), s.login('viewer')]);
    live = (await openLive(s, { cookie: viewer })).live!;
    await live.next((f) => f.type === 'hello');
    // The spill was rebuilt from the stored readings: still active, an acknowledgement makes it 'ack' (not 'cleared').
    const acked = await jsonOf<Alarm>(await s.fetch(`/api/v1/alarms/${raised.id}/ack`, { method: 'POST', cookie: admin, json: {} }));
    expect(acked.body.state).toBe('ack');
    expect(await count()).toBe(1);
    // 60 s below the band: the spill ends, the alarm is over.
    await post('vertedero_reinicio', [5, 6, 7, 8, 9, 10, 11].map((i): [number, number] => [at(i), 3.5]));
    await waitAlarm('vertedero_reinicio', 'level_above_crest', 'cleared');
    expect(await count()).toBe(1);
  });
});
