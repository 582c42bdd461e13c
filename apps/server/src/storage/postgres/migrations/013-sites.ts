import { sql, type Kysely } from 'kysely';

/** Sites, the site of a device and the synoptic versions, as SQLite's 018 (docs/sites.md). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sites (
      id text PRIMARY KEY,
      name text NOT NULL,
      name_key text NOT NULL CONSTRAINT sites_name_key_key UNIQUE,
      parent_id text,
      lat double precision,
      lon double precision,
      address text,
      created_at_ms bigint NOT NULL,
      updated_at_ms bigint NOT NULL
    );
    CREATE INDEX sites_parent ON sites (parent_id);
    ALTER TABLE devices ADD COLUMN site_id text;
    CREATE INDEX devices_site ON devices (site_id);
    CREATE TABLE synoptic_versions (
      site_id text NOT NULL,
      version integer NOT NULL,
      width integer NOT NULL,
      height integer NOT NULL,
      background_json text NOT NULL,
      items_json text NOT NULL,
      created_at_ms bigint NOT NULL,
      created_by_json text,
      CONSTRAINT synoptic_versions_pk PRIMARY KEY (site_id, version)
    );
  `.execute(db);
}
