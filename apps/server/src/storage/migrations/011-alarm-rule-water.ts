import { sql, type Kysely } from 'kysely';

/**
 * The water alarm kinds and level setpoints in metres (docs/alarms.md, docs/water.md "Alarms"):
 * a level rule's absolute setpoint (`setpoint_m`, NULL when set in % of maxLevel), the minutes of
 * a time_to_overflow rule, and whether an admin ever edited the rule (a first crest then leaves
 * the water kinds as the admin set them). Existing devices get the new kinds' rows at start, by
 * the rules' defaults (off unless the device has a crest).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE alarm_rules ADD COLUMN setpoint_m REAL`.execute(db);
  await sql`ALTER TABLE alarm_rules ADD COLUMN setpoint_min REAL`.execute(db);
  await sql`ALTER TABLE alarm_rules ADD COLUMN edited INTEGER NOT NULL DEFAULT 0`.execute(db);
}
