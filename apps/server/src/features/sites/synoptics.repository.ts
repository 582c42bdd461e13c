import type { Kysely, Selectable } from 'kysely';
import type { Synoptic, SynopticBackground, SynopticItem, SynopticVersion } from '@agua/shared';
import { conflict } from '../../lib/errors';
import { iso } from '../../lib/time';
import type { Database, SynopticVersionsTable } from '../../storage/schema';

export type Person = { id: string; username: string; name: string };

export interface SynopticRecord {
  siteId: string;
  version: number;
  width: number;
  height: number;
  background: SynopticBackground;
  items: SynopticItem[];
  createdAtMs: number;
  createdBy: Person | null;
}

function toRecord(r: Selectable<SynopticVersionsTable>): SynopticRecord {
  return {
    siteId: r.site_id,
    version: Number(r.version),
    width: Number(r.width),
    height: Number(r.height),
    background: JSON.parse(r.background_json) as SynopticBackground,
    items: JSON.parse(r.items_json) as SynopticItem[],
    createdAtMs: Number(r.created_at_ms),
    createdBy: r.created_by_json === null ? null : (JSON.parse(r.created_by_json) as Person),
  };
}

/** The API's Synoptic. */
export function toSynoptic(r: SynopticRecord): Synoptic {
  return { siteId: r.siteId, version: r.version, width: r.width, height: r.height, background: r.background, items: r.items, createdAt: iso(r.createdAtMs), createdBy: r.createdBy };
}

/**
 * Versions of the sites' synoptic drawings. A save inserts the next version and never updates
 * one, so the key (site_id, version) refuses the second of two saves made on the same version.
 */
export class SynopticsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async latest(siteId: string): Promise<SynopticRecord | null> {
    const row = await this.db.selectFrom('synoptic_versions').selectAll().where('site_id', '=', siteId).orderBy('version', 'desc').limit(1).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async get(siteId: string, version: number): Promise<SynopticRecord | null> {
    const row = await this.db.selectFrom('synoptic_versions').selectAll().where('site_id', '=', siteId).where('version', '=', version).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** Every version of a site's drawing, newest first, without the drawings themselves (an SVG may weigh 2 MB). */
  async versions(siteId: string): Promise<SynopticVersion[]> {
    const rows = await this.db
      .selectFrom('synoptic_versions')
      .select(['version', 'created_at_ms', 'created_by_json'])
      .where('site_id', '=', siteId)
      .orderBy('version', 'desc')
      .execute();
    return rows.map((r) => ({ version: Number(r.version), createdAt: iso(Number(r.created_at_ms)), createdBy: r.created_by_json === null ? null : (JSON.parse(r.created_by_json) as Person) }));
  }

  /** Stores a new version; 409 VERSION_CONFLICT when that version exists (another save came first). */
  async insert(r: SynopticRecord): Promise<void> {
    await this.db
      .insertInto('synoptic_versions')
      .values({
        site_id: r.siteId,
        version: r.version,
        width: r.width,
        height: r.height,
        background_json: JSON.stringify(r.background),
        items_json: JSON.stringify(r.items),
        created_at_ms: r.createdAtMs,
        created_by_json: r.createdBy ? JSON.stringify(r.createdBy) : null,
      })
      .execute()
      .catch((err: unknown) => {
        const { code } = (err ?? {}) as { code?: unknown };
        if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505') throw conflict('VERSION_CONFLICT', { version: r.version });
        throw err;
      });
  }

  async deleteBySite(siteId: string): Promise<void> {
    await this.db.deleteFrom('synoptic_versions').where('site_id', '=', siteId).execute();
  }
}
