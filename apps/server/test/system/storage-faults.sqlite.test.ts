// A full disk (issue 10): writes that fail for lack of space answer 503 STORAGE_FULL with
// Retry-After, health says so while it lasts, nothing is acknowledged that was not stored, and
// everything comes back by itself once there is space. The data directory is a real 3 MiB tmpfs
// filled to ENOSPC; without the rights to mount one, SQLite's max_page_count makes the same
// SQLITE_FULL and the same assertions run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { ERROR_MESSAGES, topics, type StorageStatus } from '@agua/shared';
import { DiskSpaceWatch } from '../../src/storage/disk-space';
import { sqliteSide, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { LEVEL_1, LEVEL_2, connectDevice, endClient, levelMsg, postTelemetry, publishQos1 } from '../helpers/protocol';
import { expectApiError, jsonOf } from '../helpers/api';

/** Fills the storage until SQLite can write no more, and gives the space back. */
interface Filler {
  kind: 'tmpfs' | 'max_page_count';
  fill(): Promise<void>;
  free(): Promise<void>;
  /** Unmounts what setUp mounted. */
  tearDown(): void;
}

/** Mounts a 3 MiB tmpfs on dir when allowed (root); otherwise limits the database's pages. */
function setUpFiller(dir: string, s: () => TestServer): Filler {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    // A per-connection limit: on the server's connection and on the readings writer's thread.
    const limitPages = async (pages: number | null) => {
      const { storage, writer } = sqliteSide(s());
      const max = pages ?? 1073741823;
      storage.sqlite.pragma(`max_page_count = ${max}`);
      await writer.pragma(`max_page_count = ${max}`);
    };
    return {
      kind: 'max_page_count',
      fill: () => limitPages(Number(sqliteSide(s()).storage.sqlite.pragma('page_count', { simple: true }))),
      free: () => limitPages(null),
      tearDown: () => undefined,
    };
  }
  const filler = `${dir}/filler`;
  return {
    kind: 'tmpfs',
    fill: async () => fillToEnospc(filler),
    free: async () => fs.rmSync(filler, { force: true }),
    tearDown: () => execFileSync('umount', [dir]),
  };
}

