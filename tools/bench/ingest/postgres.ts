/**
 * The ingest bench on PostgreSQL (`--database postgres`): a fresh database per server on the
 * machine's PostgreSQL, the cluster's processes as part of what a run measures, the WAL a run
 * wrote, and the ceiling of the batch figure: `psql \copy` of the same rows into the same table.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { describeDatabase } from '../../../apps/server/src/storage/postgres/postgres-storage';
import { levelStatus } from '@agua/shared';
import { type BenchDevice, nextBatch } from './devices';
import { type BenchDatabase, type Measurable, type RunProbe, processCpuTimes, processWriteBytes, ticksPerSecond } from './server-process';
import { percentiles } from './stats';

/** The machine's PostgreSQL, as its superuser (trust authentication on 127.0.0.1 here). */
export const DEFAULT_PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name` on the server of `adminUrl` (same user, password and options). */
export function databaseUrl(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'agua-bench' });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Databases this process created and has not dropped yet: name → admin URL. */
const undropped = new Map<string, string>();

/** CREATE DATABASE agua_bench_<random> on the server of `adminUrl`. */
export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `agua_bench_${crypto.randomBytes(5).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  undropped.set(name, adminUrl);
  let dropping: Promise<void> | null = null;
  return { name, url: databaseUrl(adminUrl, name), drop: () => (dropping ??= dropBenchDatabase(name)) };
}

async function dropBenchDatabase(name: string): Promise<void> {
  const adminUrl = undropped.get(name);
  if (!adminUrl) return;
  // FORCE: a server that did not stop (killed, hung) still holds connections to it.
  await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  undropped.delete(name);
}

/** Drops every database this process created and still holds (failure, ctrl-C); returns what it could not drop. */
export async function dropAllBenchDatabases(): Promise<string[]> {
  const failed: string[] = [];
  for (const name of [...undropped.keys()]) {
    await dropBenchDatabase(name).catch((err: unknown) => failed.push(`${name} (${(err as Error).message})`));
  }
  return failed;
}

/** Readings of the devices `<prefix>_…` in a server's database (after the server stopped). */
export async function countReadings(url: string, prefix: string): Promise<number> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ n: string }>(`SELECT count(*) AS n FROM readings WHERE device_id LIKE $1 || '\\_%' ESCAPE '\\'`, [prefix]);
    return Number(rows[0]!.n);
  });
}

/** What the header prints about the PostgreSQL the bench runs on. */
export async function describeServer(adminUrl: string): Promise<{ text: string; dataDirectory: string }> {
  return withClient(adminUrl, async (c) => {
    const setting = async (name: string) => (await c.query<{ v: string }>('SELECT current_setting($1) AS v', [name])).rows[0]!.v;
    const version = (await c.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v.replace(/ on .*$/, '');
    const names = ['synchronous_commit', 'fsync', 'wal_sync_method', 'full_page_writes', 'shared_buffers', 'max_wal_size', 'checkpoint_timeout'];
    const values: string[] = [];
    for (const n of names) values.push(`${n}=${await setting(n)}`); // one query at a time on a client
    const dataDirectory = await setting('data_directory');
    return { text: `${version} at ${describeDatabase(adminUrl)}; ${values.join(', ')}`, dataDirectory };
  });
}

/** Back-to-back one-row INSERT commits in a throwaway database: the floor of one durable commit. */
export async function pgCommitProbe(adminUrl: string, count = 300): Promise<{ commitsPerS: number; p50: number; p99: number }> {
  const db = await createBenchDatabase(adminUrl);
  try {
    return await withClient(db.url, async (c) => {
      await c.query('CREATE TABLE probe (id int, at bigint)');
      const times: number[] = [];
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        const t = performance.now();
        await c.query('INSERT INTO probe VALUES ($1, $2)', [i, Date.now()]);
        times.push(performance.now() - t);
      }
      const seconds = (performance.now() - t0) / 1000;
      const [p50, p99] = percentiles(times, [50, 99]);
      return { commitsPerS: count / seconds, p50: p50!, p99: p99! };
    });
  } finally {
    await db.drop();
  }
}

// ---------------------------------------------------------------------------------------------
// Accounting: the PostgreSQL cluster's CPU, and the WAL a run wrote.

function statFields(pid: number | 'self'): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // Without CONFIG_PROC_CHILDREN: scan every process for its parent.
    const out: number[] = [];
    for (const d of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      const f = statFields(Number(d));
      if (f && Number(f[1]) === pid) out.push(Number(d));
    }
    return out;
  }
}

/**
 * The whole PostgreSQL cluster as one measured process: the postmaster, every live child
 * (backends, WAL writer, checkpointer, …) and the children it already reaped (the postmaster's
 * cutime/cstime), so a backend that ends within a run still counts. Other databases' work on the
 * same cluster counts too: the machine's other users of PostgreSQL show here, not in "others".
 */
export class PgCluster implements Measurable {
  private lastWrite = new Map<number, number>();

  private constructor(readonly pid: number) {}

  /** The postmaster of the server at `adminUrl`: the parent of this connection's backend. */
  static async locate(adminUrl: string): Promise<PgCluster | null> {
    return withClient(adminUrl, async (c) => {
      const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const f = statFields(rows[0]!.pid);
      return f ? new PgCluster(Number(f[1])) : null;
    });
  }

  pids(): number[] {
    return [this.pid, ...childrenOf(this.pid)];
  }

