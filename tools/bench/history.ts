// Benchmark of reading history: `npm run bench:history`.
//
// On a temporary data folder it stores 1,000,000 readings (4 devices × 250,000 at 3 s), then:
//   1. a bare ExcelJS streaming write of the same rows to a file: the ceiling;
//   2. the real server, as `npm start` runs it (the built bundle), in a child process whose peak
//      RSS is measured:
//      GET /api/v1/export.xlsx (all rows) and /export.csv, downloaded fully;
//   3. a 7-day trend over 3-second readings (201,600 points) downsampled to ≤ 2,000 buckets.
// Targets: export < 20 s with the server < 300 MB RSS; trend < 100 ms (medians).
// NOTE: the export's live memory is flat; its peak RSS is mostly V8 heap headroom for ExcelJS's
// per-row garbage, which varies with CPU contention (250–320 MB seen on 2 busy cores). A heap cap
// shows it: NODE_OPTIONS=--max-old-space-size=256 npm run bench:history peaked at ~210 MB.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { gateStatus, levelStatus, READING_STATUS_LABELS, type GateState, type ReadingStatus } from '@agua/shared';
import { openStorage } from '../../apps/server/src/storage/database';
import { median, printTable, startBundledServer } from './bundled-server';

const PER_DEVICE = 250_000;
const STEP_MS = 3000;
const DAY_MS = 24 * 3600 * 1000;
const TREND_POINTS = 2000;
const EXPORT_RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 3);
const TREND_RUNS = 9;
const LEVELS = [
  { id: 'esp32_nivel_01', maxLevel: 10 },
  { id: 'esp32_nivel_02', maxLevel: 5 },
];
const GATES = ['esp32_compuerta_01', 'esp32_compuerta_02'];
const GATE_CYCLE: GateState[] = ['cerrada', 'abriendo', 'abierta', 'cerrando'];


const mb = (bytes: number) => bytes / 1024 / 1024;

// ---------------------------------------------------------------- parent
async function seed(dataDir: string, endMs: number): Promise<void> {
  const storage = await openStorage(dataDir);
  const db = storage.sqlite;
  db.pragma('synchronous = OFF'); // setup only: the server itself runs with FULL
  const insert = db.prepare('INSERT INTO readings (device_id, ts_ms, value_num, value_text, status, received_ms) VALUES (?, ?, ?, ?, ?, ?)');
  const chunk = db.transaction((fromK: number, toK: number) => {
    // Oldest first and devices interleaved, as ingest stores them.
    for (let k = fromK; k > toK; k--) {
      const ts = endMs - k * STEP_MS;
      for (const [i, d] of LEVELS.entries()) {
        const value = Math.round((d.maxLevel * (0.5 + 0.4 * Math.sin(k / 2000 + i)) + Math.random() * 0.1) * 1000) / 1000;
        insert.run(d.id, ts, value, null, levelStatus(value, { maxLevel: d.maxLevel }), ts);
      }
      for (const [i, g] of GATES.entries()) {
        const state = GATE_CYCLE[Math.floor(k / 1200 + i) % GATE_CYCLE.length]!;
        insert.run(g, ts, null, state, gateStatus(state), ts);
      }
    }
  });
  for (let k = PER_DEVICE; k > 0; k -= 25_000) chunk(k, Math.max(0, k - 25_000));
  await storage.close();
}

/**
 * A bare ExcelJS streaming write of the same rows to a file: what the library alone costs. With
 * `naive`, the date format sits on the column, as ExcelJS's examples do: every cell then gets a
 * style object of its own, which ExcelJS renders and looks up cell by cell.
 */
async function ceiling(dataDir: string, file: string, naive: boolean): Promise<number> {
  const started = performance.now();
  const db = new BetterSqlite3(path.join(dataDir, 'agua.db'), { readonly: true });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
  const select = db.prepare('SELECT ts_ms, value_num, value_text, status FROM readings WHERE device_id = ? ORDER BY ts_ms, id').raw();
  const dateStyle: Partial<ExcelJS.Style> = { numFmt: 'dd/mm/yyyy hh:mm:ss' };
  const plain: Partial<ExcelJS.Style> = {};
  for (const id of [...LEVELS.map((d) => d.id), ...GATES]) {
    const ws = workbook.addWorksheet(id);
    ws.columns = [{ width: 20, ...(naive ? { style: dateStyle } : {}) }, { width: 12 }, { width: 8 }, { width: 13 }];
    ws.addRow(['Fecha y Hora', 'Valor', 'Unidad', 'Estado']).commit();
    for (const [ts, num, text, status] of select.iterate(id) as IterableIterator<[number, number | null, string | null, ReadingStatus]>) {
      const row = ws.addRow([new Date(ts), num ?? text, num === null ? null : 'm', READING_STATUS_LABELS[status]]);
      if (!naive) row.eachCell({ includeEmpty: true }, (cell, col) => (cell.style = col === 1 ? dateStyle : plain));
      row.commit();
    }
    ws.commit();
  }
  await workbook.commit();
  db.close();
  return performance.now() - started;
}

