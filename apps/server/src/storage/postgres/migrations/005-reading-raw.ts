import { sql, type Kysely } from 'kysely';

/** What a level sensor sent beside the level stored from it, as SQLite's 010 (docs/water.md). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE readings ADD COLUMN raw_num double precision`.execute(db);
  await sql`ALTER TABLE devices ADD COLUMN reading_raw_num double precision`.execute(db);
}
