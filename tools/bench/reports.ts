// Benchmark of a monthly report: `npm run bench:reports`.
//
// On a temporary data folder: 100 devices (the demo's 4 and 96 more; 50 level sensors with a
// geometry, 50 gates), last calendar month at one reading a minute each (≈ 4.3 million readings),
// then, on the real server (the built bundle, in a child process), a monthly report of every
// device in both formats, 'Generar ahora', timed from the POST to the run being done (3 runs; the
// first computes the month's daily totals from the readings, the next ones find them stored), and
// the server's peak memory (VmHWM).
// The ceiling, measured in the same run: the month's readings of all 100 devices read by one
// prepared SELECT — what merely reading the data costs.
// Target (issue 29): < 30 s and < 300 MB.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { levelStatus } from '@agua/shared';
import { median, printTable, startBundledServer, type RunningServer } from './bundled-server';

const STEP_MS = 60_000;
const TARGET_S = 30;
const TARGET_MB = 300;
const RUNS = 3;
const EXTRA = 96;

/** The last calendar month in local time: its first and last dates, and its instants. */
function lastMonth(): { from: string; to: string; fromMs: number; toMs: number } {
  const now = new Date();
  const start = new Date(now.getFullYear(), now.getMonth() - 1, 1);
  const end = new Date(now.getFullYear(), now.getMonth(), 1);
  const date = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return { from: date(start), to: date(new Date(end.getTime() - 86_400_000)), fromMs: start.getTime(), toMs: end.getTime() };
}

async function api(server: RunningServer, cookie: string, method: string, pathname: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.base}${pathname}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${pathname}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** 96 more devices through the API (half level sensors with a geometry); every device's id. */
async function addDevices(server: RunningServer, admin: string): Promise<Array<{ id: string; level: boolean }>> {
  const devices = [
    { id: 'esp32_nivel_01', level: true },
    { id: 'esp32_nivel_02', level: true },
    { id: 'esp32_compuerta_01', level: false },
    { id: 'esp32_compuerta_02', level: false },
  ];
  for (let i = 1; i <= EXTRA; i++) {
    const level = i <= EXTRA / 2;
    const id = `bench_${level ? 'nivel' : 'compuerta'}_${String(i).padStart(3, '0')}`;
    await api(server, admin, 'POST', '/api/v1/devices', { id, name: `${level ? 'Nivel' : 'Compuerta'} ${i}`, location: 'Banco de pruebas', type: level ? 'level_sensor' : 'motorized_gate', ...(level ? { waterType: 'residual', config: { maxLevel: 10 } } : {}) });
    if (level) await api(server, admin, 'PUT', `/api/v1/devices/${id}/geometry`, { shape: { kind: 'rectangular', areaM2: 24 }, crestLevelM: 9 });
    devices.push({ id, level });
  }
  return devices;
}

/** A reading a minute for every device over the month: levels swing twice a day, gates open and close every 2 hours. */
function seed(dataDir: string, devices: Array<{ id: string; level: boolean }>, fromMs: number, toMs: number): number {
  const db = new BetterSqlite3(path.join(dataDir, 'agua.db'));
  db.pragma('synchronous = OFF'); // setup only: the server itself runs with FULL
  const insert = db.prepare('INSERT INTO readings (device_id, ts_ms, value_num, value_text, status, received_ms) VALUES (?, ?, ?, ?, ?, ?)');
  let n = 0;
  for (const d of devices) {
    db.transaction(() => {
      for (let ts = fromMs, k = 0; ts < toMs; ts += STEP_MS, k++) {
        if (d.level) {
          const value = Math.round((5 + 3 * Math.sin((2 * Math.PI * k) / 720)) * 1000) / 1000;
          insert.run(d.id, ts, value, null, levelStatus(value, { maxLevel: 10 }), ts);
        } else insert.run(d.id, ts, null, Math.floor(k / 120) % 2 ? 'abierta' : 'cerrada', 'normal', ts);
        n++;
      }
    })();
  }
  db.close();
  return n;
}

/** The ceiling: the month's rows of every device, read by one prepared SELECT (median of 3). */
function scanMs(dataDir: string, fromMs: number, toMs: number): number {
  const db = new BetterSqlite3(path.join(dataDir, 'agua.db'), { readonly: true });
  const select = db.prepare('SELECT ts_ms, value_num, value_text, status FROM readings WHERE ts_ms >= ? AND ts_ms < ?').raw();
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    for (const _row of select.iterate(fromMs, toMs)) void _row;
    times.push(performance.now() - started);
  }
  db.close();
  return median(times);
}