  cpuTimes(): { user: number; system: number } {
    const f = statFields(this.pid);
    if (!f) return { user: NaN, system: NaN };
    let user = (Number(f[11]) + Number(f[13])) / ticksPerSecond();
    let system = (Number(f[12]) + Number(f[14])) / ticksPerSecond();
    for (const child of childrenOf(this.pid)) {
      const t = processCpuTimes(child);
      if (Number.isFinite(t.user)) {
        user += t.user;
        system += t.system;
      }
    }
    return { user, system };
  }

  /** Bytes written by the live processes (a process that ended keeps its last count). */
  writeBytes(): number {
    for (const pid of this.pids()) {
      const b = processWriteBytes(pid);
      if (Number.isFinite(b)) this.lastWrite.set(pid, b);
    }
    let sum = 0;
    for (const b of this.lastWrite.values()) sum += b;
    return sum;
  }
}

/** The children this process started and already waited for (psql): /proc/self/stat cutime, cstime. */
export const REAPED_CHILDREN: Measurable = {
  pid: process.pid,
  cpuTimes() {
    const f = statFields('self');
    return f ? { user: Number(f[13]) / ticksPerSecond(), system: Number(f[14]) / ticksPerSecond() } : { user: NaN, system: NaN };
  },
  writeBytes: () => 0,
};

/** Several processes measured as one (the server child and the PostgreSQL cluster); each part's CPU is reported too. */
export class Composite implements Measurable {
  constructor(
    readonly parts: Record<string, Measurable>,
    readonly probe?: RunProbe,
  ) {}

  get pid(): number {
    return Object.values(this.parts)[0]!.pid;
  }

  pids(): number[] {
    return Object.values(this.parts).flatMap((p) => p.pids?.() ?? [p.pid]);
  }

  cpuTimes(): { user: number; system: number } {
    let user = 0;
    let system = 0;
    for (const p of Object.values(this.parts)) {
      const t = p.cpuTimes();
      user += t.user;
      system += t.system;
    }
    return { user, system };
  }

  writeBytes(): number {
    return Object.values(this.parts).reduce((s, p) => s + p.writeBytes(), 0);
  }
}

/** WAL bytes PostgreSQL generated during a run (the whole cluster's): `walBytesPerS`. */
export function walProbe(adminUrl: string): RunProbe {
  let client: pg.Client | null = null;
  let start = '';
  return {
    async begin() {
      if (!client) {
        const c = new pg.Client({ connectionString: adminUrl, application_name: 'agua-bench-wal' });
        c.on('error', () => (client = null));
        await c.connect();
        client = c;
      }
      start = (await client.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0]!.lsn;
    },
    async end(seconds): Promise<Record<string, number>> {
      if (!client) return {};
      const { rows } = await client.query<{ d: number }>('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1)::float8 AS d', [start]);
      return { walBytesPerS: rows[0]!.d / seconds };
    },
    async close() {
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The ceiling of the batch figure: COPY of the same rows into the same table, by psql.

/** The bench devices' configuration (devices.ts registers them with maxLevel 5): the status the server stores. */
const THRESHOLDS = { maxLevel: 5 };

export const COPY_COMMAND = '\\copy readings (device_id, ts_ms, value_num, value_text, status, received_ms) FROM STDIN';

export interface PgCopyResult {
  rows: number;
  /** From spawning psql to its exit (connection, COPY, commit, exit). */
  seconds: number;
  rowsPerS: number;
}

/**
 * `psql -c "\copy readings (…) FROM STDIN"` into a server's database, fed the rows the batch load
 * sends (COPY text format): `devices` take turns, one batch of `batchSize` readings each, each
 * continuing its own `ts` and `seq` as the batch load's devices do; `value_text` NULL, `status`
 * as the server computes it, `received_ms` the time the rows were made. The stream is made before
 * psql starts; the time is psql's whole run.
 */
export class PgCopyWriter {
  private next = 0;

  constructor(
    private readonly url: string,
    private readonly devices: BenchDevice[],
    private readonly batchSize: number,
  ) {}

  /** The COPY text of the next `n` readings. */
  rows(n: number): Buffer {
    const lines: string[] = [];
    const now = Date.now();
    let left = n;
    while (left > 0) {
      const d = this.devices[this.next++ % this.devices.length]!;
      for (const r of nextBatch(d, Math.min(this.batchSize, left), now)) {
        lines.push(`${d.id}\t${r.tsMs}\t${r.value}\t\\N\t${levelStatus(r.value, THRESHOLDS)}\t${now}\n`);
      }
      left -= this.batchSize;
    }
    return Buffer.from(lines.join(''));
  }

  /** Runs psql once on `data` (from `rows`), checking the row count it reports. */
  copy(data: Buffer, expectedRows: number): Promise<PgCopyResult> {
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      const psql = spawn('psql', ['-X', '-v', 'ON_ERROR_STOP=1', '-d', this.url, '-c', COPY_COMMAND], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, PGAPPNAME: 'agua-bench-copy' },
      });
      let out = '';
      psql.stdout.on('data', (c: Buffer) => (out += c.toString()));
      psql.stderr.on('data', (c: Buffer) => (out += c.toString()));
      psql.stdin.on('error', () => undefined); // psql failed early: its exit code and output tell why
      psql.once('error', reject);
      psql.once('exit', (code) => {
        const seconds = (performance.now() - t0) / 1000;
        const m = /COPY (\d+)/.exec(out);
        if (code !== 0 || !m) return reject(new Error(`psql \\copy exited with ${code}: ${out.trim()}`));
        const rows = Number(m[1]);
        if (rows !== expectedRows) return reject(new Error(`psql \\copy stored ${rows} rows, ${expectedRows} sent`));
        resolve({ rows, seconds, rowsPerS: rows / seconds });
      });
      psql.stdin.end(data);
    });
  }
}
