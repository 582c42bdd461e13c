import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema';

/** Stored readings: reading history back (the hot write path is SqliteReadingsWriter). */
export class ReadingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Deletes a device's whole history (DELETE /devices/{id}?purge=true). */
  async deleteByDevice(deviceId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('readings').where('device_id', '=', deviceId).execute();
      await trx.deleteFrom('telemetry_dedupe').where('device_id', '=', deviceId).execute();
    });
  }
}
