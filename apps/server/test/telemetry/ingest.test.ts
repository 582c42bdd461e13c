// docs/protocol.md ingest semantics over real HTTP: 202 body, dedupe by (deviceId, boot, seq),
// computed status, late batches, lastSeen, online/offline, and hostile input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import {
  GATE_1,
  GATE_2,
  LEVEL_1,
  LEVEL_2,
  countReadings,
  gateMsg,
  getDevice,
  levelMsg,
  postTelemetry,
  readingRows,
  waitFor,
} from '../helpers/protocol';
import { sqlGet } from '../helpers/sql';

async function post202(s: TestServer, body: unknown) {
  const res = await postTelemetry(s, body);
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status: 202 });
  return JSON.parse(text) as { accepted: number; duplicates: number; commands: unknown[] };
}

describe('telemetry ingest', () => {
  let s: TestServer;
  let cookie: string;
  beforeAll(async () => {
    // Offline after 1 s so the offline test is quick; no rate limit to keep tests independent.
    s = await startServer({ DEVICE_OFFLINE_AFTER_S: '1', DEVICE_RATE_LIMIT: '0' });
    cookie = await s.login('viewer');
  });
  afterAll(async () => s.close());

  describe('202 answer', () => {
    it('one message → 202 {accepted: 1, duplicates: 0, commands: []}', async () => {
      const before = await countReadings(s, LEVEL_1);
      expect(await post202(s, levelMsg(LEVEL_1, 3.42))).toEqual({ accepted: 1, duplicates: 0, commands: [] });
      expect(await countReadings(s, LEVEL_1)).toBe(before + 1);
    });

    it('a batch → accepted counts every message; the rows are there when 202 arrives', async () => {
      const t0 = Date.now() - 60_000;
      const before = await countReadings(s, LEVEL_1);
      const batch = Array.from({ length: 7 }, (_, i) => levelMsg(LEVEL_1, 1 + i / 10, { ts: t0 + i * 1000 }));
      expect(await post202(s, batch)).toEqual({ accepted: 7, duplicates: 0, commands: [] });
      expect(await countReadings(s, LEVEL_1)).toBe(before + 7);
    });
  });

  describe('duplicates by (deviceId, boot, seq)', () => {
    it('resending the same (boot, seq) → duplicates 1, stored once', async () => {
      const before = await countReadings(s, LEVEL_2);
      const msg = levelMsg(LEVEL_2, 2.5, { seq: 100, boot: 'a1b2' });
      expect(await post202(s, msg)).toEqual({ accepted: 1, duplicates: 0, commands: [] });
      expect(await post202(s, msg)).toEqual({ accepted: 0, duplicates: 1, commands: [] });
      // Even with a different value: it is the same message resent.
      expect(await post202(s, { ...msg, data: { value: 2.6 } })).toEqual({ accepted: 0, duplicates: 1, commands: [] });
      expect(await countReadings(s, LEVEL_2)).toBe(before + 1);
    });

    it('the same seq with a different boot is a new reading', async () => {
      const before = await countReadings(s, LEVEL_2);
      expect(await post202(s, levelMsg(LEVEL_2, 2.5, { seq: 200, boot: 'boot-A' }))).toMatchObject({ accepted: 1, duplicates: 0 });
      expect(await post202(s, levelMsg(LEVEL_2, 2.5, { seq: 200, boot: 'boot-B' }))).toMatchObject({ accepted: 1, duplicates: 0 });
      expect(await countReadings(s, LEVEL_2)).toBe(before + 2);
    });

    it('the same (boot, seq) on another device is not a duplicate', async () => {
      expect(await post202(s, levelMsg(LEVEL_1, 1, { seq: 300, boot: 'shared' }))).toMatchObject({ accepted: 1 });
      expect(await post202(s, levelMsg(LEVEL_2, 1, { seq: 300, boot: 'shared' }))).toMatchObject({ accepted: 1 });
    });

    it('a batch holding the same seq twice → 1 accepted, 1 duplicate', async () => {
      const before = await countReadings(s, LEVEL_2);
      const batch = [levelMsg(LEVEL_2, 1.1, { seq: 400, boot: 'x' }), levelMsg(LEVEL_2, 1.2, { seq: 400, boot: 'x' })];
      expect(await post202(s, batch)).toEqual({ accepted: 1, duplicates: 1, commands: [] });
      expect(await countReadings(s, LEVEL_2)).toBe(before + 1);
    });

    it('a resent batch after a lost 202: only the new messages are stored; the counts add up', async () => {
      const before = await countReadings(s, LEVEL_2);
      const t0 = Date.now() - 30_000;
      const first = Array.from({ length: 5 }, (_, i) => levelMsg(LEVEL_2, 1, { seq: 500 + i, boot: 'r', ts: t0 + i }));
      expect(await post202(s, first)).toMatchObject({ accepted: 5, duplicates: 0 });
      const second = [...first, ...Array.from({ length: 3 }, (_, i) => levelMsg(LEVEL_2, 1, { seq: 505 + i, boot: 'r', ts: t0 + 5 + i }))];
      expect(await post202(s, second)).toMatchObject({ accepted: 3, duplicates: 5 });
      expect(await countReadings(s, LEVEL_2)).toBe(before + 8);
    });

    it('without boot the boot is "": same seq without boot and with boot "" is a duplicate', async () => {
      expect(await post202(s, levelMsg(LEVEL_2, 1, { seq: 600 }))).toMatchObject({ accepted: 1, duplicates: 0 });
      expect(await post202(s, levelMsg(LEVEL_2, 1, { seq: 600, boot: '' }))).toMatchObject({ accepted: 0, duplicates: 1 });
    });

    it('without seq there is no deduplication', async () => {
      const before = await countReadings(s, LEVEL_2);
      const msg = levelMsg(LEVEL_2, 3.3, { boot: 'nb', ts: Date.now() - 5000 });
      await post202(s, msg);
      await post202(s, msg);
      expect(await post202(s, [msg, msg])).toEqual({ accepted: 2, duplicates: 0, commands: [] });
      expect(await countReadings(s, LEVEL_2)).toBe(before + 4);
    });

    it('concurrent resends of the same message store it once', async () => {
      const before = await countReadings(s, GATE_2);
      const msg = gateMsg(GATE_2, 'abierta', { seq: 1, boot: 'c' });
      const results = await Promise.all(Array.from({ length: 8 }, () => post202(s, msg)));
      expect(results.reduce((n, r) => n + r.accepted, 0)).toBe(1);
      expect(results.reduce((n, r) => n + r.duplicates, 0)).toBe(7);
      expect(await countReadings(s, GATE_2)).toBe(before + 1);
    });
  });

  describe('computed status', () => {
    // esp32_nivel_01: maxLevel 10, warning strictly above 6, critical strictly above 8.5,
    // fault below -0.5 or above 12.
    it.each([
      [0, 'normal'],
      [5.9, 'normal'],
      [6, 'normal'],
      [6.01, 'warning'],
      [8.5, 'warning'],
      [8.6, 'critical'],
      [12, 'critical'],
      [12.1, 'fault'],
      [-0.5, 'normal'],
      [-0.6, 'fault'],
      [1e300, 'fault'],
    ])('level %d m on a 10 m tank → %s', async (value, status) => {
      await post202(s, levelMsg(LEVEL_1, value));
      const d = await getDevice(s, cookie, LEVEL_1);
      expect(d.reading).toMatchObject({ value, unit: 'm', status });
      const rows = await readingRows(s, LEVEL_1);
      expect(rows[rows.length - 1]).toMatchObject({ valueNum: value, status });
    });

    it('thresholds follow the device maxLevel: 5 m tank', async () => {
      const expectStatus = async (value: number, status: string) => {
        await post202(s, levelMsg(LEVEL_2, value));
        expect((await getDevice(s, cookie, LEVEL_2)).reading).toMatchObject({ value, status });
      };
      await expectStatus(3, 'normal');
      await expectStatus(3.01, 'warning');
      await expectStatus(4.3, 'critical');
      await expectStatus(6.1, 'fault');
      await expectStatus(-0.3, 'fault');
    });

    it("gate 'falla' → fault, other states normal; unit null; config.state follows", async () => {
      await post202(s, gateMsg(GATE_1, 'abierta'));
      let d = await getDevice(s, cookie, GATE_1);
      expect(d.reading).toMatchObject({ value: 'abierta', unit: null, status: 'normal' });
      expect(d.config.state).toBe('abierta');
      await post202(s, gateMsg(GATE_1, 'falla'));
      d = await getDevice(s, cookie, GATE_1);
      expect(d.reading).toMatchObject({ value: 'falla', status: 'fault' });
      expect(d.config.state).toBe('falla');
      expect((await readingRows(s, GATE_1)).at(-1)).toMatchObject({ valueText: 'falla', status: 'fault' });
    });
  });

  describe('current reading and history', () => {
    it('a late batch fills history but does not move the current reading backwards', async () => {
      const now = Date.now();
      await post202(s, levelMsg(LEVEL_1, 2.22)); // ts = time of receipt
      const current = (await getDevice(s, cookie, LEVEL_1)).reading!;
      expect(current).toMatchObject({ value: 2.22 });
      const currentMs = Date.parse(current.ts);
      expect(currentMs).toBeGreaterThanOrEqual(now);

      const before = await countReadings(s, LEVEL_1);
      const late = Array.from({ length: 10 }, (_, i) => levelMsg(LEVEL_1, 9 + i / 100, { ts: now - 3_600_000 + i * 60_000 }));
      expect(await post202(s, late)).toMatchObject({ accepted: 10 });
      expect(await countReadings(s, LEVEL_1)).toBe(before + 10);
      expect((await getDevice(s, cookie, LEVEL_1)).reading).toEqual(current);
      // The stored current reading (what a restart would load) did not move either.
      const row = (await sqlGet<{ ts: number; v: number }>(s, 'SELECT reading_ts_ms AS ts, reading_value_num AS v FROM devices WHERE id = ?', LEVEL_1))!;
      expect({ ts: Number(row.ts), v: row.v }).toEqual({ ts: currentMs, v: 2.22 });
    });

    it('within one batch the newest ts becomes current, whatever its position', async () => {
      // Slightly ahead (within the 5-minute tolerance) so that all three are newer than the current one.
      const now = Date.now();
      const batch = [levelMsg(LEVEL_1, 3.01, { ts: now + 300 }), levelMsg(LEVEL_1, 3.03, { ts: now + 900 }), levelMsg(LEVEL_1, 3.02, { ts: now + 600 })];
      await post202(s, batch);
      expect((await getDevice(s, cookie, LEVEL_1)).reading).toMatchObject({ value: 3.03, ts: new Date(now + 900).toISOString() });
    });

    it('a gate late batch does not change the gate state either', async () => {
      await post202(s, gateMsg(GATE_1, 'cerrada'));
      await post202(s, [gateMsg(GATE_1, 'abriendo', { ts: Date.now() - 120_000 }), gateMsg(GATE_1, 'abierta', { ts: Date.now() - 60_000 })]);
      const d = await getDevice(s, cookie, GATE_1);
      expect(d.reading).toMatchObject({ value: 'cerrada' });
      expect(d.config.state).toBe('cerrada');
    });

    it('lastSeen moves to the time of receipt, even for a late batch', async () => {
      const before = Date.now();
      await post202(s, levelMsg(LEVEL_2, 1, { ts: before - 3_600_000 }));
      const d = await getDevice(s, cookie, LEVEL_2);
      expect(d.lastSeen).not.toBeNull();
      const seen = Date.parse(d.lastSeen!);
      expect(seen).toBeGreaterThanOrEqual(before - 5);
      expect(seen).toBeLessThanOrEqual(Date.now());
    });
  });

  describe('online and offline', () => {
    it('a device comes online on a reading and goes offline after DEVICE_OFFLINE_AFTER_S (1 s)', async () => {
      // Wait until nothing of the earlier tests keeps it online.
      await waitFor(async () => (await getDevice(s, cookie, GATE_2)).status === 'offline', 4000, 100);
      await post202(s, gateMsg(GATE_2, 'cerrada'));
      const online = await getDevice(s, cookie, GATE_2);
      expect(online.status).toBe('online');
      expect(online.config.offlineAfterS).toBe(1);
      // Offline within 2.5 s (the 1 s timeout plus a tick of the offline check), seen as soon as it happens.
      const offline = (await waitFor(async () => {
        const d = await getDevice(s, cookie, GATE_2);
        return d.status === 'offline' ? d : null;
      }, 2500, 50))!;
      expect(offline.status).toBe('offline');
      // The last reading stays (the UI decides what to show) and lastSeen does not move.
      expect(offline.reading).toMatchObject({ value: 'cerrada' });
      expect(offline.lastSeen).toBe(online.lastSeen);
    });

    it('a refused message stores nothing, but the device was heard: online, lastSeen moves', async () => {
      await waitFor(async () => (await getDevice(s, cookie, GATE_2)).status === 'offline', 4000, 100);
      const before = await getDevice(s, cookie, GATE_2);
      const res = await postTelemetry(s, gateMsg(GATE_2, 'medio'));
      expect(res.status).toBe(422);
      const after = await getDevice(s, cookie, GATE_2);
      expect(after.status).toBe('online');
      expect(Date.parse(after.lastSeen!)).toBeGreaterThan(before.lastSeen ? Date.parse(before.lastSeen) : 0);
      expect(after.reading).toEqual(before.reading);
    });

    it('an unknown key is not a sign of life of anyone', async () => {
      await waitFor(async () => (await getDevice(s, cookie, GATE_2)).status === 'offline', 4000, 100);
      expect((await postTelemetry(s, gateMsg(GATE_2, 'cerrada'), { key: 'not-a-key' })).status).toBe(401);
      expect((await getDevice(s, cookie, GATE_2)).status).toBe('offline');
    });
  });

  describe('hostile input never crashes the server', () => {
    const health = async () => (await s.fetch('/api/health')).status;

    it('deeply nested JSON → 4xx, server healthy', async () => {
      const depth = 100_000; // 200 KB, under the body limit
      const res = await postTelemetry(s, null, { raw: '['.repeat(depth) + ']'.repeat(depth) });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      const nestedData = `{"deviceId":"${LEVEL_1}","type":"level_sensor","data":{"value":1,"x":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}}`;
      const res2 = await postTelemetry(s, null, { raw: nestedData });
      expect(res2.status).toBeLessThan(500);
      expect(await health()).toBe(200);
    });

    it('huge numbers: 1e309 (Infinity) value, huge seq, huge ts → 422; health 200', async () => {
      const raw = `{"deviceId":"${LEVEL_1}","type":"level_sensor","data":{"value":1e309}}`;
      expect((await postTelemetry(s, null, { raw })).status).toBe(422);
      expect((await postTelemetry(s, levelMsg(LEVEL_1, 1, { seq: 1e20 }))).status).toBe(422);
      expect((await postTelemetry(s, levelMsg(LEVEL_1, 1, { ts: 1e20 }))).status).toBe(422);
      const longNumber = `{"deviceId":"${LEVEL_1}","type":"level_sensor","data":{"value":${'9'.repeat(100_000)}}}`;
      expect((await postTelemetry(s, null, { raw: longNumber })).status).toBe(422);
      expect(await health()).toBe(200);
    });

    it('prototype-pollution keys (__proto__, constructor.prototype) → 400, nothing polluted', async () => {
      const count = await countReadings(s, LEVEL_1);
      const bodies = [
        `{"__proto__":{"deviceId":"${LEVEL_1}","type":"level_sensor","data":{"value":1}}}`,
        `{"deviceId":"${LEVEL_1}","type":"level_sensor","data":{"value":1,"__proto__":{"polluted":"yes"}}}`,
        `{"deviceId":"${LEVEL_1}","type":"level_sensor","data":{"value":1},"constructor":{"prototype":{"polluted":"yes"}}}`,
        `[{"deviceId":"${LEVEL_1}","type":"level_sensor","data":{"__proto__":{"value":1}}}]`,
      ];
      for (const raw of bodies) {
        const res = await postTelemetry(s, null, { raw });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).value).toBeUndefined();
      expect(await countReadings(s, LEVEL_1)).toBe(count);
      expect(await health()).toBe(200);
    });

    it('odd strings: a 200 KB deviceId, control characters, lone surrogates → 4xx; health 200', async () => {
      expect((await postTelemetry(s, levelMsg('x'.repeat(200_000), 1), { key: 'demo-key-esp32_nivel_01' })).status).toBe(403);
      expect((await postTelemetry(s, levelMsg(LEVEL_1, 1, { boot: '\u0000\ud800' }))).status).toBe(202);
      // The boot is opaque: a NUL in it still dedupes (PostgreSQL's text cannot hold NUL as such),
      // and two boots that differ only in how a NUL and a backslash sit are two boots.
      const withSeq = levelMsg(LEVEL_1, 1, { boot: 'a\u0000\\0', seq: 7 });
      expect(await (await postTelemetry(s, withSeq)).json()).toMatchObject({ accepted: 1, duplicates: 0 });
      expect(await (await postTelemetry(s, withSeq)).json()).toMatchObject({ accepted: 0, duplicates: 1 });
      expect(await (await postTelemetry(s, levelMsg(LEVEL_1, 1, { boot: 'a\\0\u0000', seq: 7 }))).json()).toMatchObject({ accepted: 1, duplicates: 0 });
      // Two boots that differ only in a lone surrogate (UTF-8 would make both U+FFFD) stay two.
      const lone = [levelMsg(LEVEL_1, 1, { boot: 'b\ud800', seq: 9, ts: Date.now() - 2 }), levelMsg(LEVEL_1, 1, { boot: 'b\udc00', seq: 9, ts: Date.now() - 1 })];
      expect(await (await postTelemetry(s, lone)).json()).toMatchObject({ accepted: 2, duplicates: 0 });
      expect(await (await postTelemetry(s, lone)).json()).toMatchObject({ accepted: 0, duplicates: 2 });
      expect((await postTelemetry(s, gateMsg(GATE_1, '\u0000abierta'))).status).toBe(422);
      expect((await postTelemetry(s, null, { raw: '\u0000\u0001' })).status).toBe(400);
      expect(await health()).toBe(200);
    });

    it('many concurrent requests from all devices are all answered 202 and stored', async () => {
      const before = await Promise.all([LEVEL_1, LEVEL_2, GATE_1, GATE_2].map((d) => countReadings(s, d)));
      const reqs = Array.from({ length: 100 }, (_, i) =>
        i % 4 < 2 ? levelMsg(i % 4 === 0 ? LEVEL_1 : LEVEL_2, 1, { ts: Date.now() - 10_000 }) : gateMsg(i % 4 === 2 ? GATE_1 : GATE_2, 'abierta', { ts: Date.now() - 10_000 }),
      );
      const res = await Promise.all(reqs.map((m) => postTelemetry(s, m)));
      expect(res.map((r) => r.status)).toEqual(Array(100).fill(202));
      const after = await Promise.all([LEVEL_1, LEVEL_2, GATE_1, GATE_2].map((d) => countReadings(s, d)));
      expect(after.map((n, i) => n - before[i]!)).toEqual([25, 25, 25, 25]);
    });
  });
});
