// docs/protocol.md "Checks, in this order" over real HTTP: every row of the table, the order of the
// stages, whole-batch refusal and the error envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, type ErrorCode } from '@agua/shared';
import { demoKey, startServer, type TestServer } from '../helpers/server';
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
  setEnabled,
} from '../helpers/protocol';
import { expectApiError } from '../helpers/api';

/** Asserts status + envelope with the exact Spanish text of the code (ERROR_MESSAGES). */
const expectError = (res: Response, status: number, code: ErrorCode) => expectApiError(res, status, code, ERROR_MESSAGES[code]) as Promise<{ error: string; code: string; details?: Record<string, unknown> }>;

async function expectAccepted(res: Response, accepted = 1) {
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status: 202 });
  expect(JSON.parse(text)).toEqual({ accepted, duplicates: 0, commands: [] });
}

const nowIso = () => new Date().toISOString();

describe('POST /api/v1/telemetry — checks and their order (no rate limit)', () => {
  let s: TestServer;
  let cookie: string;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0' });
    cookie = await s.login('viewer');
  });
  afterAll(async () => s.close());

  describe('1. key', () => {
    it('no key → 401 DEVICE_KEY_MISSING', async () => {
      await expectError(await postTelemetry(s, levelMsg(LEVEL_1, 1), { key: null }), 401, 'DEVICE_KEY_MISSING');
    });

    it('empty X-API-Key and a non-Bearer Authorization count as missing', async () => {
      await expectError(await postTelemetry(s, levelMsg(LEVEL_1, 1), { key: null, headers: { 'x-api-key': '' } }), 401, 'DEVICE_KEY_MISSING');
      await expectError(
        await postTelemetry(s, levelMsg(LEVEL_1, 1), { key: null, headers: { authorization: `Basic ${demoKey(LEVEL_1)}` } }),
        401,
        'DEVICE_KEY_MISSING',
      );
    });

    it('unknown key → 401 DEVICE_KEY_INVALID (also a very long one)', async () => {
      await expectError(await postTelemetry(s, levelMsg(LEVEL_1, 1), { key: 'demo-key-nope' }), 401, 'DEVICE_KEY_INVALID');
      await expectError(await postTelemetry(s, levelMsg(LEVEL_1, 1), { key: 'x'.repeat(5000) }), 401, 'DEVICE_KEY_INVALID');
    });

    it('Authorization: Bearer <key> works like X-API-Key', async () => {
      const before = await countReadings(s, LEVEL_1);
      await expectAccepted(await postTelemetry(s, levelMsg(LEVEL_1, 1.25), { headers: { authorization: `Bearer ${demoKey(LEVEL_1)}` } }));
      await expectAccepted(await postTelemetry(s, levelMsg(LEVEL_1, 1.5), { headers: { authorization: `bearer   ${demoKey(LEVEL_1)}` } }));
      expect(await countReadings(s, LEVEL_1)).toBe(before + 2);
    });

    it('a session cookie alone is not a device key → 401', async () => {
      const res = await fetch(`${s.url}/api/v1/telemetry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify(levelMsg(LEVEL_1, 1)),
      });
      await expectError(res, 401, 'DEVICE_KEY_MISSING');
    });

    it('the key is checked before anything else: no key + text/plain + garbage → 401', async () => {
      await expectError(await postTelemetry(s, null, { key: null, raw: 'x'.repeat(300 * 1024), contentType: 'text/plain' }), 401, 'DEVICE_KEY_MISSING');
      await expectError(await postTelemetry(s, null, { key: 'wrong', raw: '{nope', contentType: 'text/plain' }), 401, 'DEVICE_KEY_INVALID');
    });

    it('disabled device → 403 DEVICE_DISABLED, before size/type/shape; enabled again → accepted', async () => {
      setEnabled(s, GATE_2, false);
      try {
        await expectError(await postTelemetry(s, gateMsg(GATE_2, 'abierta')), 403, 'DEVICE_DISABLED');
        await expectError(await postTelemetry(s, null, { key: demoKey(GATE_2), raw: '{nope', contentType: 'text/plain' }), 403, 'DEVICE_DISABLED');
        expect(await countReadings(s, GATE_2)).toBe(0);
      } finally {
        setEnabled(s, GATE_2, true);
      }
      await expectAccepted(await postTelemetry(s, gateMsg(GATE_2, 'cerrada')));
    });
  });

  describe('3. size and content type', () => {
    const big = () => JSON.stringify(levelMsg(LEVEL_1, 1, { pad: 'x'.repeat(300 * 1024) }));

    it('a body over 256 KiB → 413 PAYLOAD_TOO_LARGE', async () => {
      const before = await countReadings(s, LEVEL_1);
      await expectError(await postTelemetry(s, null, { raw: big() }), 413, 'PAYLOAD_TOO_LARGE');
      expect(await countReadings(s, LEVEL_1)).toBe(before);
    });

    it('a chunked body (no Content-Length) over 256 KiB → 413 as well', async () => {
      const bytes = new TextEncoder().encode(big());
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < bytes.length; i += 16 * 1024) c.enqueue(bytes.subarray(i, i + 16 * 1024));
          c.close();
        },
      });
      const res = await fetch(`${s.url}/api/v1/telemetry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': demoKey(LEVEL_1) },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      await expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('a body of just under 256 KiB is fine (the limit is not lower than promised)', async () => {
      const msg = levelMsg(LEVEL_1, 2, { pad: '' });
      const base = JSON.stringify(msg).length;
      const raw = JSON.stringify({ ...msg, pad: 'y'.repeat(256 * 1024 - base - 16) });
      expect(raw.length).toBeLessThan(256 * 1024);
      await expectAccepted(await postTelemetry(s, null, { raw }));
    });

    it('size is checked before the content type: 300 KiB of text/plain → 413', async () => {
      await expectError(await postTelemetry(s, null, { raw: big(), contentType: 'text/plain' }), 413, 'PAYLOAD_TOO_LARGE');
    });

    it('text/plain → 415 UNSUPPORTED_MEDIA_TYPE, even with a valid JSON body', async () => {
      const before = await countReadings(s, LEVEL_1);
      await expectError(await postTelemetry(s, levelMsg(LEVEL_1, 1), { contentType: 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      await expectError(await postTelemetry(s, levelMsg(LEVEL_1, 1), { contentType: 'application/x-www-form-urlencoded' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(await countReadings(s, LEVEL_1)).toBe(before);
    });

    it('application/json with a charset parameter is accepted', async () => {
      await expectAccepted(await postTelemetry(s, levelMsg(LEVEL_1, 1), { contentType: 'application/json; charset=utf-8' }));
    });

    it('content type is checked before the shape: text/plain garbage → 415, not 400', async () => {
      await expectError(await postTelemetry(s, null, { raw: '{not json', contentType: 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });

  describe('4. shape (400)', () => {
    it('not JSON → 400 INVALID_JSON', async () => {
      await expectError(await postTelemetry(s, null, { raw: '{"deviceId": "esp32_nivel_01",' }), 400, 'INVALID_JSON');
      await expectError(await postTelemetry(s, null, { raw: '' }), 400, 'INVALID_JSON');
    });

    it.each([
      ['deviceId', { type: 'level_sensor', data: { value: 1 } }],
      ['type', { deviceId: LEVEL_1, data: { value: 1 } }],
      ['data', { deviceId: LEVEL_1, type: 'level_sensor' }],
      ['data.value', { deviceId: LEVEL_1, type: 'level_sensor', data: { unit: 'm' } }],
    ])('missing %s → 400 MESSAGE_INVALID', async (field, msg) => {
      const before = await countReadings(s, LEVEL_1);
      const body = await expectError(await postTelemetry(s, msg, { key: demoKey(LEVEL_1) }), 400, 'MESSAGE_INVALID');
      if (body.details?.field !== undefined) expect(body.details.field).toBe(field);
      expect(await countReadings(s, LEVEL_1)).toBe(before);
    });

    it('a message that is not an object (number, string, null) → 400', async () => {
      for (const raw of ['42', '"hola"', 'null', '[1]']) {
        await expectError(await postTelemetry(s, null, { raw }), 400, 'MESSAGE_INVALID');
      }
    });

    it('data that is not an object → 400', async () => {
      await expectError(await postTelemetry(s, { deviceId: LEVEL_1, type: 'level_sensor', data: 3.2 }), 400, 'MESSAGE_INVALID');
      await expectError(await postTelemetry(s, { deviceId: LEVEL_1, type: 'level_sensor', data: [3.2] }), 400, 'MESSAGE_INVALID');
    });

    it('an empty batch → 400 BATCH_EMPTY', async () => {
      await expectError(await postTelemetry(s, [], { key: demoKey(LEVEL_1) }), 400, 'BATCH_EMPTY');
    });

    it('a batch of 501 messages → 400 BATCH_TOO_LARGE; 500 are accepted', async () => {
      const t0 = Date.now() - 600_000;
      const batch = (n: number) => Array.from({ length: n }, (_, i) => levelMsg(LEVEL_2, 1, { ts: t0 + i }));
      const before = await countReadings(s, LEVEL_2);
      await expectError(await postTelemetry(s, batch(501)), 400, 'BATCH_TOO_LARGE');
      expect(await countReadings(s, LEVEL_2)).toBe(before);
      await expectAccepted(await postTelemetry(s, batch(500)), 500);
      expect(await countReadings(s, LEVEL_2)).toBe(before + 500);
    });
  });

  describe('5. identity (403)', () => {
    it("a deviceId that is not the key's device → 403 DEVICE_ID_MISMATCH", async () => {
      const before = await countReadings(s, LEVEL_2);
      await expectError(await postTelemetry(s, levelMsg(LEVEL_2, 1), { key: demoKey(LEVEL_1) }), 403, 'DEVICE_ID_MISMATCH');
      expect(await countReadings(s, LEVEL_2)).toBe(before);
    });

    it('identity is checked before values: a foreign id with a bad value → 403', async () => {
      await expectError(await postTelemetry(s, levelMsg(LEVEL_2, null), { key: demoKey(LEVEL_1) }), 403, 'DEVICE_ID_MISMATCH');
    });
  });

  describe('6. values (422)', () => {
    const cases: Array<[string, () => unknown, ErrorCode, string]> = [
      ['wrong type for the device', () => gateMsg(LEVEL_1, 'abierta'), 'TYPE_MISMATCH', 'type'],
      ['an unknown type', () => ({ ...levelMsg(LEVEL_1, 1), type: 'thermometer' }), 'TYPE_MISMATCH', 'type'],
      ['null level value', () => levelMsg(LEVEL_1, null), 'VALUE_INVALID', 'data.value'],
      ['NaN-like string value', () => levelMsg(LEVEL_1, 'NaN'), 'VALUE_INVALID', 'data.value'],
      ['numeric string value', () => levelMsg(LEVEL_1, '3.2'), 'VALUE_INVALID', 'data.value'],
      ['boolean value', () => levelMsg(LEVEL_1, true), 'VALUE_INVALID', 'data.value'],
      ["unit 'cm'", () => ({ deviceId: LEVEL_1, type: 'level_sensor', data: { value: 1, unit: 'cm' } }), 'UNIT_INVALID', 'data.unit'],
      ['unit null', () => ({ deviceId: LEVEL_1, type: 'level_sensor', data: { value: 1, unit: null } }), 'UNIT_INVALID', 'data.unit'],
      ["gate value 'medio'", () => gateMsg(GATE_1, 'medio'), 'VALUE_INVALID', 'data.value'],
      ["gate value 'ABIERTA' (case matters)", () => gateMsg(GATE_1, 'ABIERTA'), 'VALUE_INVALID', 'data.value'],
      ['gate value null', () => gateMsg(GATE_1, null), 'VALUE_INVALID', 'data.value'],
      ['ts: ISO without offset', () => levelMsg(LEVEL_1, 1, { ts: '2025-01-01T10:00:00' }), 'TS_INVALID', 'ts'],
      ['ts: a date only', () => levelMsg(LEVEL_1, 1, { ts: '2025-01-01' }), 'TS_INVALID', 'ts'],
      ['ts: not a date', () => levelMsg(LEVEL_1, 1, { ts: 'ayer' }), 'TS_INVALID', 'ts'],
      ['ts: null', () => levelMsg(LEVEL_1, 1, { ts: null }), 'TS_INVALID', 'ts'],
      ['ts: impossible calendar date', () => levelMsg(LEVEL_1, 1, { ts: '2025-13-45T10:00:00Z' }), 'TS_INVALID', 'ts'],
      ['ts: epoch seconds', () => levelMsg(LEVEL_1, 1, { ts: 1_700_000_000 }), 'TS_LOOKS_LIKE_SECONDS', 'ts'],
      ['ts: 10 minutes in the future (ms)', () => levelMsg(LEVEL_1, 1, { ts: Date.now() + 10 * 60_000 }), 'TS_IN_FUTURE', 'ts'],
      ['ts: 10 minutes in the future (ISO)', () => levelMsg(LEVEL_1, 1, { ts: new Date(Date.now() + 10 * 60_000).toISOString() }), 'TS_IN_FUTURE', 'ts'],
      ['seq -1', () => levelMsg(LEVEL_1, 1, { seq: -1 }), 'SEQ_INVALID', 'seq'],
      ['seq 1.5', () => levelMsg(LEVEL_1, 1, { seq: 1.5 }), 'SEQ_INVALID', 'seq'],
      ["seq 'a'", () => levelMsg(LEVEL_1, 1, { seq: 'a' }), 'SEQ_INVALID', 'seq'],
      ["seq '1' (a string)", () => levelMsg(LEVEL_1, 1, { seq: '1' }), 'SEQ_INVALID', 'seq'],
      ['boot too long', () => levelMsg(LEVEL_1, 1, { seq: 1, boot: 'b'.repeat(200) }), 'BOOT_INVALID', 'boot'],
      ['boot a number', () => levelMsg(LEVEL_1, 1, { seq: 1, boot: 7 }), 'BOOT_INVALID', 'boot'],
    ];

    it.each(cases)('%s → 422', async (_name, msg, code, field) => {
      const before = await countReadings(s, LEVEL_1) + await countReadings(s, GATE_1);
      const body = await expectError(await postTelemetry(s, msg()), 422, code);
      // A single message (not a batch) has no index; the offending field is named.
      expect(body.details?.index).toBeUndefined();
      expect(body.details?.field).toBe(field);
      expect(await countReadings(s, LEVEL_1) + await countReadings(s, GATE_1)).toBe(before);
    });

    it('epoch seconds are refused with a message that says seconds', async () => {
      const body = await expectError(await postTelemetry(s, levelMsg(LEVEL_1, 1, { ts: 1_700_000_000 })), 422, 'TS_LOOKS_LIKE_SECONDS');
      expect(body.error).toMatch(/segundos/i);
      expect(body.error).toMatch(/milisegundos/i);
    });

    it('the future refusal says so', async () => {
      const body = await expectError(await postTelemetry(s, levelMsg(LEVEL_1, 1, { ts: Date.now() + 600_000 })), 422, 'TS_IN_FUTURE');
      expect(body.error).toMatch(/futuro/i);
    });

    it('ts ISO with +02:00 is accepted and stored as that instant', async () => {
      const instant = Date.now() - 3_600_000; // an hour ago, rounded to the second
      const secs = Math.floor(instant / 1000) * 1000;
      const local = new Date(secs + 2 * 3_600_000).toISOString().replace('Z', '+02:00').replace('.000', '');
      await expectAccepted(await postTelemetry(s, levelMsg(LEVEL_2, 1.111, { ts: local })));
      expect((await readingRows(s, LEVEL_2)).some((r) => r.tsMs === secs && r.valueNum === 1.111)).toBe(true);
    });

    it('ts epoch milliseconds is accepted and stored as given', async () => {
      const ms = Date.now() - 120_000;
      await expectAccepted(await postTelemetry(s, levelMsg(LEVEL_2, 1.222, { ts: ms })));
      expect((await readingRows(s, LEVEL_2)).some((r) => r.tsMs === ms && r.valueNum === 1.222)).toBe(true);
    });

    it('ts up to 5 minutes ahead (clock skew) and 2000-01-01T00:00:00Z exactly are accepted', async () => {
      await expectAccepted(await postTelemetry(s, levelMsg(LEVEL_2, 1, { ts: Date.now() + 4 * 60_000 })));
      await expectAccepted(await postTelemetry(s, levelMsg(LEVEL_2, 1, { ts: Date.UTC(2000, 0, 1) })));
      await expectAccepted(await postTelemetry(s, levelMsg(LEVEL_2, 1, { ts: '2000-01-01T01:00:00+01:00' })));
    });

    it('ts before 2000-01-01 (a device clock never set) is refused, as a number or ISO, and nothing is stored', async () => {
      const before = await countReadings(s, LEVEL_2);
      for (const ts of ['0001-01-01T00:00:00Z', '1999-12-31T23:59:59.999Z', '2000-01-01T00:30:00+01:00', 1e11, Date.UTC(2000, 0, 1) - 1]) {
        const body = await expectError(await postTelemetry(s, levelMsg(LEVEL_2, 1, { ts })), 422, 'TS_TOO_OLD');
        expect(body.error).toMatch(/2000/);
      }
      const batch = [levelMsg(LEVEL_2, 1, { ts: nowIso() }), levelMsg(LEVEL_2, 1, { ts: '1970-01-02T00:00:00Z' })];
      const body = await expectError(await postTelemetry(s, batch), 422, 'TS_TOO_OLD');
      expect(body.details?.index).toBe(1);
      expect(await countReadings(s, LEVEL_2)).toBe(before);
    });

    it('seq 0, a big safe seq and a 64-character boot are accepted', async () => {
      await expectAccepted(await postTelemetry(s, levelMsg(LEVEL_2, 1, { seq: 0, boot: 'b'.repeat(64) })));
      await expectAccepted(await postTelemetry(s, levelMsg(LEVEL_2, 1, { seq: Number.MAX_SAFE_INTEGER, boot: 'z' })));
      await expectError(await postTelemetry(s, levelMsg(LEVEL_2, 1, { seq: 1, boot: 'b'.repeat(65) })), 422, 'BOOT_INVALID');
    });
  });

  describe('whole-batch refusal and stage order within a batch', () => {
    const ok = (v: number) => levelMsg(LEVEL_1, v, { ts: Date.now() - 1000 });

    it('one bad message refuses the whole batch, details.index = first bad one (0-based)', async () => {
      const before = await countReadings(s, LEVEL_1);
      const deviceBefore = await getDevice(s, cookie, LEVEL_1);
      const batch = [ok(7.1), ok(7.2), levelMsg(LEVEL_1, null), ok(7.3), levelMsg(LEVEL_1, 'x')];
      const body = await expectError(await postTelemetry(s, batch), 422, 'VALUE_INVALID');
      expect(body.details?.index).toBe(2);
      expect(await countReadings(s, LEVEL_1)).toBe(before);
      const deviceAfter = await getDevice(s, cookie, LEVEL_1);
      expect(deviceAfter.reading).toEqual(deviceBefore.reading);
    });

    it('details.index for the first message is 0 (not omitted)', async () => {
      const body = await expectError(await postTelemetry(s, [levelMsg(LEVEL_1, 1, { seq: -1 }), ok(1)]), 422, 'SEQ_INVALID');
      expect(body.details?.index).toBe(0);
    });

    it('each stage runs over the whole batch: a shape error at index 3 beats a value error at index 0', async () => {
      const batch = [levelMsg(LEVEL_1, null), ok(1), ok(2), { deviceId: LEVEL_1, type: 'level_sensor' }];
      const body = await expectError(await postTelemetry(s, batch), 400, 'MESSAGE_INVALID');
      expect(body.details?.index).toBe(3);
    });

    it('identity at index 2 beats a value error at index 1', async () => {
      const batch = [ok(1), levelMsg(LEVEL_1, 1, { ts: 1_700_000_000 }), levelMsg(LEVEL_2, 1)];
      const body = await expectError(await postTelemetry(s, batch), 403, 'DEVICE_ID_MISMATCH');
      expect(body.details?.index).toBe(2);
    });

    it('a shape error beats an identity error earlier in the batch', async () => {
      const batch = [levelMsg(LEVEL_2, 1), ok(1), { deviceId: LEVEL_1, type: 'level_sensor', data: {} }];
      const body = await expectError(await postTelemetry(s, batch), 400, 'MESSAGE_INVALID');
      expect(body.details?.index).toBe(2);
    });

    it('BATCH_TOO_LARGE is a shape error: it beats value errors inside the batch', async () => {
      const batch = Array.from({ length: 501 }, () => levelMsg(LEVEL_1, null));
      await expectError(await postTelemetry(s, batch), 400, 'BATCH_TOO_LARGE');
    });

    it('a batch mixing a good and a bad ts stores nothing', async () => {
      const before = await countReadings(s, LEVEL_1);
      const batch = [ok(3), levelMsg(LEVEL_1, 3, { ts: Date.now() + 3_600_000 })];
      const body = await expectError(await postTelemetry(s, batch), 422, 'TS_IN_FUTURE');
      expect(body.details?.index).toBe(1);
      expect(await countReadings(s, LEVEL_1)).toBe(before);
    });
  });

  describe('tolerance: newer firmware keeps working', () => {
    it('unknown extra fields (data.rssi, data.battery, top level) are accepted and ignored', async () => {
      const before = await countReadings(s, LEVEL_1);
      const msg = {
        deviceId: LEVEL_1,
        type: 'level_sensor',
        data: { value: 4.321, unit: 'm', rssi: -67, battery: 3.7, extra: { nested: [1, 2] } },
        fw: '2.1.0',
        future: { anything: true },
      };
      await expectAccepted(await postTelemetry(s, msg));
      expect(await countReadings(s, LEVEL_1)).toBe(before + 1);
      expect((await getDevice(s, cookie, LEVEL_1)).reading).toMatchObject({ value: 4.321, unit: 'm' });
    });

    it('data.unit left out is accepted (it is m)', async () => {
      await expectAccepted(await postTelemetry(s, { deviceId: LEVEL_1, type: 'level_sensor', data: { value: 4.5 } }));
      expect((await getDevice(s, cookie, LEVEL_1)).reading).toMatchObject({ value: 4.5, unit: 'm' });
    });

    it('a gate message without unit, and every gate state, is accepted', async () => {
      for (const state of ['abierta', 'cerrada', 'abriendo', 'cerrando', 'falla']) {
        await expectAccepted(await postTelemetry(s, gateMsg(GATE_1, state, { ts: nowIso() })));
      }
    });
  });
});

describe('POST /api/v1/telemetry — rate limit (DEVICE_RATE_LIMIT=2)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '2' });
  });
  afterAll(async () => s.close());

  it('a burst gets 429 RATE_LIMITED with Retry-After; the first two are stored', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => postTelemetry(s, levelMsg(LEVEL_1, i))));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((x) => x === 202)).toHaveLength(2);
    expect(statuses.filter((x) => x === 429)).toHaveLength(4);
    for (const r of results) {
      if (r.status !== 429) continue;
      const retry = Number(r.headers.get('retry-after'));
      expect(Number.isInteger(retry) && retry >= 1).toBe(true);
      await expectError(r, 429, 'RATE_LIMITED');
    }
    expect(await countReadings(s, LEVEL_1)).toBe(2);
  });

  it('rate comes before size, content type and shape, but after the key', async () => {
    // LEVEL_2's bucket: spend it, then everything else is 429, whatever it holds.
    await postTelemetry(s, levelMsg(LEVEL_2, 1));
    await postTelemetry(s, levelMsg(LEVEL_2, 1));
    await expectError(await postTelemetry(s, null, { key: demoKey(LEVEL_2), raw: '{bad', contentType: 'text/plain' }), 429, 'RATE_LIMITED');
    await expectError(await postTelemetry(s, null, { key: demoKey(LEVEL_2), raw: 'x'.repeat(300 * 1024) }), 429, 'RATE_LIMITED');
    await expectError(await postTelemetry(s, levelMsg(LEVEL_1, 1), { key: demoKey(LEVEL_2) }), 429, 'RATE_LIMITED');
    // The key still comes first.
    await expectError(await postTelemetry(s, levelMsg(LEVEL_2, 1), { key: 'bad-key' }), 401, 'DEVICE_KEY_INVALID');
  });

  it('the limit is per device: another device is not affected', async () => {
    await expectAccepted(await postTelemetry(s, gateMsg(GATE_1, 'abierta')));
  });

  it('refused requests count too: after waiting Retry-After the device is served again', async () => {
    const burst = await Promise.all(Array.from({ length: 4 }, () => postTelemetry(s, gateMsg(GATE_2, 'cerrada'))));
    const limited = burst.find((r) => r.status === 429);
    expect(limited).toBeDefined();
    const wait = Number(limited!.headers.get('retry-after'));
    await new Promise((r) => setTimeout(r, wait * 1000 + 50));
    await expectAccepted(await postTelemetry(s, gateMsg(GATE_2, 'abierta')));
  });
});
