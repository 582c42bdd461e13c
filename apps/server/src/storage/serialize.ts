import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from './schema';

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
