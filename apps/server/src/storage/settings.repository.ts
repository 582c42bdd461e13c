import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** Small server-wide values that must survive restarts (the device-key pepper, administrators' settings), and the storage probe's row. */
export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The stored value, or the created one stored on first use. */
  async getOrCreate(key: string, create: () => string): Promise<string> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    if (row) return row.value;
    const value = create();
    await this.db.insertInto('settings').values({ key, value }).onConflict((oc) => oc.column('key').doNothing()).execute();
    const stored = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
    return stored.value;
  }

  async find(key: string): Promise<string | null> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value ?? null;
  }

  /** Stores a value, replacing any. */
  async put(key: string, value: string): Promise<void> {
    await this.db.insertInto('settings').values({ key, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
  }
}
