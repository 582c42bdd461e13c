import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct queries kept prepared; the server's repositories make a few hundred. */
const DEFAULT_CAPACITY = 1000;

/**
 * The connection as Kysely's SQLite driver sees it, keeping each query's prepared statement.
 * The driver prepares every query again at every call; preparing a repository's query costs
 * 6–50 µs, and under an alarm storm it was 9 % of the event loop (docs/bench/ingest-profile.md).
 * Statements are kept by their SQL text, the least recently used dropped past `capacity` (a query
 * whose text varies, such as an `IN` list, makes a new entry per length). A kept statement still
 * being iterated (a streamed export) is not handed out twice: the caller gets a fresh one.
 * SQLite re-prepares a kept statement by itself after a schema change.
 */
export function withStatementCache(sqlite: BetterSqlite3.Database, capacity = DEFAULT_CAPACITY): SqliteDatabase {
  const kept = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const statement = kept.get(sql);
      if (statement?.busy) return sqlite.prepare(sql);
      if (statement) {
        // Map order is use order: the first entry is the least recently used.
        kept.delete(sql);
        kept.set(sql, statement);
        return statement;
      }
      const prepared = sqlite.prepare(sql);
      kept.set(sql, prepared);
      if (kept.size > capacity) kept.delete(kept.keys().next().value!);
      return prepared;
    },
  };
}
