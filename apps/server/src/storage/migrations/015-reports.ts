import type { Kysely } from 'kysely';

/**
 * Reports (docs/reports.md): definitions, their runs and the runs' files, kept regardless of
 * RETENTION_DAYS. A run keeps a copy of its definition as it was, so that it outlives an edit or
 * a deletion and is regenerated the same way after a crash. `schedule_key` is set on scheduled
 * runs only and unique: one run per (report, period) whatever the instances and restarts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('report_definitions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('device_ids_json', 'text')
    .addColumn('formats_json', 'text', (c) => c.notNull())
    .addColumn('recipients_json', 'text', (c) => c.notNull())
    .addColumn('schedule_json', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('enabled_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('report_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('report_id', 'text', (c) => c.notNull())
    .addColumn('definition_json', 'text', (c) => c.notNull())
    .addColumn('from_date', 'text', (c) => c.notNull())
    .addColumn('to_date', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('requested_by_json', 'text')
    .addColumn('send', 'integer', (c) => c.notNull())
    .addColumn('schedule_key', 'text', (c) => c.unique())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('lease_until_ms', 'bigint')
    .addColumn('mailed', 'integer', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('finished_at_ms', 'bigint')
    .execute();
  await db.schema.createIndex('report_runs_created').on('report_runs').columns(['created_at_ms', 'id']).execute();
  await db.schema.createIndex('report_runs_report').on('report_runs').columns(['report_id', 'created_at_ms']).execute();
  await db.schema.createIndex('report_runs_status').on('report_runs').columns(['status']).execute();
  await db.schema
    .createTable('report_files')
    .addColumn('run_id', 'text', (c) => c.notNull().references('report_runs.id').onDelete('cascade'))
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_files_pk', ['run_id', 'format'])
    .execute();
}
