import type { Kysely } from 'kysely';

/**
 * Sites and their synoptics (docs/sites.md): a tree of places with an optional position; the
 * site a device belongs to; every saved version of a site's drawing, kept (a save never
 * overwrites, so an older version can be looked at and a stale save is refused by the key).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    // The name folded for comparison (trimmed, lower case): unique regardless of case on both engines.
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    .addColumn('parent_id', 'text')
    .addColumn('lat', 'double precision')
    .addColumn('lon', 'double precision')
    .addColumn('address', 'text')
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sites_parent').on('sites').columns(['parent_id']).execute();
  await db.schema.alterTable('devices').addColumn('site_id', 'text').execute();
  await db.schema.createIndex('devices_site').on('devices').columns(['site_id']).execute();
  await db.schema
    .createTable('synoptic_versions')
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('background_json', 'text', (c) => c.notNull())
    .addColumn('items_json', 'text', (c) => c.notNull())
    .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('created_by_json', 'text')
    .addPrimaryKeyConstraint('synoptic_versions_pk', ['site_id', 'version'])
    .execute();
}
