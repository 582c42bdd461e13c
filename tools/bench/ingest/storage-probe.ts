/**
 * The storage layer alone, without HTTP or MQTT: the server's own SqliteReadingsWriter on the
 * server's own schema (openStorage runs the migrations and sets WAL + synchronous=FULL), fed
 * transactions of a fixed size back to back. It splits an ingest figure into "what SQLite costs"
 * and "what the rest costs". Runs in the bench process, while no server is running.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStorage } from '../../../apps/server/src/storage/database';
import { SqliteReadingsWriter } from '../../../apps/server/src/storage/ingest/sqlite/readings.sqlite';
import type { ReadingRow as ReadingToStore } from '../../../apps/server/src/storage/ingest/rows';

export interface StorageProbeResult {
  readings: number;
  readingsPerS: number;
  commitsPerS: number;
  /** Mean and p99 of one write() (one transaction), ms. */
  meanMs: number;
  p99Ms: number;
  /** CPU time (user + system) of this process per reading, µs: the cost without waits. */
  cpuUsPerReading: number;
}

export interface StorageProbe {
  run(perCommit: number, durationS: number): StorageProbeResult;
  close(): Promise<void>;
}

export async function openStorageProbe(opts: { synchronous: 'FULL' | 'OFF'; devices?: number }): Promise<StorageProbe> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-bench-storage-'));
  const storage = await openStorage(dir);
  const sqlite = storage.sqlite;
  if (opts.synchronous === 'OFF') sqlite.pragma('synchronous = OFF');
  const nDevices = opts.devices ?? 50;
  const now = Date.now();
  const insertDevice = sqlite.prepare(
    `INSERT INTO devices (id, name, location, type, water_type, enabled, config_json, created_at_ms, updated_at_ms)
     VALUES (?, ?, 'bench', 'level_sensor', 'clean', 1, '{"maxLevel":5}', ?, ?)`,
  );
  const ids = Array.from({ length: nDevices }, (_, i) => `bench_store_${String(i).padStart(3, '0')}`);
  for (const id of ids) insertDevice.run(id, id, now, now);
  const writer = new SqliteReadingsWriter(sqlite);
  const boot = 'c0ffee00';
  const seqs = new Array<number>(nDevices).fill(0);
  // Each device's readings move forward in time, as firmware's do (never past now).
  const lastTs = new Array<number>(nDevices).fill(now - 3600_000);
  let next = 0;

  return {
    run(perCommit, durationS) {
      const times: number[] = [];
      let readings = 0;
      const cpu0 = process.cpuUsage();
      const end = performance.now() + durationS * 1000;
      while (performance.now() < end) {
        const t = Date.now();
        const items: ReadingToStore[] = new Array(perCommit);
        for (let i = 0; i < perCommit; i++) {
          const d = next++ % nDevices;
          const seq = seqs[d]!++;
          lastTs[d] = Math.min(lastTs[d]! + 10, t);
          items[i] = { deviceId: ids[d]!, tsMs: lastTs[d]!, valueNum: 2 + (seq % 100) / 100, valueText: null, status: 'normal', rawNum: null, seq, boot, receivedMs: t, fromDevice: true };
        }
        const s = performance.now();
        writer.write(items);
        times.push(performance.now() - s);
        readings += perCommit;
      }
      const cpu = process.cpuUsage(cpu0);
      const total = times.reduce((a, b) => a + b, 0) / 1000;
      times.sort((a, b) => a - b);
      return {
        readings,
        readingsPerS: readings / total,
        commitsPerS: times.length / total,
        meanMs: (total * 1000) / times.length,
        p99Ms: times[Math.ceil(times.length * 0.99) - 1]!,
        cpuUsPerReading: (cpu.user + cpu.system) / readings,
      };
    },
    async close() {
      await storage.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
