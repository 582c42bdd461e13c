// Benchmark of the water figures per period: `npm run bench:water`.
//
// On a temporary data folder it stores a year of one-minute readings of the demo wet well
// (esp32_nivel_01: rectangular, 24 m², crest 9 m; 525,600 readings, filling and emptying twice a
// day), then:
//   1. the ceilings: the same rows read straight from SQLite by one prepared statement, with the
//      columns the figures need — what a scan costs before any arithmetic; and the year's stored
//      per-hour figures read the same way (with their JSON parsed) — what the stored answer costs;
//   2. the real server (the built bundle, in a child process), once its 'water hours' job has
//      stored the year (first run 30 s after the start; its time is printed):
//      GET /api/v1/devices/esp32_nivel_01/analytics over the whole year, step 1h (8,760 buckets)
//      and step 1d (365), and GET …/daily over the year's days; then, with the stored hours
//      deleted, the same analytics from the readings alone (the scan; 3 runs).
// Target (issue 28): the year's analytics < 300 ms (medians; the first run warms the page cache).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { levelStatus } from '@agua/shared';
import { openStorage } from '../../apps/server/src/storage/database';
import { median, printTable, startBundledServer } from './bundled-server';

const DEVICE = 'esp32_nivel_01';
const MAX_LEVEL = 10;
const STEP_MS = 60_000;
const DAY_MS = 86_400_000;
const READINGS = 365 * 1440;
const RUNS = 9;
const SCAN_RUNS = 3;
const TARGET_MS = 300;

/** A year of readings: the level swings between 2 and 8 m twice a day, with a little noise. */
async function seed(dataDir: string, endMs: number): Promise<void> {
  const storage = await openStorage(dataDir);
  const db = storage.sqlite;
  db.pragma('synchronous = OFF'); // setup only: the server itself runs with FULL
  const insert = db.prepare('INSERT INTO readings (device_id, ts_ms, value_num, value_text, status, received_ms) VALUES (?, ?, ?, NULL, ?, ?)');
  const chunk = db.transaction((fromK: number, toK: number) => {
    for (let k = fromK; k > toK; k--) {
      const ts = endMs - k * STEP_MS;
      const value = Math.round((5 + 3 * Math.sin((2 * Math.PI * k) / 720) + Math.random() * 0.02) * 1000) / 1000;
      insert.run(DEVICE, ts, value, levelStatus(value, { maxLevel: MAX_LEVEL }), ts);
    }
  });
  for (let k = READINGS; k > 0; k -= 50_000) chunk(k, Math.max(0, k - 50_000));
  await storage.close();
}

/** The ceiling: the year's rows, read by one prepared statement in time order. */
function scanMs(dataDir: string, fromMs: number, toMs: number): { ms: number; rows: number } {
  const db = new BetterSqlite3(path.join(dataDir, 'agua.db'), { readonly: true });
  const select = db.prepare('SELECT ts_ms, value_num, status FROM readings WHERE device_id = ? AND ts_ms >= ? AND ts_ms < ? ORDER BY ts_ms, id').raw();
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i <= RUNS; i++) {
    const started = performance.now();
    rows = 0;
    for (const _row of select.iterate(DEVICE, fromMs, toMs)) rows++;
    if (i > 0) times.push(performance.now() - started);
  }
  db.close();
  return { ms: median(times), rows };
}

/** The in-run ceiling of the stored answer: the year's hour rows read by one prepared SELECT, their JSON parsed. */
function storedMs(dataDir: string, fromMs: number, toMs: number): { ms: number; rows: number } {
  const db = new BetterSqlite3(path.join(dataDir, 'agua.db'), { readonly: true });
  const select = db.prepare('SELECT hour_ms, geometry_version, deadband_m3, since_ms, day_from_ms, hour_state FROM water_hours WHERE device_id = ? AND hour_ms >= ? AND hour_ms < ? ORDER BY hour_ms').raw();
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i <= RUNS; i++) {
    const started = performance.now();
    rows = 0;
    for (const row of select.iterate(DEVICE, fromMs, toMs) as Iterable<unknown[]>) {
      JSON.parse(row[5] as string);
      rows++;
    }
    if (i > 0) times.push(performance.now() - started);
  }
  db.close();
  return { ms: median(times), rows };
}

/** Waits until the server's job has stored every complete hour of the year; resolves with the seconds it took from `sinceMs`. */
async function hoursStored(dataDir: string, fromMs: number, sinceMs: number): Promise<number> {
  const db = new BetterSqlite3(path.join(dataDir, 'agua.db'), { readonly: true });
  const expected = Math.floor(Date.now() / 3_600_000) - Math.floor(fromMs / 3_600_000);
  const count = db.prepare('SELECT COUNT(*) AS n FROM water_hours WHERE device_id = ?').pluck();
  try {
    for (const deadline = Date.now() + 600_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      if ((count.get(DEVICE) as number) >= expected) return (performance.now() - sinceMs) / 1000;
    }
    throw new Error('the water hours job did not store the year within 10 minutes');
  } finally {
    db.close();
  }
}

