import type { Kysely, Selectable } from 'kysely';
import type { Geometry } from '@agua/shared';
import type { Database, DeviceGeometriesTable } from '../../storage/schema';

/** Who made a version: a person, or null for the demo's. */
export interface GeometryAuthor {
  id: string;
  username: string;
  name: string;
}

export interface StoredGeometry {
  deviceId: string;
  version: number;
  validFromMs: number;
  by: GeometryAuthor | null;
  geometry: Geometry;
}

function toStored(row: Selectable<DeviceGeometriesTable>): StoredGeometry {
  return {
    deviceId: row.device_id,
    version: Number(row.version),
    validFromMs: Number(row.valid_from_ms),
    by: row.by_json === null ? null : (JSON.parse(row.by_json) as GeometryAuthor),
    geometry: JSON.parse(row.body) as Geometry,
  };
}

/** Versions of level sensors' geometry; rows are only ever added (deleted with their device). */
export class GeometryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A device's versions, newest first. */
  async versionsOf(deviceId: string): Promise<StoredGeometry[]> {
    return (await this.db.selectFrom('device_geometries').selectAll().where('device_id', '=', deviceId).orderBy('version', 'desc').execute()).map(toStored);
  }

  /** Every device's versions, each device's newest first. */
  async listAll(): Promise<StoredGeometry[]> {
    return (await this.db.selectFrom('device_geometries').selectAll().orderBy('device_id').orderBy('version', 'desc').execute()).map(toStored);
  }

  /**
   * Adds a version unless that number is taken: false when it is. Two admins saving at once both
   * compute the same next number; the second learns it here and tries the next one.
   */
  async insert(g: StoredGeometry): Promise<boolean> {
    const result = await this.db
      .insertInto('device_geometries')
      .values({ device_id: g.deviceId, version: g.version, valid_from_ms: g.validFromMs, by_json: g.by === null ? null : JSON.stringify(g.by), body: JSON.stringify(g.geometry) })
      .onConflict((oc) => oc.columns(['device_id', 'version']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
}
