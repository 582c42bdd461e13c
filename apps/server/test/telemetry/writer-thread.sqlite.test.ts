// The readings writer runs on a thread of its own (ADR 008). When that thread dies in the middle
// of the ingest, the readings it had not committed are refused with 503 (the device keeps them and
// resends), every reading answered 202 is stored exactly once, and the next write starts a new
// thread by itself — over HTTP and over MQTT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topics } from '@agua/shared';
import { expectApiError } from '../helpers/api';
import { LEVEL_1, LEVEL_2, connectDevice, endClient, levelMsg, postTelemetry, publishQos1, waitFor } from '../helpers/protocol';
import { sqliteSide, startServer, type TestServer } from '../helpers/server';

const BASE_MS = Date.now() - 3600_000;
const tsOf = (n: number) => new Date(BASE_MS + n * 1000).toISOString();
const msg = (deviceId: string, n: number) => levelMsg(deviceId, (n % 400) / 100, { ts: tsOf(n), seq: n, boot: 'thread01' });

/** Stored reading times of a device, as reading numbers. */
function storedNumbers(s: TestServer, deviceId: string): number[] {
  const rows = sqliteSide(s).storage.sqlite.prepare('SELECT ts_ms FROM readings WHERE device_id = ? ORDER BY ts_ms').pluck().all(deviceId) as number[];
  return rows.map((ms) => (ms - BASE_MS) / 1000);
}

describe('the readings writer thread dies mid-ingest', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0' });
  });
  afterAll(async () => s?.close());

  it('answers 503 for what it had not committed, loses nothing answered 202, and recovers by itself', async () => {
    const accepted: number[] = [];
    const refused: number[] = [];
    let next = 0;
    let stop = false;
    // Eight devices' worth of concurrent posts keep the writer busy, so the kill lands mid-commit.
    const poster = async () => {
      while (!stop) {
        const n = next++;
        const res = await postTelemetry(s, msg(LEVEL_1, n));
        if (res.status === 202) {
          accepted.push(n);
          await res.body?.cancel();
        } else {
          await expectApiError(res, 503, 'STORAGE_UNAVAILABLE');
          expect(res.headers.get('retry-after')).toBe('30');
          refused.push(n);
        }
      }
    };
    const posters = Array.from({ length: 8 }, poster);
    const answered = () => accepted.length + refused.length;
    // The writer is busy once every poster has had answers.
    await waitFor(() => accepted.length >= 16, 5000, 10);
    // A kill that lands between two commits (nothing pending: the next write just starts a new
    // thread) is made again, until one lands mid-commit; each after a few more answers.
    for (let attempt = 0; attempt < 20 && refused.length === 0; attempt++) {
      await sqliteSide(s).writer.kill();
      const before = answered();
      await waitFor(() => answered() >= before + 8, 5000, 10);
    }
    // Posts go through again after the kill: a new thread has taken over without help.
    await waitFor(() => refused.length > 0 && accepted.some((n) => n > Math.max(...refused)), 5000, 10).catch(() => undefined);
    stop = true;
    await Promise.all(posters);

    expect(refused.length).toBeGreaterThan(0);
    expect(accepted.length).toBeGreaterThan(refused.length);
    // Posts after the kill went through again: a new thread took over without help.
    expect(Math.max(...accepted)).toBeGreaterThan(Math.max(...refused));

    // What was refused is resent, as a device does; the acknowledged ones stay stored once.
    const resend = await postTelemetry(s, refused.map((n) => msg(LEVEL_1, n)));
    expect(resend.status).toBe(202);
    // (A commit can land just before the thread dies, its answer lost: the resend is then a duplicate.)
    const { accepted: again, duplicates } = (await resend.json()) as { accepted: number; duplicates: number };
    expect(again + duplicates).toBe(refused.length);
    const stored = storedNumbers(s, LEVEL_1);
    expect(stored).toEqual([...accepted, ...refused].sort((a, b) => a - b));

    const health = await fetch(`${s.url}/api/health`);
    expect(health.status).toBe(200);
  });

  it('over MQTT: a PUBACK after a new thread took over means stored', async () => {
    await sqliteSide(s).writer.kill();
    const device = await connectDevice(s, LEVEL_2);
    try {
      for (let n = 0; n < 5; n++) await publishQos1(device, topics.telemetry(LEVEL_2), msg(LEVEL_2, n));
      expect(storedNumbers(s, LEVEL_2)).toEqual([0, 1, 2, 3, 4]);
    } finally {
      await endClient(device);
    }
  });
});
