import { sql, type Kysely } from 'kysely';

/**
 * What a level sensor sent, beside the level stored from it (docs/water.md "Distance sensors"):
 * NULL where the two are the same (a level sensor without a zero offset, the common case), so
 * that most readings cost nothing more. The device's current reading keeps it too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE readings ADD COLUMN raw_num REAL`.execute(db);
  await sql`ALTER TABLE devices ADD COLUMN reading_raw_num REAL`.execute(db);
}
