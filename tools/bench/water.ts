// Benchmark of the water figures per period: `npm run bench:water`.
//
// On a temporary data folder it stores a year of one-minute readings of the demo wet well
// (esp32_nivel_01: rectangular, 24 m², crest 9 m; 525,600 readings, filling and emptying twice a
// day), then:
//   1. the ceiling: the same rows read straight from SQLite by one prepared statement, with the
//      columns the figures need — what reading them costs before any arithmetic;
//   2. the real server (the built bundle, in a child process):
//      GET /api/v1/devices/esp32_nivel_01/analytics over the whole year, step 1h (8,760 buckets)
//      and step 1d (365), and GET …/daily over the year's days.
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

async function timeGet(url: string, cookie: string): Promise<{ ms: number; items: number }> {
  const times: number[] = [];
  let items = 0;
  for (let i = 0; i <= RUNS; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    const body = (await res.json()) as { items?: unknown[] };
    if (res.status !== 200 || !body.items) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
    if (i > 0) times.push(performance.now() - started);
    items = body.items.length;
  }
  return { ms: median(times), items };
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

    const server = await startBundledServer(dataDir);
    const cookie = await server.login('viewer', 'viewer123');
    const range = `from=${encodeURIComponent(new Date(fromMs).toISOString())}&to=${encodeURIComponent(new Date(endMs + 1).toISOString())}`;
    const hourly = await timeGet(`${server.base}/api/v1/devices/${DEVICE}/analytics?${range}&step=1h`, cookie);
    const dailySteps = await timeGet(`${server.base}/api/v1/devices/${DEVICE}/analytics?${range}&step=1d`, cookie);
    const daily = await timeGet(`${server.base}/api/v1/devices/${DEVICE}/daily?from=${localDate(fromMs + DAY_MS)}&to=${localDate(endMs)}`, cookie);
    await server.stop();

    const verdict = (ms: number) => `< ${TARGET_MS} ms ${ms < TARGET_MS ? 'ok' : 'MISSED'}; ${(ms / ceiling.ms).toFixed(1)}× the scan`;
    rows.push(
      ['readings of the device in the year', ceiling.rows.toLocaleString('en'), ''],
      [`ceiling: the year's rows by one prepared SELECT (median of ${RUNS})`, `${ceiling.ms.toFixed(0)} ms`, ''],
      [`GET /analytics, the year, step 1h → ${hourly.items} buckets (median of ${RUNS})`, `${hourly.ms.toFixed(0)} ms`, verdict(hourly.ms)],
      [`GET /analytics, the year, step 1d → ${dailySteps.items} buckets`, `${dailySteps.ms.toFixed(0)} ms`, verdict(dailySteps.ms)],
      [`GET /daily, the year → ${daily.items} days (stored after the first run)`, `${daily.ms.toFixed(0)} ms`, ''],
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  printTable(rows);
}

await main();
