// A PostgreSQL cluster of the test's own, on a free port, for tests that stop and restart the
// database (the machine's own server is never stopped). initdb and the server refuse to run as
// root, so they run as the `postgres` user; the cluster lives in a temporary folder it owns.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './net';

const BIN = '/usr/lib/postgresql/15/bin';

export interface PgCluster {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database: string): string;
  createDatabase(name: string): void;
  start(): void;
  /** fast: clients are disconnected and open transactions rolled back, as in a restart. */
  stop(mode?: 'fast' | 'immediate'): void;
  destroy(): void;
}

function asPostgres(command: string, args: string[]): string {
  const user = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const [cmd, ...rest] = [...user, path.join(BIN, command), ...args];
  return execFileSync(cmd!, rest, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function startPgCluster(): Promise<PgCluster> {
  if (!fs.existsSync(path.join(BIN, 'initdb'))) throw new Error(`PostgreSQL's server binaries are needed at ${BIN} (Debian: postgresql-15)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    fs.chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=50`;
  const cluster: PgCluster = {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    createDatabase: (name) => void asPostgres('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name]),
    start: () => void asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']),
    stop: (mode = 'fast') => void asPostgres('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']),
    destroy: () => {
      try {
        cluster.stop('immediate');
      } catch {
        // not running
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
