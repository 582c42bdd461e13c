// docs/alarms.md "Alarm rules": every device has its rules with the table's defaults (existing demo
// devices and new ones alike), anyone with read sees them, manage_devices edits them with checks
// and an audit entry, the H / HH setpoints follow the device's thresholds while equal to them,
// and everything survives a restart.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmRule } from '@agua/shared';
import { auditPage, createDevice, expectApiError, jsonOf } from '../helpers/api';
import { GATE_1, LEVEL_1 } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

const rulesPath = (deviceId: string) => `/api/v1/devices/${deviceId}/alarm-rules`;

async function rulesOf(s: TestServer, cookie: string, deviceId: string): Promise<Record<string, AlarmRule>> {
  const { status, body } = await jsonOf<AlarmRule[]>(await s.fetch(rulesPath(deviceId), { cookie }));
  expect(status).toBe(200);
  return Object.fromEntries(body.map((r) => [r.kind, r]));
}

const putRule = (s: TestServer, cookie: string, deviceId: string, ruleId: string, body: unknown) =>
  s.fetch(`${rulesPath(deviceId)}/${encodeURIComponent(ruleId)}`, { method: 'PUT', cookie, json: body });

describe('alarm rules', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let admin: string;
  let viewer: string;
  let operator: string;

  beforeAll(async () => {
    s = await startServer({}, { dataDir });
    [admin, viewer, operator] = await Promise.all([s.login('admin'), s.login('viewer'), s.login('operator')]);
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a demo level sensor has the nine level-sensor rules with the defaults, readable with read', async () => {
    const rules = await rulesOf(s, viewer, LEVEL_1);
    expect(Object.keys(rules)).toEqual(['level_high_high', 'level_high', 'level_low', 'level_low_low', 'rate_of_rise', 'time_to_overflow', 'level_above_crest', 'device_offline', 'command_failed']);
    expect(rules.level_high_high).toMatchObject({ enabled: true, priority: 1, setpointPct: 85, deadbandPct: 2, onDelayS: 0, offDelayS: 0 });
    expect(rules.level_high).toMatchObject({ enabled: true, priority: 3, setpointPct: 60 });
    expect(rules.level_low).toMatchObject({ enabled: false, priority: 3, setpointPct: 20 });
    expect(rules.level_low_low).toMatchObject({ enabled: false, priority: 2, setpointPct: 10 });
    expect(rules.rate_of_rise).toMatchObject({ enabled: false, priority: 2, ratePerMin: 0.05, windowS: 120 });
    expect(rules.device_offline).toMatchObject({ enabled: true, priority: 2 });
    // The demo wet well has a crest: the water kinds are on (docs/water.md "Alarms").
    expect(rules.time_to_overflow).toMatchObject({ enabled: true, priority: 1, setpointMin: 60 });
    expect(rules.level_above_crest).toMatchObject({ enabled: true, priority: 1 });
    expect(new Set(Object.values(rules).map((r) => r.id)).size).toBe(9);
  });

  it('a gate has fault, offline and failed-command rules', async () => {
    const rules = await rulesOf(s, viewer, GATE_1);
    expect(Object.values(rules).map((r) => [r.kind, r.priority, r.enabled])).toEqual([
      ['gate_fault', 1, true],
      ['device_offline', 2, true],
      ['command_failed', 3, true],
    ]);
  });

  it('manage_devices edits a rule (audited); an operator may not; unknown device or rule is 404', async () => {
    const { level_high: high } = await rulesOf(s, admin, LEVEL_1);
    await expectApiError(await putRule(s, operator, LEVEL_1, high!.id, { setpointPct: 70 }), 403);
    const res = await jsonOf<AlarmRule>(await putRule(s, admin, LEVEL_1, high!.id, { setpointPct: 70, onDelayS: 5, priority: 2 }));
    expect(res).toEqual({ status: 200, body: { ...high, setpointPct: 70, onDelayS: 5, priority: 2 } });
    expect((await rulesOf(s, viewer, LEVEL_1)).level_high).toMatchObject({ setpointPct: 70, onDelayS: 5, priority: 2 });
    const audited = (await auditPage(s, admin, { action: 'alarm.rule_updated' }))[0];
    expect(audited).toMatchObject({ result: 'ok', username: 'admin', target: `device:${LEVEL_1}`, details: { ruleId: high!.id, kind: 'level_high', changes: { setpointPct: 70, onDelayS: 5, priority: 2 } } });

    await expectApiError(await putRule(s, admin, LEVEL_1, 'rul_nope', { enabled: false }), 404, 'ALARM_RULE_NOT_FOUND');
    await expectApiError(await putRule(s, admin, GATE_1, high!.id, { enabled: false }), 404, 'ALARM_RULE_NOT_FOUND');
    await expectApiError(await putRule(s, admin, 'no_such_device', high!.id, { enabled: false }), 404, 'DEVICE_NOT_FOUND');
    await expectApiError(await s.fetch(rulesPath('no_such_device'), { cookie: viewer }), 404, 'DEVICE_NOT_FOUND');
  });

  it('impossible values are 422 and change nothing; malformed ones 400', async () => {
    const before = await rulesOf(s, admin, LEVEL_1);
    const { level_low: low, level_high: high, device_offline: offline } = before;
    // A low setpoint at or above a high one would hold both alarms at once.
    const tooHigh = await expectApiError(await putRule(s, admin, LEVEL_1, low!.id, { setpointPct: high!.setpointPct }), 422, 'ALARM_RULE_INVALID');
    expect(tooHigh.details).toEqual({ field: 'setpointPct', reason: 'high_not_above_low' });
    await expectApiError(await putRule(s, admin, LEVEL_1, high!.id, { deadbandPct: 50 }), 422, 'ALARM_RULE_INVALID');
    await expectApiError(await putRule(s, admin, LEVEL_1, offline!.id, { setpointPct: 50 }), 422, 'ALARM_RULE_INVALID');
    await expectApiError(await putRule(s, admin, LEVEL_1, high!.id, { ratePerMin: 1 }), 422, 'ALARM_RULE_INVALID');
    for (const body of [{ priority: 5 }, { priority: 0 }, { setpointPct: 100 }, { setpointPct: 0 }, { onDelayS: -1 }, { onDelayS: 1.5 }, { kind: 'level_low' }, { enabled: 'yes' }]) {
      const res = await putRule(s, admin, LEVEL_1, high!.id, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      await res.body?.cancel();
    }
    expect(await rulesOf(s, admin, LEVEL_1)).toEqual(before);
  });

  it('a new device gets the defaults at its own thresholds; H / HH follow threshold changes only while equal to them', async () => {
    await createDevice(s, admin, { id: 'tanque_norte', name: 'Tanque Norte', location: 'Norte', type: 'level_sensor', config: { maxLevel: 4, warningPct: 50, criticalPct: 90 } });
    const rules = await rulesOf(s, viewer, 'tanque_norte');
    expect(rules.level_high).toMatchObject({ setpointPct: 50 });
    expect(rules.level_high_high).toMatchObject({ setpointPct: 90 });

    await putRule(s, admin, 'tanque_norte', rules.level_high_high!.id, { setpointPct: 95 });
    const patch = await s.fetch('/api/v1/devices/tanque_norte', { method: 'PATCH', cookie: admin, json: { config: { warningPct: 65, criticalPct: 80 } } });
    expect(patch.status).toBe(200);
    const after = await rulesOf(s, viewer, 'tanque_norte');
    expect(after.level_high).toMatchObject({ setpointPct: 65 }); // followed
    expect(after.level_high_high).toMatchObject({ setpointPct: 95 }); // set on purpose: stays
  });

  it('rules survive a restart', async () => {
    const before = await rulesOf(s, admin, LEVEL_1);
    await s.close();
    s = await startServer({}, { dataDir });
    admin = await s.login('admin');
    expect(await rulesOf(s, admin, LEVEL_1)).toEqual(before);
    expect(before.level_high).toMatchObject({ setpointPct: 70 });
  });
});
