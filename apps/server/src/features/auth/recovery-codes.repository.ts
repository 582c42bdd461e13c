import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema';

/** A user's one-time recovery codes, hashed (docs/security.md). */
export class RecoveryCodesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Replaces a user's codes with new ones. */
  async replace(userId: string, hashes: string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await trx.insertInto('recovery_codes').values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at_ms: null }))).execute();
    });
  }

  async unused(userId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', userId).where('used_at_ms', 'is', null).execute();
    return rows.map((r) => r.code_hash);
  }

  /** Spends one code; false when another request spent it first (one conditional update wins). */
  async spend(userId: string, hash: string, atMs: number): Promise<boolean> {
    const res = await this.db
      .updateTable('recovery_codes')
      .set({ used_at_ms: atMs })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hash)
      .where('used_at_ms', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async deleteAll(userId: string): Promise<void> {
    await this.db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  }
}
