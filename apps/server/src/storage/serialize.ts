import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from './schema';
import type { Storage } from './storage';

/**
 * Inside a transaction: waits until no other transaction holds the lock of this name, and holds
 * it until the end. A check and the write it guards (the last active admin) then cannot
 * interleave with another transaction's. SQLite needs nothing: its one connection runs one
 * transaction at a time. On PostgreSQL, READ COMMITTED would let two transactions each see the
 * other's row still there; a transaction-scoped advisory lock serialises exactly these.
 */
export async function serializeOn(trx: Kysely<Database>, name: string): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`SELECT pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
}

/**
 * Runs `work` while holding a PostgreSQL session advisory lock of this name on a connection of
 * its own, so that instances starting at once do it one after another (the demo seed: the
 * first seeds, the others find it done). SQLite belongs to one process: it just runs.
 */
export async function oneAtATime<T>(storage: Storage, name: string, work: () => Promise<T>): Promise<T> {
  if (storage.engine !== 'postgres') return work();
  const client = await storage.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  } finally {
    client.release();
  }
}
