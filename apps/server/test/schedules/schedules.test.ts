// docs/control.md "Schedules": definitions, preview, runs through the one command path exactly
// once, skipped and missed runs with their alarm, the close-after and 'Tomar control manual' —
// against a real server with a gate on a real HTTP long poll.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { localHHMM } from '../../src/lib/local-clock';
import { startServer, type TestServer } from '../helpers/server';
import { GATE_1, LEVEL_1, LEVEL_2, gateMsg, levelMsg, postTelemetry, waitFor } from '../helpers/protocol';
import { auditPage, expectApiError, getCommand, issueCommand, jsonOf, longPoll } from '../helpers/api';

interface Schedule {
  id: string;
  name: string;
  nextRunAt: string | null;
  [k: string]: unknown;
}
interface Run {
  id: string;
  status: string;
  trigger: string;
  plannedAt: string;
  commandId: string | null;
  reason: { code: string; message: string } | null;
}

async function createSchedule(s: TestServer, admin: string, body: Record<string, unknown>): Promise<Schedule> {
  const res = await s.fetch('/api/v1/schedules', { method: 'POST', cookie: admin, json: body });
  const { status, body: out } = await jsonOf<Schedule>(res);
  if (status !== 201) throw new Error(`POST /schedules: ${status} ${JSON.stringify(out)}`);
  return out;
}

async function runsOf(s: TestServer, cookie: string, id: string): Promise<Run[]> {
  const { body } = await jsonOf<{ items: Run[] }>(await s.fetch(`/api/v1/schedules/${id}/runs?limit=50`, { cookie }));
  return body.items;
}

/** A minute of the wall clock that began a little while ago: a schedule at it is due now. */
function dueMinute(agoMs: number): { time: string; atMs: number } {
  const at = Date.now() - agoMs;
  const d = new Date(at);
  d.setSeconds(0, 0);
  return { time: localHHMM(d.getTime()), atMs: d.getTime() };
}
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

