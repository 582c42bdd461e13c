// docs/water.md "Overflow events" over real HTTP and the live socket: events stored from a level
// sensor's readings against its crest (delays, deadband, weir volume), a late batch merging two of
// them with people's fields kept, the list/one/stats/patch calls with their permissions and
// audit, the daily totals' count, and a restart that goes on with the open event it left.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DailyTotals, OverflowEvent, OverflowStats } from '@agua/shared';
import { createDevice, expectApiError, jsonOf } from '../helpers/api';
import { levelMsg, openLive, postTelemetry, waitFor, type LiveSocket } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';
import { sqlRun } from '../helpers/sql';

const S = 1000;
const G = 9.81;
const SPILL = { onDelayS: 30, offDelayS: 60, deadbandM: 0.05 };
const WEIR = { widthM: 1.5, coefficient: 0.62 };

/** Weir flow, m³/s, written out here from docs/water.md rather than taken from the code under test. */
const weirQ = (head: number) => (head <= 0 ? 0 : WEIR.coefficient * (2 / 3) * WEIR.widthM * Math.sqrt(2 * G) * head ** 1.5);

describe('overflow events', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let admin: string;
  let operator: string;
  let viewer: string;
  let live: LiveSocket;
  const keys: Record<string, string> = {};
  const ENV = { DEVICE_RATE_LIMIT: '0', LOG_LEVEL: 'silent', TZ: 'UTC' };

  async function sensor(id: string, geometry: Record<string, unknown>): Promise<void> {
    keys[id] = (await createDevice(s, admin, { id, name: `Sensor ${id}`, location: 'Pruebas', type: 'level_sensor', waterType: 'residual', config: { maxLevel: 5 } })).apiKey;
    const res = await s.fetch(`/api/v1/devices/${id}/geometry`, { method: 'PUT', cookie: admin, json: { shape: { kind: 'rectangular', areaM2: 10 }, crestLevelM: 4, spill: SPILL, ...geometry } });
    expect(res.status).toBe(200);
    await res.body?.cancel();
  }
  async function post(deviceId: string, readings: Array<[number, number]>): Promise<void> {
    const res = await postTelemetry(s, readings.map(([ts, value]) => levelMsg(deviceId, value, { ts: new Date(ts).toISOString() })), { key: keys[deviceId] });
    expect(res.status).toBe(202);
    await res.body?.cancel();
  }
  /** The first non-null answer of `fn` within 5 s. */
  const until = async <T>(fn: () => Promise<T | null>): Promise<T> => (await waitFor(fn, 5000))!;
  /** Readings every 10 s from `fromMs`, one per level given. */
  const every10s = (fromMs: number, levels: number[]): Array<[number, number]> => levels.map((level, i) => [fromMs + i * 10 * S, level]);
  const repeat = (level: number, n: number) => Array.from({ length: n }, () => level);
  const eventsOf = async (deviceId: string, cookie = viewer) => (await jsonOf<{ items: OverflowEvent[]; nextCursor: string | null }>(await s.fetch(`/api/v1/overflow-events?deviceId=${deviceId}`, { cookie }))).body.items;

  beforeAll(async () => {
    s = await startServer(ENV, { dataDir });
    [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
    const opened = await openLive(s, { cookie: viewer });
    if (!opened.live) throw new Error('live socket refused');
    live = opened.live;
  });
  afterAll(async () => {
    live?.close();
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens once readings at or above the crest span onDelayS, closes once readings below crest − deadband span offDelayS; the weir gives its volume', async () => {
    await sensor('rebose_a', { weir: WEIR });
    const t0 = Date.now() - 3_600 * S;
    const from = live.frames.length;
    // 20 s at the crest then a dip: too short to open anything.
    await post('rebose_a', every10s(t0, [4.0, 4.1, 4.1, 3.5, 3.5]));
    // At 4.2 m for 5 min (30 readings): opens 30 s after its first reading.
    const spillFrom = t0 + 50 * S;
    await post('rebose_a', every10s(spillFrom, repeat(4.2, 30)));
    const opened = (await live.next((f) => f.type === 'overflow.updated' && (f.data as OverflowEvent).deviceId === 'rebose_a', 5000)).data as OverflowEvent;
    expect(opened).toMatchObject({ startedAt: new Date(spillFrom).toISOString(), endedAt: null, method: 'weir', peakLevelM: 4.2 });
    expect(live.frames.slice(0, from).some((f) => f.type === 'overflow.updated')).toBe(false);
    // 3.97 m is within the deadband: it does not start the end. 3.9 m for 60 s does.
    const endFrom = spillFrom + 30 * 10 * S;
    await post('rebose_a', every10s(endFrom, [3.97, 3.97, ...repeat(3.9, 8)]));
    const closed = (await live.next((f) => f.type === 'overflow.updated' && (f.data as OverflowEvent).id === opened.id && (f.data as OverflowEvent).endedAt !== null, 5000)).data as OverflowEvent;
    const endedAtMs = endFrom + 20 * S;
    expect(closed.endedAt).toBe(new Date(endedAtMs).toISOString());
    expect(closed.durationS).toBe((endedAtMs - spillFrom) / S);
    // Trapezoids between consecutive readings from the start to the end's first reading.
    const levels = [...repeat(4.2, 30), 3.97, 3.97, 3.9];
    let volume = 0;
    for (let i = 1; i < levels.length; i++) volume += ((weirQ(levels[i - 1]! - 4) + weirQ(levels[i]! - 4)) / 2) * 10;
    expect(closed.volumeM3).toBeCloseTo(volume, 6);

    const [stored] = await eventsOf('rebose_a');
    expect(stored).toEqual(closed);
    expect((await jsonOf<OverflowEvent>(await s.fetch(`/api/v1/overflow-events/${closed.id}`, { cookie: viewer }))).body).toEqual(closed);
  });

  it('without a weir: no volume and no method; an open event lasts to its newest reading', async () => {
    await sensor('rebose_b', {});
    const t0 = Date.now() - 1_800 * S;
    await post('rebose_b', every10s(t0, repeat(4.5, 10)));
    const [event] = await until(async () => {
      const events = await eventsOf('rebose_b');
      return events.length > 0 ? events : null;
    });
    expect(event).toMatchObject({ startedAt: new Date(t0).toISOString(), endedAt: null, durationS: 90, peakLevelM: 4.5, volumeM3: null, method: null });
  });

  it('a late batch that fills the dip between two events makes them one, keeping the first one’s id and what people wrote', async () => {
    await sensor('rebose_c', {});
    const t0 = Date.now() - 7_200 * S;
    // Spill 1 (t0 … +90 s), a dip of 2 min below the deadband (closes it), spill 2.
    await post('rebose_c', every10s(t0, [...repeat(4.3, 10), ...repeat(3.0, 12), ...repeat(4.4, 10), ...repeat(3.0, 10)]));
    const two = await until(async () => {
      const events = await eventsOf('rebose_c');
      return events.length === 2 && events.every((e) => e.endedAt !== null) ? events : null;
    });
    const first = two[1]!;
    const patched = await s.fetch(`/api/v1/overflow-events/${first.id}`, { method: 'PATCH', cookie: operator, json: { cause: 'Lluvia intensa' } });
    expect(patched.status).toBe(200);
    await patched.body?.cancel();
    // A second sensor's readings in between, sent late by a gateway that was down: at the crest all
    // through the dip, so no 60 s below the deadband ever ends the first spill.
    await post('rebose_c', every10s(t0 + 105 * S, repeat(4.1, 11)));
    const one = await until(async () => {
      const events = await eventsOf('rebose_c');
      return events.length === 1 ? events : null;
    });
    expect(one[0]).toMatchObject({ id: first.id, cause: 'Lluvia intensa', startedAt: new Date(t0).toISOString(), peakLevelM: 4.4, endedAt: new Date(t0 + 320 * S).toISOString() });
  });

  it('PATCH records cause, notes and when the regulator was told (write permission, audited, told live); a future date is refused', async () => {
    const [event] = await eventsOf('rebose_a');
    const path = `/api/v1/overflow-events/${event!.id}`;
    await expectApiError(await s.fetch(path, { method: 'PATCH', cookie: viewer, json: { cause: 'x' } }), 403);
    await expectApiError(await s.fetch('/api/v1/overflow-events/ovf_nope', { method: 'PATCH', cookie: operator, json: { cause: 'x' } }), 404, 'OVERFLOW_EVENT_NOT_FOUND');
    await expectApiError(await s.fetch('/api/v1/overflow-events/ovf_nope', { cookie: viewer }), 404, 'OVERFLOW_EVENT_NOT_FOUND');
    await expectApiError(await s.fetch(path, { method: 'PATCH', cookie: operator, json: { notifiedAt: new Date(Date.now() + 3_600 * S).toISOString() } }), 422, 'NOTIFIED_AT_IN_FUTURE');
    await expectApiError(await s.fetch(path, { method: 'PATCH', cookie: operator, json: { cause: 'x'.repeat(201) } }), 400);
    await expectApiError(await s.fetch(path, { method: 'PATCH', cookie: operator, json: { notes: 'x'.repeat(2001) } }), 400);
    await expectApiError(await s.fetch(path, { method: 'PATCH', cookie: operator, json: { peakLevelM: 1 } }), 400);

    const notifiedAt = new Date(Date.now() - 60 * S).toISOString();
    const from = live.frames.length;
    const res = await jsonOf<OverflowEvent>(await s.fetch(path, { method: 'PATCH', cookie: operator, json: { cause: 'Obstrucción del colector', notes: 'Aviso telefónico a la CHE.', notifiedAt } }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...event, cause: 'Obstrucción del colector', notes: 'Aviso telefónico a la CHE.', notifiedAt });
    const frame = await live.next((f) => f.type === 'overflow.updated' && (f.data as OverflowEvent).id === event!.id && (f.data as OverflowEvent).cause !== null, 5000, from);
    expect(frame.data).toEqual(res.body);
    const audit = await jsonOf<{ items: Array<{ action: string; target: string; details: { fields: string[] } }> }>(await s.fetch('/api/v1/audit?action=overflow.updated', { cookie: admin }));
    expect(audit.body.items[0]).toMatchObject({ action: 'overflow.updated', target: `overflow:${event!.id}` });
    expect(audit.body.items[0]!.details.fields.sort()).toEqual(['cause', 'notes', 'notifiedAt']);
  });

  it('lists newest first in pages, by device and start range; stats count events, 12/24 spills, duration and volume', async () => {
    const all = (await jsonOf<{ items: OverflowEvent[] }>(await s.fetch('/api/v1/overflow-events', { cookie: viewer }))).body.items;
    expect(all.map((e) => e.deviceId).sort()).toEqual(['rebose_a', 'rebose_b', 'rebose_c']);
    expect([...all].sort((a, b) => b.startedAt.localeCompare(a.startedAt))).toEqual(all);
    const page1 = (await jsonOf<{ items: OverflowEvent[]; nextCursor: string }>(await s.fetch('/api/v1/overflow-events?limit=2', { cookie: viewer }))).body;
    expect(page1.items).toEqual(all.slice(0, 2));
    const page2 = (await jsonOf<{ items: OverflowEvent[]; nextCursor: string | null }>(await s.fetch(`/api/v1/overflow-events?limit=2&cursor=${page1.nextCursor}`, { cookie: viewer }))).body;
    expect(page2).toEqual({ items: all.slice(2), nextCursor: null });
    const b = all.find((e) => e.deviceId === 'rebose_b')!;
    const ranged = (await jsonOf<{ items: OverflowEvent[] }>(await s.fetch(`/api/v1/overflow-events?from=${encodeURIComponent(b.startedAt)}&to=${encodeURIComponent(new Date(Date.parse(b.startedAt) + 1).toISOString())}`, { cookie: viewer }))).body.items;
    expect(ranged).toEqual([b]);
    await expectApiError(await s.fetch('/api/v1/overflow-events?limit=100000', { cookie: viewer }), 400);
    await expectApiError(await s.fetch('/api/v1/overflow-events?cursor=bm9wZQ', { cookie: viewer }), 400);
    await expectApiError(await s.fetch('/api/v1/overflow-events?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', { cookie: viewer }), 400, 'RANGE_INVALID');

    const stats = (await jsonOf<OverflowStats>(await s.fetch('/api/v1/overflow-events/stats', { cookie: viewer }))).body;
    const a = all.find((e) => e.deviceId === 'rebose_a')!;
    // Three devices, each of its events inside one 12-hour block: one 12/24 spill each.
    expect(stats).toEqual({ events: 3, spills1224: 3, totalDurationS: all.reduce((sum, e) => sum + e.durationS, 0), totalVolumeM3: a.volumeM3 });
    const noWeir = (await jsonOf<OverflowStats>(await s.fetch('/api/v1/overflow-events/stats?deviceId=rebose_b', { cookie: viewer }))).body;
    expect(noWeir).toMatchObject({ events: 1, spills1224: 1, totalVolumeM3: null });
  });

  it('the 12/24 count: spills 3 h apart count 1, spills 30 h apart count 2', async () => {
    const spill = (fromMs: number) => every10s(fromMs, [...repeat(4.5, 6), ...repeat(3.0, 14)]);
    const base = Date.now() - 40 * 3_600 * S;
    await sensor('rebose_3h', {});
    await post('rebose_3h', [...spill(base), ...spill(base + 3 * 3_600 * S)]);
    await sensor('rebose_30h', {});
    await post('rebose_30h', [...spill(base), ...spill(base + 30 * 3_600 * S)]);
    const statsOf = async (deviceId: string) => (await jsonOf<OverflowStats>(await s.fetch(`/api/v1/overflow-events/stats?deviceId=${deviceId}`, { cookie: viewer }))).body;
    await waitFor(async () => (await statsOf('rebose_3h')).events === 2 && (await statsOf('rebose_30h')).events === 2, 5000);
    expect(await statsOf('rebose_3h')).toMatchObject({ events: 2, spills1224: 1 });
    expect(await statsOf('rebose_30h')).toMatchObject({ events: 2, spills1224: 2 });
    // Each spill: 50 s at 4.5 m, ended by the first reading below the deadband.
    expect((await statsOf('rebose_30h')).totalDurationS).toBe(2 * 60);
  });

  it("the daily totals count the events started that day", async () => {
    // The day of the device's spill (TZ is UTC here): an hour ago may be yesterday just after midnight.
    const events = await eventsOf('rebose_a');
    const today = events[0]!.startedAt.slice(0, 10);
    const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400 * S).toISOString().slice(0, 10);
    const startedToday = events.filter((e) => e.startedAt.startsWith(today)).length;
    const days = (await jsonOf<{ items: DailyTotals[] }>(await s.fetch(`/api/v1/devices/rebose_a/daily?from=${today}&to=${tomorrow}`, { cookie: viewer }))).body.items;
    expect(days[0]!.overflowEvents).toBe(startedToday);
    expect(startedToday).toBeGreaterThan(0);
  });

  it('a restart goes on with the open event it left: same id, closed by readings after it', async () => {
    const [open] = await eventsOf('rebose_b');
    expect(open!.endedAt).toBeNull();
    live.close();
    await s.close();
    s = await startServer(ENV, { dataDir });
    [operator, viewer] = await Promise.all([s.login('operator'), s.login('viewer')]);
    const t = Date.parse(open!.startedAt) + 100 * S;
    await post('rebose_b', every10s(t, [4.6, ...repeat(3.0, 8)]));
    await waitFor(async () => (await eventsOf('rebose_b'))[0]!.endedAt !== null, 5000);
    const events = await eventsOf('rebose_b');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ id: open!.id, peakLevelM: 4.6, endedAt: new Date(t + 10 * S).toISOString() });
  });

  it('readings committed but never judged (a crash between the two) are judged at the next start', async () => {
    const before = await eventsOf('rebose_a');
    // What a crash right after the readings' commit leaves: readings, and no trace of their judging.
    await sqlRun(s, 'DELETE FROM overflow_events WHERE device_id = ?', 'rebose_a');
    await sqlRun(s, 'DELETE FROM overflow_cursors WHERE device_id = ?', 'rebose_a');
    await s.close();
    s = await startServer(ENV, { dataDir });
    viewer = await s.login('viewer');
    const again = await until(async () => {
      const events = await eventsOf('rebose_a');
      return events.length === before.length ? events : null;
    });
    // The same spills, found again from the readings (people's fields went with the rows).
    expect(again.map(({ id: _id, cause: _c, notes: _n, notifiedAt: _t, ...detected }) => detected)).toEqual(before.map(({ id: _id, cause: _c, notes: _n, notifiedAt: _t, ...detected }) => detected));
  });
});
