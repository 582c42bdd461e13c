import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

let perfWorks: boolean | undefined;

/** Whether `perf stat` can count syscall tracepoints here (root, tracefs). */
export function perfAvailable(): boolean {
  if (perfWorks === undefined) {
    const r = spawnSync('perf', ['stat', '-x,', '-e', 'syscalls:sys_enter_fsync', 'true'], { encoding: 'utf8', timeout: 10_000 });
    perfWorks = r.status === 0 && /syscalls:sys_enter_fsync/.test(r.stderr ?? '') && !/not supported|<not counted>/.test(r.stderr ?? '');
  }
  return perfWorks;
}

/**
 * Counts fsync + fdatasync calls of one process or a few (all threads) between start() and stop(), with
 * `perf stat` on the syscall tracepoints (in-kernel counting, no ptrace). With SQLite in WAL mode
 * and synchronous=FULL, each commit fsyncs the WAL once, so this approximates commits.
 */
export class FsyncCounter {
  private proc: ChildProcess | null = null;
  private out = '';

  /** Processes that exist now (perf does not follow processes started later). */
  start(pid: number | number[]): void {
    this.out = '';
    this.proc = spawn('perf', ['stat', '-x,', '-e', 'syscalls:sys_enter_fsync,syscalls:sys_enter_fdatasync', '-p', [pid].flat().join(',')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.proc.stderr!.on('data', (c: Buffer) => (this.out += c.toString()));
  }

  /** Stops counting; NaN when perf failed. */
  async stop(): Promise<number> {
    const p = this.proc;
    if (!p) return NaN;
    this.proc = null;
    const done = new Promise<void>((r) => p.once('exit', () => r()));
    p.kill('SIGINT');
    await done;
    let total = 0;
    let found = false;
    for (const line of this.out.split('\n')) {
      const f = line.split(',');
      if (f.length > 2 && /sys_enter_f(data)?sync/.test(line) && /^\d+$/.test(f[0]!)) {
        total += Number(f[0]);
        found = true;
      }
    }
    return found ? total : NaN;
  }
}

/** Latency of write(4 KiB) + fdatasync on a folder's disk: the floor of one durable commit. */
export function diskSyncLatencyMs(dir: string, count = 200): { p50: number; p99: number } {
  const file = path.join(dir, `.fsync-probe-${process.pid}`);
  const fd = fs.openSync(file, 'w');
  const buf = Buffer.alloc(4096, 1);
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      fs.writeSync(fd, buf, 0, buf.length, (i % 16) * 4096);
      fs.fdatasyncSync(fd);
      times.push(performance.now() - t);
    }
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(count / 2)]!, p99: times[Math.ceil(count * 0.99) - 1]! };
}

/**
 * What the disk allows SQLite (WAL, synchronous=FULL, as the server opens it): one-row commits
 * back to back for `ms` milliseconds on a scratch database in `dir`. Commits/s × readings per
 * commit bounds the ingest rate when each commit waits for its fsync on the event loop.
 */
export async function sqliteCommitProbe(dir: string, ms = 1500): Promise<{ commitsPerS: number; meanMs: number; p99Ms: number }> {
  const { default: Database } = await import('better-sqlite3');
  const scratch = fs.mkdtempSync(path.join(dir, 'agua-bench-probe-'));
  const db = new Database(path.join(scratch, 'probe.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE r (id INTEGER PRIMARY KEY, device_id TEXT NOT NULL, ts_ms INTEGER NOT NULL, value_num REAL)');
    db.exec('CREATE INDEX r_device_ts ON r (device_id, ts_ms)');
    const insert = db.prepare('INSERT INTO r (device_id, ts_ms, value_num) VALUES (?, ?, ?)');
    const commit = db.transaction((i: number) => insert.run(`dev_${i % 50}`, Date.now(), i / 1000));
    const times: number[] = [];
    const end = performance.now() + ms;
    for (let i = 0; performance.now() < end; i++) {
      const t = performance.now();
      commit(i);
      times.push(performance.now() - t);
    }
    const total = times.reduce((a, b) => a + b, 0);
    times.sort((a, b) => a - b);
    return { commitsPerS: times.length / (total / 1000), meanMs: total / times.length, p99Ms: times[Math.ceil(times.length * 0.99) - 1]! };
  } finally {
    db.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