async function timeGet(url: string, cookie: string, runs = RUNS): Promise<{ ms: number; items: number; body: string }> {
  const times: number[] = [];
  let items = 0;
  let text = '';
  for (let i = 0; i <= runs; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    text = await res.text();
    const body = JSON.parse(text) as { items?: unknown[] };
    if (res.status !== 200 || !body.items) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
    if (i > 0) times.push(performance.now() - started);
    items = body.items.length;
  }
  return { ms: median(times), items, body: text };
}

const localDate = (ms: number) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 10);

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-bench-water-'));
  const endMs = Math.floor(Date.now() / STEP_MS) * STEP_MS;
  const fromMs = endMs - READINGS * STEP_MS;
  const rows: Array<[string, string, string]> = [];
  try {
    console.log(`data dir ${dataDir}; ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const t = performance.now();
    await seed(dataDir, endMs);
    console.log(`stored ${READINGS.toLocaleString('en')} readings in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const ceiling = scanMs(dataDir, fromMs, endMs + 1);

    const startedAt = performance.now();
    const server = await startBundledServer(dataDir);
    const jobS = await hoursStored(dataDir, fromMs, startedAt);
    const stored = storedMs(dataDir, fromMs - 3_600_000, endMs + 1);
    const cookie = await server.login('viewer', 'viewer123');
    const range = `from=${encodeURIComponent(new Date(fromMs).toISOString())}&to=${encodeURIComponent(new Date(endMs + 1).toISOString())}`;
    const hourly = await timeGet(`${server.base}/api/v1/devices/${DEVICE}/analytics?${range}&step=1h`, cookie);
    const dailySteps = await timeGet(`${server.base}/api/v1/devices/${DEVICE}/analytics?${range}&step=1d`, cookie);
    const daily = await timeGet(`${server.base}/api/v1/devices/${DEVICE}/daily?from=${localDate(fromMs + DAY_MS)}&to=${localDate(endMs)}`, cookie);
    // The same answers from the readings alone: the stored hours deleted (the job's next run is minutes away).
    const writable = new BetterSqlite3(path.join(dataDir, 'agua.db'));
    writable.pragma('busy_timeout = 5000');
    writable.prepare('DELETE FROM water_hours WHERE device_id = ?').run(DEVICE);
    writable.close();
    const hourlyScan = await timeGet(`${server.base}/api/v1/devices/${DEVICE}/analytics?${range}&step=1h`, cookie, SCAN_RUNS);
    const dailyScan = await timeGet(`${server.base}/api/v1/devices/${DEVICE}/analytics?${range}&step=1d`, cookie, SCAN_RUNS);
    await server.stop();
    // The point of the stored hours: the very same answer, faster.
    if (hourlyScan.body !== hourly.body || dailyScan.body !== dailySteps.body) throw new Error('the stored hours answered otherwise than the scan');

    const verdict = (ms: number) => `< ${TARGET_MS} ms ${ms < TARGET_MS ? 'ok' : 'MISSED'}; ${(ms / stored.ms).toFixed(1)}× the stored ceiling`;
    rows.push(
      ['readings of the device in the year', ceiling.rows.toLocaleString('en'), ''],
      [`ceiling of a scan: the year's readings by one prepared SELECT (median of ${RUNS})`, `${ceiling.ms.toFixed(0)} ms`, ''],
      [`'water hours' job: the year's ${stored.rows.toLocaleString('en')} hours stored, from the server's start (first run at 30 s)`, `${jobS.toFixed(1)} s`, ''],
      [`ceiling of the stored answer: the year's hour rows by one prepared SELECT, JSON parsed`, `${stored.ms.toFixed(0)} ms`, ''],
      [`GET /analytics, the year, step 1h → ${hourly.items} buckets (median of ${RUNS})`, `${hourly.ms.toFixed(0)} ms`, verdict(hourly.ms)],
      [`GET /analytics, the year, step 1d → ${dailySteps.items} buckets`, `${dailySteps.ms.toFixed(0)} ms`, verdict(dailySteps.ms)],
      [`GET /daily, the year → ${daily.items} days (stored after the first run)`, `${daily.ms.toFixed(0)} ms`, ''],
      [`the same step 1h from the readings alone (stored hours deleted; median of ${SCAN_RUNS}; the same JSON, byte for byte)`, `${hourlyScan.ms.toFixed(0)} ms`, `${(hourlyScan.ms / ceiling.ms).toFixed(1)}× the scan ceiling`],
      [`the same step 1d from the readings alone`, `${dailyScan.ms.toFixed(0)} ms`, `${(dailyScan.ms / ceiling.ms).toFixed(1)}× the scan ceiling`],
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  printTable(rows);
}

await main();