/** Appends to a file until the file system has not one byte left. */
function fillToEnospc(file: string): void {
  const fd = fs.openSync(file, 'a');
  try {
    for (let size = 1 << 20; size >= 1; size >>= 1) {
      const chunk = Buffer.alloc(size, 0x55);
      for (;;) {
        try {
          fs.writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

const BOOT = 'storage-test';
const T0 = Date.now() - 3_600_000;
/** Reading n of a device: its own ts, value and seq, so that each is told apart when read back. */
const reading = (deviceId: string, n: number) => levelMsg(deviceId, n / 100, { seq: n, boot: BOOT, ts: T0 + n * 1000 });

async function expectStorageFull(res: Response): Promise<void> {
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  expect(res.headers.get('retry-after')).toBe('30');
  const body = await expectApiError(res, 503, 'STORAGE_FULL');
  expect(body).toEqual({ error: ERROR_MESSAGES.STORAGE_FULL, code: 'STORAGE_FULL' });
}

async function expectAccepted(res: Response): Promise<void> {
  expect(await jsonOf(res)).toEqual({ status: 202, body: { accepted: 1, duplicates: 0, commands: [] } });
}

describe('full disk', () => {
  const dir = tempDataDir();
  let s: TestServer;
  let filler: Filler;
  let admin: string;
  let nextN = 1;
  /** Readings that got 202, by device: each must be stored exactly once. */
  const acknowledged: Record<string, number[]> = { [LEVEL_1]: [], [LEVEL_2]: [] };

  beforeAll(async () => {
    filler = setUpFiller(dir, () => s);
    s = await startServer({ DEVICE_RATE_LIMIT: '0', DISK_MIN_FREE_MB: '0' }, { dataDir: dir });
    admin = await s.login('admin');
  });
  afterAll(async () => {
    // Space first: closing flushes state to the storage, and a failed test may have left it full.
    if (s) await filler.free();
    try {
      await s?.close();
    } finally {
      filler.tearDown();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  /**
   * Fills the storage, then posts new readings of the device until one is refused (with the WAL's
   * slack, or pages with room, a few may still fit); returns the refused one's number.
   */
  async function fillAndPostUntilRefused(deviceId: string): Promise<{ n: number; res: Response }> {
    await filler.fill();
    for (let tries = 0; tries < 500; tries++) {
      const n = nextN++;
      const res = await postTelemetry(s, reading(deviceId, n));
      if (res.status !== 202) return { n, res };
      await res.body?.cancel();
      acknowledged[deviceId]!.push(n);
    }
    throw new Error(`storage (${filler.kind}) never refused a reading`);
  }

  async function storedNumbers(deviceId: string): Promise<number[]> {
    const qs = new URLSearchParams({ from: new Date(T0).toISOString(), limit: '1000' });
    const { status, body } = await jsonOf<{ items: Array<{ ts: string }> }>(
      await s.fetch(`/api/v1/devices/${deviceId}/readings?${qs}`, { cookie: admin }),
    );
    expect(status).toBe(200);
    return body.items.map((r) => (Date.parse(r.ts) - T0) / 1000);
  }

  async function storageStatus(): Promise<StorageStatus> {
    const { status, body } = await jsonOf<StorageStatus>(await s.fetch('/api/v1/system/storage', { cookie: admin }));
    expect(status).toBe(200);
    return body;
  }

  it('HTTP: 503 STORAGE_FULL with Retry-After, health 503; with space again the resend is stored once and health is 200', async () => {
    await expectAccepted(await postTelemetry(s, reading(LEVEL_1, 0)));
    acknowledged[LEVEL_1]!.push(0);

    const refused = await fillAndPostUntilRefused(LEVEL_1);
    await expectStorageFull(refused.res);
    // A group of readings committed together fails together, and each caller hears it.
    const group = [nextN++, nextN++, nextN++, nextN++];
    for (const res of await Promise.all(group.map((n) => postTelemetry(s, reading(LEVEL_1, n))))) await expectStorageFull(res);

    const health = await s.fetch('/api/health');
    expect(health.headers.get('retry-after')).toBe('30');
    expect(await jsonOf(health)).toEqual({ status: 503, body: { status: 'unavailable', error: ERROR_MESSAGES.STORAGE_FULL, code: 'STORAGE_FULL' } });
    const during = await storageStatus();
    expect(during.fault?.code).toBe('STORAGE_FULL');
    expect(Date.parse(during.fault!.since)).toBeGreaterThan(Date.now() - 60_000);

    await filler.free();
    // The device sends what was refused again: each is new (it was not stored), and stored now.
    for (const n of [refused.n, ...group]) {
      await expectAccepted(await postTelemetry(s, reading(LEVEL_1, n)));
      acknowledged[LEVEL_1]!.push(n);
    }
    expect(await jsonOf(await s.fetch('/api/health'))).toEqual({ status: 200, body: { status: 'ok', mqtt: { port: s.mqttPort } } });
    expect((await storageStatus()).fault).toBeNull();
    expect(await storedNumbers(LEVEL_1)).toEqual([...acknowledged[LEVEL_1]!].sort((a, b) => a - b));

    // Group commit and the WAL checkpoint work as before: concurrent readings, a full checkpoint.
    const batch = Array.from({ length: 20 }, () => nextN++);
    for (const res of await Promise.all(batch.map((n) => postTelemetry(s, reading(LEVEL_1, n))))) await expectAccepted(res);
    acknowledged[LEVEL_1]!.push(...batch);
    const { sqlite } = sqliteSide(s).storage;
    expect(sqlite.pragma('wal_checkpoint(TRUNCATE)')).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
    expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    await expectAccepted(await postTelemetry(s, reading(LEVEL_1, nextN)));
    acknowledged[LEVEL_1]!.push(nextN++);
    expect(await storedNumbers(LEVEL_1)).toEqual([...acknowledged[LEVEL_1]!].sort((a, b) => a - b));
  });

  it('health clears by itself once space is back, without any reading (a probe write)', async () => {
    const refused = await fillAndPostUntilRefused(LEVEL_1);
    await expectStorageFull(refused.res);
    expect((await s.fetch('/api/health')).status).toBe(503);
    await filler.free();
    // A fault is believed for 2 s before a probe may clear it.
    await new Promise((r) => setTimeout(r, 2100));
    expect(await jsonOf(await s.fetch('/api/health'))).toEqual({ status: 200, body: { status: 'ok', mqtt: { port: s.mqttPort } } });
    await expectAccepted(await postTelemetry(s, reading(LEVEL_1, refused.n)));
    acknowledged[LEVEL_1]!.push(refused.n);
  });

  describe('MQTT', () => {
    let client: MqttClient | undefined;
    afterAll(async () => {
      if (client) await endClient(client, true);
    });

    it('a reading published during the full disk gets no PUBACK and the connection closes; resent with space, it is stored once', async () => {
      client = await connectDevice(s, LEVEL_2);
      await fillAndPostUntilRefused(LEVEL_2).then(({ res }) => expectStorageFull(res));
      const n = nextN++;
      let pubacked = false;
      const outcome = await new Promise<'closed' | 'puback' | 'timeout'>((resolve) => {
        client!.publish(topics.telemetry(LEVEL_2), JSON.stringify(reading(LEVEL_2, n)), { qos: 1 }, (err) => {
          if (!err) {
            pubacked = true;
            resolve('puback');
          }
        });
        client!.once('close', () => resolve('closed'));
        setTimeout(() => resolve('timeout'), 3000);
      });
      expect(outcome).toBe('closed');
      await new Promise((r) => setTimeout(r, 200));
      expect(pubacked).toBe(false);
      expect((await s.fetch('/api/health')).status).toBe(503);

      await filler.free();
      await endClient(client, true);
      client = await connectDevice(s, LEVEL_2);
      await publishQos1(client, topics.telemetry(LEVEL_2), reading(LEVEL_2, n));
      acknowledged[LEVEL_2]!.push(n);
      expect(await storedNumbers(LEVEL_2)).toEqual([...acknowledged[LEVEL_2]!].sort((a, b) => a - b));
      // The commit of a reading is what told the server the storage works again.
      expect((await s.fetch('/api/health')).status).toBe(200);
    });
  });
});

describe('GET /api/v1/system/storage', () => {
  let s: TestServer;
  let freeMb: number;
  beforeAll(async () => {
    const dir = tempDataDir();
    const stats = fs.statfsSync(dir);
    freeMb = Math.floor((stats.bavail * stats.bsize) / 2 ** 20);
    s = await startServer({ DISK_MIN_FREE_MB: String(freeMb + 1024) }, { dataDir: dir });
  });
  afterAll(async () => {
    await s.close();
    fs.rmSync(s.dataDir, { recursive: true, force: true });
  });

  it('admin (manage_devices): free and total bytes of the data directory, low when under DISK_MIN_FREE_MB, no fault', async () => {
    const { status, body } = await jsonOf<StorageStatus>(await s.fetch('/api/v1/system/storage', { cookie: await s.login('admin') }));
    expect(status).toBe(200);
    expect(body).toEqual({ freeBytes: expect.any(Number), totalBytes: expect.any(Number), low: true, fault: null });
    expect(body.totalBytes).toBeGreaterThanOrEqual(body.freeBytes);
    // Other files may come and go on a shared disk: within 256 MiB of what was measured.
    expect(Math.abs(body.freeBytes / 2 ** 20 - freeMb)).toBeLessThan(256);
  });

  it('403 for viewer and operator, 401 without a session', async () => {
    for (const role of ['viewer', 'operator'] as const) {
      await expectApiError(await s.fetch('/api/v1/system/storage', { cookie: await s.login(role) }), 403, 'FORBIDDEN');
    }
    await expectApiError(await s.fetch('/api/v1/system/storage'), 401, 'UNAUTHENTICATED');
  });

  it('under the minimum, the log warns once per crossing, not at every check', async () => {
    const warnings: unknown[] = [];
    const log = { warn: (...args: unknown[]) => void warnings.push(args), info: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;
    const watch = new DiskSpaceWatch(s.dataDir, (freeMb + 1024) * 2 ** 20, log);
    for (let i = 0; i < 3; i++) expect((await watch.check()).low).toBe(true);
    expect(warnings).toHaveLength(1);
  });
});