/** The server process's memory, MB: now (VmRSS) and its peak so far (VmHWM). */
function memoryMb(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-bench-reports-'));
  const month = lastMonth();
  const rows: Array<[string, string, string]> = [];
  try {
    console.log(`data dir ${dataDir}; ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; month ${month.from} … ${month.to}`);
    let server = await startBundledServer(dataDir);
    const devices = await addDevices(server, await server.login('admin', 'admin123', 'maestra2024'));
    await server.stop();
    let t = performance.now();
    const readings = seed(dataDir, devices, month.fromMs, month.toMs);
    console.log(`stored ${readings.toLocaleString('en')} readings of ${devices.length} devices in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const ceiling = scanMs(dataDir, month.fromMs, month.toMs);

    server = await startBundledServer(dataDir);
    const admin = await server.login('admin', 'admin123', 'maestra2024');
    const report = (await api(server, admin, 'POST', '/api/v1/reports', { name: 'Mensual banco', kind: 'monthly', deviceIds: null, formats: ['xlsx', 'pdf'], recipients: [], schedule: null })) as { id: string };
    const before = memoryMb(server.child.pid!);
    // The highest RSS seen while the runs are generated (sampled every 100 ms): in the first run,
    // from the idle server, and over all of them (V8 collects the runs' garbage lazily).
    const peaks: number[] = [];
    const sampler = setInterval(() => (peaks[peaks.length - 1] = Math.max(peaks.at(-1) ?? 0, memoryMb(server.child.pid!).rss)), 100);
    const times: number[] = [];
    let files: Array<{ format: string; bytes: number }> = [];
    for (let i = 0; i < RUNS; i++) {
      peaks.push(0);
      t = performance.now();
      const run = (await api(server, admin, 'POST', `/api/v1/reports/${report.id}/runs`, { from: month.from, to: month.to })) as { id: string };
      for (;;) {
        const state = (await api(server, admin, 'GET', `/api/v1/report-runs/${run.id}`)) as { status: string; error: string | null; files: Array<{ format: string; bytes: number }> };
        if (state.status === 'failed') throw new Error(`the run failed: ${state.error}`);
        if (state.status === 'done') {
          files = state.files;
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      times.push((performance.now() - t) / 1000);
      console.log(`run ${i + 1}: ${times[i]!.toFixed(1)} s`);
    }
    clearInterval(sampler);
    const after = memoryMb(server.child.pid!);
    await server.stop();

    const s = median(times);
    rows.push(
      ['devices × readings in the month (one a minute)', `${devices.length} × ${(readings / devices.length).toLocaleString('en')} = ${readings.toLocaleString('en')}`, ''],
      ['ceiling: the month of every device read by one prepared SELECT (median of 3)', `${(ceiling / 1000).toFixed(1)} s`, ''],
      ['first run (daily totals computed from the readings)', `${times[0]!.toFixed(1)} s`, `< ${TARGET_S} s ${times[0]! < TARGET_S ? 'ok' : 'MISSED'}`],
      [`monthly report, POST to done (median of ${RUNS})`, `${s.toFixed(1)} s`, `< ${TARGET_S} s ${s < TARGET_S ? 'ok' : 'MISSED'}; ${(s / (ceiling / 1000)).toFixed(1)}× the ceiling`],
      ['files', files.map((f) => `${f.format} ${(f.bytes / 1024).toFixed(0)} KB`).join(', '), ''],
      ['server memory before the runs: RSS, and peak since its start (VmHWM)', `${before.rss.toFixed(0)} MB, peak ${before.peak.toFixed(0)} MB`, ''],
      ['server memory during the first run (highest RSS, sampled every 100 ms)', `${peaks[0]!.toFixed(0)} MB (+${(peaks[0]! - before.rss).toFixed(0)} MB)`, `< ${TARGET_MB} MB ${peaks[0]! < TARGET_MB ? 'ok' : 'MISSED'}`],
      [`server memory during the ${RUNS} runs, one after the other (highest RSS)`, `${Math.max(...peaks).toFixed(0)} MB`, `< ${TARGET_MB} MB ${Math.max(...peaks) < TARGET_MB ? 'ok' : 'MISSED'}`],
      ['server peak memory over its whole life (VmHWM)', `${after.peak.toFixed(0)} MB`, ''],
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  printTable(rows);
}

await main();