/** Resident memory now and its peak since start (or the last reset), from the kernel. */
function memoryMb(pid: number): { rssMb: number; peakMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** Peak RSS since the last reset, from the kernel (VmHWM); resetting needs Linux's clear_refs. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
async function download(url: string, cookie: string): Promise<{ ms: number; bytes: number; status: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  let bytes = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
  }
  return { ms: performance.now() - started, bytes, status: res.status };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-bench-history-'));
  const endMs = Math.floor(Date.now() / 1000) * 1000;
  const rows: Array<[string, string, string]> = [];
  try {
    console.log(`data dir ${dataDir}; ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const t = performance.now();
    await seed(dataDir, endMs);
    const total = PER_DEVICE * (LEVELS.length + GATES.length);
    console.log(`stored ${total.toLocaleString('en')} readings in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const ceilingFile = path.join(dataDir, 'ceiling.xlsx');
    const ceilingMs = await ceiling(dataDir, ceilingFile, false);
    console.log(`bare ExcelJS: ${(ceilingMs / 1000).toFixed(1)} s, ${mb(fs.statSync(ceilingFile).size).toFixed(1)} MB`);
    const naiveMs = await ceiling(dataDir, ceilingFile, true);
    console.log(`bare ExcelJS, column style: ${(naiveMs / 1000).toFixed(1)} s`);
    fs.rmSync(ceilingFile);

    const server = await startBundledServer(dataDir);
    const base = server.base;
    const cookie = await server.login('viewer', 'viewer123');
    const before = memoryMb(server.child.pid!);
    console.log(`server up: RSS ${before.rssMb.toFixed(0)} MB (start-up peak ${before.peakMb.toFixed(0)} MB)`);

    const canReset = resetPeak(server.child.pid!);
    const xlsx: Array<{ ms: number; bytes: number }> = [];
    for (let i = 0; i < EXPORT_RUNS; i++) {
      const r = await download(`${base}/api/v1/export.xlsx`, cookie);
      if (r.status !== 200 || r.bytes === 0) throw new Error(`export.xlsx answered ${r.status} with ${r.bytes} bytes`);
      xlsx.push(r);
      console.log(`export.xlsx run ${i + 1}: ${(r.ms / 1000).toFixed(1)} s, ${mb(r.bytes).toFixed(1)} MB`);
    }
    // Without clear_refs the peak is the process's lifetime one, start-up included.
    const xlsxPeak = memoryMb(server.child.pid!).peakMb;
    resetPeak(server.child.pid!);
    const csv = await download(`${base}/api/v1/export.csv`, cookie);
    const csvPeak = canReset ? memoryMb(server.child.pid!).peakMb : null;
    if (csv.status !== 200 || csv.bytes === 0) throw new Error(`export.csv answered ${csv.status}`);
    console.log(`export.csv: ${(csv.ms / 1000).toFixed(1)} s, ${mb(csv.bytes).toFixed(1)} MB`);

    const from = encodeURIComponent(new Date(endMs - 7 * DAY_MS).toISOString());
    const to = encodeURIComponent(new Date(endMs).toISOString());
    const trendUrl = `${base}/api/v1/devices/esp32_nivel_01/readings?from=${from}&to=${to}&points=${TREND_POINTS}`;
    const trendMs: number[] = [];
    let buckets = 0;
    let counted = 0;
    for (let i = 0; i <= TREND_RUNS; i++) {
      const started = performance.now();
      const res = await fetch(trendUrl, { headers: { cookie } });
      const body = (await res.json()) as { items: Array<{ count: number }> };
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`trend answered ${res.status}`);
      buckets = body.items.length;
      counted = body.items.reduce((n, b) => n + b.count, 0);
      if (i > 0) trendMs.push(ms); // the first run warms the page cache
    }
    if (counted !== 7 * DAY_MS / STEP_MS || buckets > TREND_POINTS) throw new Error(`trend covered ${counted} readings in ${buckets} buckets`);

    await server.stop();

    const xlsxMs = median(xlsx.map((r) => r.ms));
    rows.push(
      ['readings stored', total.toLocaleString('en'), ''],
      [`GET /export.xlsx, all rows (median of ${EXPORT_RUNS})`, `${(xlsxMs / 1000).toFixed(1)} s, ${mb(xlsx[0]!.bytes).toFixed(1)} MB`, `< 20 s ${xlsxMs < 20_000 ? 'ok' : 'MISSED'}`],
      [
        `server peak RSS during the xlsx exports${canReset ? '' : ' (lifetime)'}`,
        `${xlsxPeak.toFixed(0)} MB (idle ${before.rssMb.toFixed(0)} MB)`,
        `< 300 MB ${xlsxPeak < 300 ? 'ok' : 'MISSED'}`,
      ],
      ['bare ExcelJS streaming write to a file (ceiling)', `${(ceilingMs / 1000).toFixed(1)} s`, ''],
      ['  same, date format as a column style (naive)', `${(naiveMs / 1000).toFixed(1)} s`, ''],
      ['GET /export.csv, all rows', `${(csv.ms / 1000).toFixed(1)} s, ${mb(csv.bytes).toFixed(1)} MB`, ''],
      ['server peak RSS during the CSV export', csvPeak === null ? 'n/a' : `${csvPeak.toFixed(0)} MB`, ''],
      [
        `7-day trend, ${counted.toLocaleString('en')} readings → ${buckets} buckets (median of ${TREND_RUNS})`,
        `${median(trendMs).toFixed(1)} ms (min ${Math.min(...trendMs).toFixed(1)}, max ${Math.max(...trendMs).toFixed(1)})`,
        `< 100 ms ${median(trendMs) < 100 ? 'ok' : 'MISSED'}`,
      ],
      ['server RSS idle / start-up peak (built bundle, demo seed)', `${before.rssMb.toFixed(0)} MB / ${before.peakMb.toFixed(0)} MB`, ''],
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  printTable(rows);
}

await main();
