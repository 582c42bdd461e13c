import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema';

export interface SessionRecord {
  id: string;
  userId: string;
  createdAtMs: number;
  lastUsedMs: number;
  /** Signed in while the role required TOTP the user had not turned on (docs/security.md). */
  mustEnrolTotp: boolean;
}

/** Server-side sessions, keyed by the SHA-256 of the cookie's token. */
export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(s: SessionRecord & { ip: string | null; userAgent: string | null }): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({
        id: s.id,
        user_id: s.userId,
        created_at_ms: s.createdAtMs,
        last_used_ms: s.lastUsedMs,
        ip: s.ip,
        user_agent: s.userAgent,
        must_enrol_totp: s.mustEnrolTotp ? 1 : 0,
      })
      .execute();
  }

  async find(id: string): Promise<SessionRecord | null> {
    const row = await this.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    return { id: row.id, userId: row.user_id, createdAtMs: Number(row.created_at_ms), lastUsedMs: Number(row.last_used_ms), mustEnrolTotp: row.must_enrol_totp === 1 };
  }

  /** A user's sessions, newest first. */
  async listByUser(userId: string): Promise<Array<SessionRecord & { ip: string | null; userAgent: string | null }>> {
    const rows = await this.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('created_at_ms', 'desc').orderBy('id').execute();
    return rows.map((row) => ({ id: row.id, userId: row.user_id, createdAtMs: Number(row.created_at_ms), lastUsedMs: Number(row.last_used_ms), mustEnrolTotp: row.must_enrol_totp === 1, ip: row.ip, userAgent: row.user_agent }));
  }

  /** The session whose public id is this (among one user's, or everyone's). */
  async findByPublicId(publicId: string, publicOf: (id: string) => string, userId?: string): Promise<SessionRecord | null> {
    let q = this.db.selectFrom('sessions').selectAll();
    if (userId !== undefined) q = q.where('user_id', '=', userId);
    for (const row of await q.execute()) {
      if (publicOf(row.id) === publicId) return { id: row.id, userId: row.user_id, createdAtMs: Number(row.created_at_ms), lastUsedMs: Number(row.last_used_ms), mustEnrolTotp: row.must_enrol_totp === 1 };
    }
    return null;
  }

  async touch(id: string, atMs: number): Promise<void> {
    await this.db.updateTable('sessions').set({ last_used_ms: atMs }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  /** Ends every session of a user, except one (the caller's own, when it changes its password). */
  async deleteByUser(userId: string, exceptId?: string): Promise<void> {
    let q = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptId) q = q.where('id', '!=', exceptId);
    await q.execute();
  }

  async deleteIdleBefore(cutoffMs: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('last_used_ms', '<', cutoffMs).execute();
  }
}
