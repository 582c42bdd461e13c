import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, type Migration } from 'kysely';
import * as m001 from './migrations/001-initial';
import * as m002 from './migrations/002-readings-covering-index';
import * as m003 from './migrations/003-seq-runs';
import * as m004 from './migrations/004-alarm-rules';
import * as m005 from './migrations/005-alarms';
import * as m006 from './migrations/006-notifications';
import * as m007 from './migrations/007-broker-credentials';
import * as m008 from './migrations/008-device-geometries';
import * as m009 from './migrations/009-daily-totals';
import * as m010 from './migrations/010-reading-raw';
import * as m011 from './migrations/011-alarm-rule-water';
import * as m012 from './migrations/012-overflow-events';
import * as m014 from './migrations/014-water-hours';
import * as m015 from './migrations/015-reports';
import * as m016 from './migrations/016-control';
import * as m017 from './migrations/017-two-factor';
import * as m018 from './migrations/018-sites';
import type { Database } from './schema';
import { NonBlockingSqliteDialect } from './non-blocking-sqlite-dialect';
import { withStatementCache } from './statement-cache';

/** Versioned migrations, applied in name order at start. */
const MIGRATIONS: Record<string, Migration> = {
  '001-initial': m001,
  '002-readings-covering-index': m002,
  '003-seq-runs': m003,
  '004-alarm-rules': m004,
  '005-alarms': m005,
  '006-notifications': m006,
  '007-broker-credentials': m007,
  '008-device-geometries': m008,
  '009-daily-totals': m009,
  '010-reading-raw': m010,
  '011-alarm-rule-water': m011,
  '012-overflow-events': m012,
  '014-water-hours': m014,
  '015-reports': m015,
  '016-control': m016,
  '017-two-factor': m017,
  '018-sites': m018,
};

export interface SqliteStorage {
  engine: 'sqlite';
  /** The database file, for connections of other threads (the ingest store's writer thread). */
  file: string;
  db: Kysely<Database>;
  /** The raw SQLite handle, for the few hot paths that need prepared statements (readings ingest). */
  sqlite: BetterSqlite3.Database;
  /** Whether the database answers at all. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** One connection to the database file, with the settings every connection of the server uses. */
export function openConnection(file: string): BetterSqlite3.Database {
  const sqlite = new BetterSqlite3(file);
  // WAL + synchronous=FULL: a committed transaction survives a power cut (docs/protocol.md 202 promise).
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // Two connections write (this thread's and the ingest store's writer thread): each waits for the other's commit.
  sqlite.pragma('busy_timeout = 5000');
  return sqlite;
}

/** The database's file name in DATA_DIR. */
export const DATABASE_FILE = 'agua.db';

/** Opens (creating if needed) the SQLite database in dataDir and applies pending migrations. */
export async function openStorage(dataDir: string, fileName = DATABASE_FILE): Promise<SqliteStorage> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, fileName);
  const sqlite = openConnection(file);
  // This connection serves the event loop: it never sleeps waiting for the write lock (the
  // dialect waits on a timer), and keeps its queries prepared.
  sqlite.pragma('busy_timeout = 0');
  const db = new Kysely<Database>({ dialect: new NonBlockingSqliteDialect({ database: withStatementCache(sqlite) }) });
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const { error } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    throw error instanceof Error ? error : new Error(String(error));
  }
  return {
    engine: 'sqlite',
    file,
    db,
    sqlite,
    ping: async () => {
      sqlite.prepare('SELECT 1').get();
    },
    close: async () => {
      await db.destroy();
    },
  };
}
