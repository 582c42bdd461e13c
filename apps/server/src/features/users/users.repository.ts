import type { Kysely, Selectable } from 'kysely';
import type { Role, UserStatus } from '@agua/shared';
import { conflict } from '../../lib/errors';
import type { Database, UsersTable } from '../../storage/schema';
import { serializeOn } from '../../storage/serialize';

export interface UserRecord {
  id: string;
  username: string;
  name: string;
  email: string;
  role: Role;
  status: UserStatus;
  passwordHash: string | null;
  masterPasswordHash: string | null;
  mustChangePassword: boolean;
  lastLoginMs: number | null;
  createdAtMs: number;
  /** Two-factor sign-in (docs/security.md): the secret once enabled, one being set up, the last step accepted. */
  totpSecret: string | null;
  totpPendingSecret: string | null;
  totpLastStep: number | null;
  totpEnabledAtMs: number | null;
}

/** A new user has no two-factor sign-in yet. */
export const NO_TOTP = { totpSecret: null, totpPendingSecret: null, totpLastStep: null, totpEnabledAtMs: null } as const;

function toRecord(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    email: row.email,
    role: row.role as Role,
    status: row.status as UserStatus,
    passwordHash: row.password_hash,
    masterPasswordHash: row.master_password_hash,
    mustChangePassword: row.must_change_password === 1,
    lastLoginMs: row.last_login_ms === null ? null : Number(row.last_login_ms),
    createdAtMs: Number(row.created_at_ms),
    totpSecret: row.totp_secret,
    totpPendingSecret: row.totp_pending_secret,
    totpLastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
    totpEnabledAtMs: row.totp_enabled_at_ms === null ? null : Number(row.totp_enabled_at_ms),
  };
}

/**
 * The UNIQUE indexes on username and e-mail are the last word on uniqueness: a check done before
 * the write can be overtaken by a concurrent request, whose loser gets the API's 409, not a 500.
 */
function rethrowTaken(err: unknown): never {
  const { code, message = '', constraint } = (err ?? {}) as { code?: unknown; message?: string; constraint?: string };
  // SQLite names the column in its message; PostgreSQL (23505) names the constraint.
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505') {
    if (message.includes('users.username') || constraint === 'users_username_key') throw conflict('USERNAME_TAKEN');
    if (message.includes('users.email') || constraint === 'users_email_key') throw conflict('EMAIL_TAKEN');
  }
  throw err;
}

export type UserPatch = Partial<Omit<UserRecord, 'id' | 'createdAtMs'>>;

/** Users, stored. */
export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Runs reads and writes as one transaction that no other user transaction interleaves with (a
   * check and the write it guards cannot be split; serializeOn). The callback must use only the
   * repository it is given and must not wait on anything slow (hashing).
   */
  transaction<T>(work: (repo: UsersRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await serializeOn(trx, 'agua.users');
      return work(new UsersRepository(trx));
    });
  }

  async findById(id: string): Promise<UserRecord | null> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** Usernames are stored lower-case; lookup is therefore case-insensitive. */
  async findByUsername(username: string): Promise<UserRecord | null> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', username.trim().toLowerCase())
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async list(): Promise<UserRecord[]> {
    const rows = await this.db.selectFrom('users').selectAll().orderBy('created_at_ms').orderBy('username').execute();
    return rows.map(toRecord);
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countActiveAdmins(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'admin')
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Throws 409 USERNAME_TAKEN / EMAIL_TAKEN when a concurrent request took the name first. */
  async insert(user: UserRecord): Promise<void> {
    const now = Date.now();
    await this.db
      .insertInto('users')
      .values({
        id: user.id,
        username: user.username.trim().toLowerCase(),
        name: user.name,
        email: user.email.trim().toLowerCase(),
        role: user.role,
        status: user.status,
        password_hash: user.passwordHash,
        master_password_hash: user.masterPasswordHash,
        must_change_password: user.mustChangePassword ? 1 : 0,
        last_login_ms: user.lastLoginMs,
        created_at_ms: user.createdAtMs,
        updated_at_ms: now,
        totp_secret: user.totpSecret,
        totp_pending_secret: user.totpPendingSecret,
        totp_last_step: user.totpLastStep,
        totp_enabled_at_ms: user.totpEnabledAtMs,
      })
      .execute()
      .catch(rethrowTaken);
  }

  async update(id: string, patch: UserPatch): Promise<void> {
    const values: Partial<Selectable<UsersTable>> = { updated_at_ms: Date.now() };
    if (patch.username !== undefined) values.username = patch.username.trim().toLowerCase();
    if (patch.name !== undefined) values.name = patch.name;
    if (patch.email !== undefined) values.email = patch.email.trim().toLowerCase();
    if (patch.role !== undefined) values.role = patch.role;
    if (patch.status !== undefined) values.status = patch.status;
    if (patch.passwordHash !== undefined) values.password_hash = patch.passwordHash;
    if (patch.masterPasswordHash !== undefined) values.master_password_hash = patch.masterPasswordHash;
    if (patch.mustChangePassword !== undefined) values.must_change_password = patch.mustChangePassword ? 1 : 0;
    if (patch.lastLoginMs !== undefined) values.last_login_ms = patch.lastLoginMs;
    if (patch.totpSecret !== undefined) values.totp_secret = patch.totpSecret;
    if (patch.totpPendingSecret !== undefined) values.totp_pending_secret = patch.totpPendingSecret;
    if (patch.totpLastStep !== undefined) values.totp_last_step = patch.totpLastStep;
    if (patch.totpEnabledAtMs !== undefined) values.totp_enabled_at_ms = patch.totpEnabledAtMs;
    await this.db.updateTable('users').set(values).where('id', '=', id).execute().catch(rethrowTaken);
  }

  /**
   * Records a TOTP time step as used, unless that step or a newer one already was: one conditional
   * update, so that the same code sent twice at once (to one instance or two) counts once.
   */
  async acceptTotpStep(id: string, step: number): Promise<boolean> {
    const res = await this.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', id).execute();
  }
}
