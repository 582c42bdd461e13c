import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema';

/** Failed sign-ins, kept for the lockout window. */
export class LoginFailuresRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async record(username: string, ip: string, atMs: number): Promise<void> {
    await this.db.insertInto('login_failures').values({ username, ip, at_ms: atMs }).execute();
  }

  /** Times of failures since a moment, oldest first, for one address (and one username if given). */
  async since(sinceMs: number, ip: string, username?: string): Promise<number[]> {
    let q = this.db.selectFrom('login_failures').select('at_ms').where('ip', '=', ip).where('at_ms', '>=', sinceMs);
    if (username !== undefined) q = q.where('username', '=', username);
    const rows = await q.orderBy('at_ms').execute();
    return rows.map((r) => Number(r.at_ms));
  }

  async clear(username: string, ip: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('username', '=', username).where('ip', '=', ip).execute();
  }

  async pruneBefore(cutoffMs: number): Promise<void> {
    await this.db.deleteFrom('login_failures').where('at_ms', '<', cutoffMs).execute();
  }
}