describe('gate schedules', () => {
  let s: TestServer;
  let admin: string;
  let operator: string;
  let viewer: string;

  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER_S: '60' });
    [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
  });
  afterAll(async () => s.close());
  afterEach(async () => {
    for (const path of ['/api/v1/schedules', '/api/v1/interlocks']) {
      const { body } = await jsonOf<Array<{ id: string }>>(await s.fetch(path, { cookie: admin }));
      for (const x of body) await s.fetch(`${path}/${x.id}`, { method: 'DELETE', cookie: admin });
    }
    // Nothing left in flight for the next test: a detener, taken and acknowledged by the gate.
    await issueCommand(s, admin, GATE_1, 'detener');
    const { body: waiting } = await jsonOf<Array<{ id: string }>>(await longPoll(s, GATE_1, { wait: '0' }));
    for (const c of waiting) await s.fetch(`/api/v1/devices/${GATE_1}/commands/${c.id}/ack`, { method: 'POST', headers: { 'x-api-key': `demo-key-${GATE_1}` }, json: { success: true, state: 'cerrada' } });
  });

  /** Makes a schedule due now: its runs are owed from before its time (as if made earlier). */
  async function makeDue(id: string, sinceMs: number) {
    await s.modules.storage.db.updateTable('schedules').set({ active_since_ms: sinceMs }).where('id', '=', id).execute();
  }

  it('refuses what cannot be (422 SCHEDULE_INVALID naming the field); names itself; says when it runs next, in the server’s zone', async () => {
    const base = { deviceId: GATE_1, action: 'abrir', time: '06:00', days: [1, 2, 3, 4, 5] };
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ ...base, deviceId: LEVEL_1 }, 'deviceId'],
      [{ ...base, deviceId: 'no_such_gate' }, 'deviceId'],
      [{ ...base, action: 'detener' }, 'action'],
      [{ ...base, time: '24:00' }, 'time'],
      [{ ...base, time: '6:00' }, 'time'],
      [{ ...base, days: [] }, 'days'],
      [{ ...base, days: [0] }, 'days'],
      [{ ...base, days: [1, 1] }, 'days'],
      [{ ...base, action: 'cerrar', durationMin: 30 }, 'durationMin'],
      [{ ...base, durationMin: 0 }, 'durationMin'],
      [{ ...base, durationMin: 1441 }, 'durationMin'],
      [{ ...base, alarmPriority: 5 }, 'alarmPriority'],
      [{ ...base, name: 'x'.repeat(101) }, 'name'],
      [{ ...base, suspendedUntil: 'mañana' }, 'suspendedUntil'],
    ];
    for (const [body, field] of bad) {
      const err = await expectApiError(await s.fetch('/api/v1/schedules', { method: 'POST', cookie: admin, json: body }), 422, 'SCHEDULE_INVALID');
      expect((err.details as { field: string }).field, JSON.stringify(body)).toBe(field);
    }
    await expectApiError(await s.fetch('/api/v1/schedules', { method: 'POST', cookie: operator, json: base }), 403);
    await expectApiError(await s.fetch('/api/v1/schedules', { method: 'POST', cookie: admin, json: { ...base, days: 'weekdays' } }), 400);

    const made = await createSchedule(s, admin, { ...base, durationMin: 90 });
    expect(made).toMatchObject({ deviceId: GATE_1, name: 'Abrir 06:00', action: 'abrir', time: '06:00', days: [1, 2, 3, 4, 5], durationMin: 90, enabled: true, suspendedUntil: null, alarmPriority: 3, by: { username: 'admin' } });
    expect(made.timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    const next = new Date(made.nextRunAt!);
    expect(localHHMM(next.getTime())).toBe('06:00');
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect([1, 2, 3, 4, 5]).toContain(((next.getDay() + 6) % 7) + 1);

    // The preview: exactly the next 10, with the close and the verdict the runs would meet now.
    type Preview = { timezone: string; items: Array<{ at: string; action: string; closeAt: string; permissive: { allowed: boolean; reasons: unknown[] } }> };
    // The gate has not been heard: its runs would be skipped, though no interlock says so.
    const { body: offline } = await jsonOf<Preview>(await s.fetch(`/api/v1/schedules/${made.id}/preview`, { cookie: viewer }));
    expect(offline.items[0]!.permissive).toEqual({ allowed: false, mode: null, reasons: [] });
    await postTelemetry(s, gateMsg(GATE_1, 'cerrada'));
    const { body: preview } = await jsonOf<Preview>(await s.fetch(`/api/v1/schedules/${made.id}/preview`, { cookie: viewer }));
    expect(preview.items).toHaveLength(10);
    expect(preview.items[0]).toMatchObject({ at: made.nextRunAt, action: 'abrir', permissive: { allowed: true } });
    expect(Date.parse(preview.items[0]!.closeAt) - Date.parse(preview.items[0]!.at)).toBe(90 * 60_000);
    // Disabled: no next run, but the preview shows what it would do.
    const off = await jsonOf<Schedule>(await s.fetch(`/api/v1/schedules/${made.id}`, { method: 'PATCH', cookie: admin, json: { enabled: false } }));
    expect(off.body).toMatchObject({ enabled: false, nextRunAt: null });
    expect((await jsonOf<{ items: unknown[] }>(await s.fetch(`/api/v1/schedules/${made.id}/preview`, { cookie: viewer }))).body.items).toHaveLength(10);
    const actions = (await auditPage(s, admin)).filter((e) => e.target === `schedule:${made.id}`).map((e) => e.action);
    expect(actions.sort()).toEqual(['schedule.created', 'schedule.updated']);
  });

  it('a due run goes through the command path once: one command issued by the schedule, one run, none again after a restart of the runner', async () => {
    await postTelemetry(s, gateMsg(GATE_1, 'cerrada'));
    const due = dueMinute(20_000);
    const made = await createSchedule(s, admin, { deviceId: GATE_1, action: 'abrir', time: due.time, days: EVERY_DAY });
    await makeDue(made.id, due.atMs - 60_000);
    const [run] = (await waitFor(async () => {
      const runs = await runsOf(s, viewer, made.id);
      return runs.length > 0 ? runs : null;
    }, 5_000))!;
    expect(run).toMatchObject({ status: 'issued', trigger: 'time', plannedAt: new Date(due.atMs).toISOString(), reason: null });
    const command = await getCommand(s, viewer, run!.commandId!);
    expect(command).toMatchObject({ command: 'abrir', issuedBy: { kind: 'schedule', scheduleId: made.id, name: 'Programación' } });
    const issued = (await auditPage(s, admin, { action: 'command.issued' })).find((e) => e.details?.commandId === command.id);
    expect(issued?.details).toMatchObject({ scheduleId: made.id, status: 'pending' });
    // A runner that forgot everything (a restart) finds the run stored and does nothing again.
    const fresh = new (s.modules.schedules.runner.constructor as new (d: unknown) => { tick(): Promise<void> })((s.modules.schedules.runner as unknown as { d: unknown }).d);
    await fresh.tick();
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await runsOf(s, viewer, made.id)).toHaveLength(1);
  });

  it('a run an interlock refuses is skipped with the reason and raises schedule_skipped at the schedule’s priority; one too old is missed', async () => {
    await postTelemetry(s, gateMsg(GATE_1, 'cerrada'));
    await postTelemetry(s, levelMsg(LEVEL_2, 4.62));
    await s.fetch('/api/v1/interlocks', {
      method: 'POST',
      cookie: admin,
      json: { deviceId: GATE_1, command: 'abrir', name: 'Tanque alto', mode: 'confirm', conditions: [{ kind: 'level', deviceId: LEVEL_2, op: '<', valueM: 4.25 }] },
    });
    const due = dueMinute(20_000);
    const made = await createSchedule(s, admin, { deviceId: GATE_1, name: 'Riego', action: 'abrir', time: due.time, days: EVERY_DAY, alarmPriority: 2 });
    const { body: preview } = await jsonOf<{ items: Array<{ permissive: { allowed: boolean; mode: string } }> }>(await s.fetch(`/api/v1/schedules/${made.id}/preview`, { cookie: viewer }));
    expect(preview.items[0]!.permissive).toMatchObject({ allowed: false, mode: 'confirm' });
    await makeDue(made.id, due.atMs - 60_000);
    const [run] = (await waitFor(async () => {
      const runs = await runsOf(s, viewer, made.id);
      return runs.length > 0 ? runs : null;
    }, 5_000))!;
    const { body: gate } = await jsonOf<{ name: string }>(await s.fetch(`/api/v1/devices/${LEVEL_2}`, { cookie: viewer }));
    const reason = `Requiere comentario: ${gate.name} en nivel alto (4,62 m ≥ 4,25 m)`;
    expect(run).toMatchObject({ status: 'skipped', commandId: null, reason: { code: 'INTERLOCKED', message: reason } });
    const alarm = await waitFor(async () => {
      const { body } = await jsonOf<{ items: Array<{ kind: string; ruleId: string; priority: number; message: string; deviceId: string }> }>(await s.fetch('/api/v1/alarms?limit=50', { cookie: viewer }));
      return body.items.find((a) => a.kind === 'schedule_skipped' && a.ruleId === made.id) ?? null;
    }, 3_000);
    expect(alarm).toMatchObject({ deviceId: GATE_1, priority: 2, message: `Programación «Riego» omitida: ${reason}` });
    // schedule_skipped is no rule in /alarm-rules.
    const { body: rules } = await jsonOf<Array<{ kind: string }>>(await s.fetch(`/api/v1/devices/${GATE_1}/alarm-rules`, { cookie: viewer }));
    expect(JSON.stringify(rules)).not.toContain('schedule_skipped');

    // Due 20 minutes ago while "off": missed, not run.
    const old = dueMinute(20 * 60_000);
    const late = await createSchedule(s, admin, { deviceId: GATE_1, action: 'cerrar', time: old.time, days: EVERY_DAY });
    await makeDue(late.id, old.atMs - 60_000);
    const [missed] = (await waitFor(async () => {
      const runs = await runsOf(s, viewer, late.id);
      return runs.length > 0 ? runs : null;
    }, 5_000))!;
    expect(missed).toMatchObject({ status: 'missed', commandId: null, reason: { code: 'MISSED' } });
  });

  it('an abrir with a duration holds the gate: a person’s abrir/cerrar gets 409 SCHEDULE_ACTIVE until they take manual control, which cancels the close', async () => {
    await postTelemetry(s, gateMsg(GATE_1, 'cerrada'));
    const due = dueMinute(20_000);
    const made = await createSchedule(s, admin, { deviceId: GATE_1, action: 'abrir', time: due.time, days: EVERY_DAY, durationMin: 30 });
    await makeDue(made.id, due.atMs - 60_000);
    const runs = (await waitFor(async () => {
      const r = await runsOf(s, viewer, made.id);
      return r.length === 2 ? r : null;
    }, 5_000))!;
    const close = runs.find((r) => r.trigger === 'duration')!;
    expect(close).toMatchObject({ status: 'pending', plannedAt: new Date(due.atMs + 30 * 60_000).toISOString() });
    // Let the gate take its abrir.
    const open = runs.find((r) => r.trigger === 'time')!;
    await s.fetch(`/api/v1/devices/${GATE_1}/commands/${open.commandId}/ack`, { method: 'POST', headers: { 'x-api-key': `demo-key-${GATE_1}` }, json: { success: true, state: 'abierta' } });

    const held = await expectApiError(await issueCommand(s, operator, GATE_1, 'cerrar'), 409, 'SCHEDULE_ACTIVE', `La compuerta sigue la programación «${made.name}» (cierre a las ${localHHMM(due.atMs + 30 * 60_000)}).`);
    expect(held.details).toEqual({ scheduleId: made.id, name: made.name, closeAt: close.plannedAt });
    const taken = await s.fetch(`/api/v1/devices/${GATE_1}/commands`, { method: 'POST', cookie: operator, json: { command: 'cerrar', takeManual: true } });
    expect(taken.status).toBe(202);
    const after = (await runsOf(s, viewer, made.id)).find((r) => r.trigger === 'duration');
    expect(after).toMatchObject({ status: 'cancelled', reason: { code: 'CANCELLED', message: 'Control manual tomado por Juan Pérez' } });
    expect((await auditPage(s, admin, { action: 'schedule.manual_takeover' })).some((e) => e.username === 'operator')).toBe(true);
  });

  it('a close-after is issued when due, however late (an open gate is not the safe state)', async () => {
    await postTelemetry(s, gateMsg(GATE_1, 'cerrada'));
    const due = dueMinute(20_000);
    const made = await createSchedule(s, admin, { deviceId: GATE_1, action: 'abrir', time: due.time, days: EVERY_DAY, durationMin: 30 });
    await makeDue(made.id, due.atMs - 60_000);
    const open = (await waitFor(async () => (await runsOf(s, viewer, made.id)).find((r) => r.trigger === 'time') ?? null, 5_000))!;
    await s.fetch(`/api/v1/devices/${GATE_1}/commands/${open.commandId}/ack`, { method: 'POST', headers: { 'x-api-key': `demo-key-${GATE_1}` }, json: { success: true, state: 'abierta' } });
    // As if the server had been off past the close time, hours ago.
    await s.modules.storage.db.updateTable('schedule_runs').set({ planned_at_ms: Date.now() - 3 * 3_600_000 }).where('schedule_id', '=', made.id).where('trigger', '=', 'duration').execute();
    const closed = (await waitFor(async () => (await runsOf(s, viewer, made.id)).find((r) => r.trigger === 'duration' && r.status === 'issued') ?? null, 5_000))!;
    expect((await getCommand(s, viewer, closed.commandId!)).command).toBe('cerrar');
  });
});
