import type { Kysely, Selectable } from 'kysely';
import type { Site } from '@agua/shared';
import { conflict } from '../../lib/errors';
import { iso } from '../../lib/time';
import type { Database, SitesTable } from '../../storage/schema';

export interface SiteRecord {
  id: string;
  name: string;
  parentId: string | null;
  lat: number | null;
  lon: number | null;
  address: string | null;
  createdAtMs: number;
  updatedAtMs: number;
}

/** A name as uniqueness sees it: trimmed, one Unicode form, lower case ('Planta Norte' = 'planta norte '). */
export function nameKey(name: string): string {
  return name.trim().normalize('NFC').toLowerCase();
}

function toRecord(r: Selectable<SitesTable>): SiteRecord {
  return {
    id: r.id,
    name: r.name,
    parentId: r.parent_id,
    lat: r.lat === null ? null : Number(r.lat),
    lon: r.lon === null ? null : Number(r.lon),
    address: r.address,
    createdAtMs: Number(r.created_at_ms),
    updatedAtMs: Number(r.updated_at_ms),
  };
}

function toRow(r: SiteRecord): SitesTable {
  return {
    id: r.id,
    name: r.name,
    name_key: nameKey(r.name),
    parent_id: r.parentId,
    lat: r.lat,
    lon: r.lon,
    address: r.address,
    created_at_ms: r.createdAtMs,
    updated_at_ms: r.updatedAtMs,
  };
}

/** The API's Site. */
export function toSite(r: SiteRecord): Site {
  return { id: r.id, name: r.name, parentId: r.parentId, lat: r.lat, lon: r.lon, address: r.address, createdAt: iso(r.createdAtMs), updatedAt: iso(r.updatedAtMs) };
}

/**
 * The unique name index is the last word: a check made before the write can be overtaken by a
 * concurrent request, whose loser gets the API's 409, not a 500.
 */
function rethrowNameTaken(err: unknown): never {
  const { code } = (err ?? {}) as { code?: unknown };
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505') throw conflict('SITE_NAME_TAKEN');
  throw err;
}

/** Sites, stored. Few (tens, hundreds): read from the database at every request, so every instance agrees. */
export class SitesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every site, by name (the order the API lists them in). */
  async list(): Promise<SiteRecord[]> {
    return (await this.db.selectFrom('sites').selectAll().orderBy('name_key').orderBy('id').execute()).map(toRecord);
  }

  async find(id: string): Promise<SiteRecord | null> {
    const row = await this.db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** The site holding this name regardless of case, if any. */
  async findByName(name: string): Promise<SiteRecord | null> {
    const row = await this.db.selectFrom('sites').selectAll().where('name_key', '=', nameKey(name)).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async countChildren(id: string): Promise<number> {
    const row = await this.db.selectFrom('sites').select((eb) => eb.fn.countAll<number>().as('n')).where('parent_id', '=', id).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async insert(r: SiteRecord): Promise<void> {
    await this.db.insertInto('sites').values(toRow(r)).execute().catch(rethrowNameTaken);
  }

  async replace(r: SiteRecord): Promise<void> {
    const { id: _id, created_at_ms: _created, ...row } = toRow(r);
    await this.db.updateTable('sites').set(row).where('id', '=', r.id).execute().catch(rethrowNameTaken);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('sites').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
