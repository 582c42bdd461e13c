/**
 * An online backup of the SQLite database, taken while the server runs (SQLite's backup API: a
 * consistent copy of one moment, with writes going on beside it):
 *   npm run backup -- --out /var/backups/agua
 * `--out` is a folder (the file is named by the time) or a file name ending in `.db`. The copy is
 * checked (`PRAGMA integrity_check`) before the command says it is done. DATA_DIR as for the server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { ConfigError, loadConfig } from '../config/env';
import { DATABASE_FILE } from '../storage/database';

function fail(message: string): never {
  console.error(`backup: ${message}`);
  process.exit(1);
}

function destinationOf(out: string): string {
  if (out.endsWith('.db')) return path.resolve(out);
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return path.resolve(out, `agua-${stamp}.db`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean', default: false } } });
  if (values.help || !values.out) {
    console.log('npm run backup -- --out <folder or file.db>   (DATA_DIR names the database to copy)');
    process.exit(values.help ? 0 : 2);
  }
  let dataDir: string;
  try {
    const config = loadConfig();
    if (config.databaseUrl) fail('DATABASE_URL is set: this command copies SQLite; back PostgreSQL up with pg_dump (docs/operations.md)');
    dataDir = config.dataDir;
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  const source = path.join(dataDir, DATABASE_FILE);
  if (!fs.existsSync(source)) fail(`no database at ${source} (DATA_DIR)`);
  const destination = destinationOf(values.out);
  if (fs.existsSync(destination)) fail(`${destination} already exists; a backup never overwrites one`);
  fs.mkdirSync(path.dirname(destination), { recursive: true });

  const startedAt = Date.now();
  const db = new BetterSqlite3(source, { fileMustExist: true });
  // The server writes beside us: wait for its commits rather than failing on a busy database.
  db.pragma('busy_timeout = 5000');
  const partial = `${destination}.partial`;
  try {
    await db.backup(partial);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    fail(`copy failed: ${(err as Error).message}`);
  } finally {
    db.close();
  }
  const copy = new BetterSqlite3(partial, { readonly: true });
  const check = copy.pragma('integrity_check', { simple: true });
  const readings = (copy.prepare('SELECT COUNT(*) AS n FROM readings').get() as { n: number }).n;
  copy.close();
  if (check !== 'ok') {
    fs.rmSync(partial, { force: true });
    fail(`the copy failed its integrity check: ${String(check)}`);
  }
  fs.renameSync(partial, destination);
  const mb = (fs.statSync(destination).size / 2 ** 20).toFixed(1);
  console.log(`backup: ${destination} (${mb} MiB, ${readings} readings, ${Date.now() - startedAt} ms, integrity ok)`);
}

void main();
