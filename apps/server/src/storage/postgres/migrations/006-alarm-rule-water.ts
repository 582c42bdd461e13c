import { sql, type Kysely } from 'kysely';

/** The water alarm kinds and level setpoints in metres, as SQLite's 011 (docs/alarms.md). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE alarm_rules ADD COLUMN setpoint_m double precision`.execute(db);
  await sql`ALTER TABLE alarm_rules ADD COLUMN setpoint_min double precision`.execute(db);
  await sql`ALTER TABLE alarm_rules ADD COLUMN edited integer NOT NULL DEFAULT 0`.execute(db);
}
