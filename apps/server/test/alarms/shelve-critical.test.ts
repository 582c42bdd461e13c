// Who may shelve a Crítica alarm (ALARM_SHELVE_CRITICAL, docs/api.md "Alarms"), over real HTTP:
// by default anyone with write; with `admin` an operator's shelving of a priority-1 alarm is
// 403 SHELVE_CRITICAL_FORBIDDEN, audited as a refusal, while lower priorities and administrators
// are unaffected. GET /api/v1/config tells the web app which rule holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessage, type Alarm } from '@agua/shared';
import { ConfigError, loadConfig } from '../../src/config/env';
import { auditPage, expectApiError, jsonOf } from '../helpers/api';
import { LEVEL_2, levelMsg, postTelemetry, waitFor } from '../helpers/protocol';
import { startServer } from '../helpers/server';

const SHELVE = { minutes: 30, comment: 'Mantenimiento del sensor' };

/** A server whose esp32_nivel_02 reads 96 %: HH (Crítica, priority 1) and H (Media, 3) open. */
async function serverWithHighLevel(env: Record<string, string>) {
  const s = await startServer({ DEVICE_RATE_LIMIT: '0', SIMULATE: 'false', LOG_LEVEL: 'silent', ...env });
  const [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
  const res = await postTelemetry(s, levelMsg(LEVEL_2, 4.8));
  expect(res.status).toBe(202);
  await res.body?.cancel();
  const open = async () => (await jsonOf<{ items: Alarm[] }>(await s.fetch('/api/v1/alarms?state=open', { cookie: viewer }))).body.items;
  const of = async (kind: Alarm['kind']) => (await open()).find((a) => a.deviceId === LEVEL_2 && a.kind === kind);
  const [hh, h] = (await waitFor(async () => {
    const both = [await of('level_high_high'), await of('level_high')];
    return both.every(Boolean) ? both : null;
  }, 5000)) as [Alarm, Alarm];
  expect([hh.priority, h.priority]).toEqual([1, 3]);
  const shelve = (id: string, cookie: string) => s.fetch(`/api/v1/alarms/${id}/shelve`, { method: 'POST', cookie, json: SHELVE });
  const config = async () => (await jsonOf<Record<string, unknown>>(await s.fetch('/api/v1/config'))).body;
  return { s, admin, operator, viewer, hh, h, of, shelve, config };
}

describe('ALARM_SHELVE_CRITICAL', () => {
  it('is write by default, admin when asked for, and anything else stops the start naming it', () => {
    expect(loadConfig({}).alarmShelveCritical).toBe('write');
    expect(loadConfig({ ALARM_SHELVE_CRITICAL: 'admin' }).alarmShelveCritical).toBe('admin');
    expect(loadConfig({ ALARM_SHELVE_CRITICAL: ' Admin ' }).alarmShelveCritical).toBe('admin');
    expect(() => loadConfig({ ALARM_SHELVE_CRITICAL: 'operator' })).toThrow(ConfigError);
    expect(() => loadConfig({ ALARM_SHELVE_CRITICAL: 'operator' })).toThrow(/ALARM_SHELVE_CRITICAL/);
  });
});

describe('shelving a Crítica alarm, default (write)', () => {
  let t: Awaited<ReturnType<typeof serverWithHighLevel>>;
  beforeAll(async () => {
    t = await serverWithHighLevel({});
  });
  afterAll(async () => t?.s.close());

  it('an operator shelves it; the public configuration says write', async () => {
    expect(await t.config()).toMatchObject({ alarmShelveCritical: 'write' });
    const { status, body } = await jsonOf<Alarm>(await t.shelve(t.hh.id, t.operator));
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: t.hh.id, state: 'shelved', shelvedBy: { username: 'operator' } });
    await expectApiError(await t.shelve(t.h.id, t.viewer), 403, 'FORBIDDEN');
  });
});

describe('shelving a Crítica alarm, ALARM_SHELVE_CRITICAL=admin', () => {
  let t: Awaited<ReturnType<typeof serverWithHighLevel>>;
  beforeAll(async () => {
    t = await serverWithHighLevel({ ALARM_SHELVE_CRITICAL: 'admin' });
  });
  afterAll(async () => t?.s.close());

  it('the public configuration says admin, and nothing else was added to it', async () => {
    const config = await t.config();
    expect(config).toMatchObject({ alarmShelveCritical: 'admin' });
    expect(Object.keys(config).sort()).toEqual(['alarmShelveCritical', 'demo', 'map', 'timezone', 'version']);
  });

  it('an operator gets 403 SHELVE_CRITICAL_FORBIDDEN in Spanish, audited as denied; the alarm stays active', async () => {
    await expectApiError(await t.shelve(t.hh.id, t.operator), 403, 'SHELVE_CRITICAL_FORBIDDEN', errorMessage('SHELVE_CRITICAL_FORBIDDEN'));
    expect(errorMessage('SHELVE_CRITICAL_FORBIDDEN')).toMatch(/administrador.*Crítica/);
    expect((await t.of('level_high_high'))?.state).toBe('unack');
    const refused = (await auditPage(t.s, t.admin, { action: 'alarm.shelved' })).filter((e) => e.target === `alarm:${t.hh.id}`);
    expect(refused).toEqual([
      expect.objectContaining({
        result: 'denied',
        username: 'operator',
        details: expect.objectContaining({ code: 'SHELVE_CRITICAL_FORBIDDEN', deviceId: LEVEL_2, kind: 'level_high_high', priority: 1, minutes: 30 }),
      }),
    ]);
  });

  it('the same operator still shelves an alarm of lower priority', async () => {
    const { status, body } = await jsonOf<Alarm>(await t.shelve(t.h.id, t.operator));
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: t.h.id, priority: 3, state: 'shelved' });
  });

  it('an administrator shelves the Crítica alarm', async () => {
    const { status, body } = await jsonOf<Alarm>(await t.shelve(t.hh.id, t.admin));
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: t.hh.id, state: 'shelved', shelvedBy: { username: 'admin' } });
    const audited = (await auditPage(t.s, t.admin, { action: 'alarm.shelved' })).filter((e) => e.target === `alarm:${t.hh.id}`);
    expect(audited.map((e) => [e.result, e.username])).toEqual([
      ['ok', 'admin'],
      ['denied', 'operator'],
    ]);
  });
});
