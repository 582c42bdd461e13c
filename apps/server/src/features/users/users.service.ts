import { passwordPolicyError, type Role, type UserStatus } from '@agua/shared';
import { conflict, notFound, unprocessable } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { AuditService } from '../audit/audit.service';
import { hashPassword } from '../../lib/password';
import { NO_TOTP, type UserRecord, type UsersRepository } from './users.repository';

export interface CreateUserInput {
  username: string;
  name: string;
  email: string;
  role: Role;
  password: string;
  masterPassword?: string | undefined;
}

export interface PatchUserInput {
  name?: string | undefined;
  email?: string | undefined;
  role?: Role | undefined;
  status?: UserStatus | undefined;
  masterPassword?: string | undefined;
  /** Required when admins set their own master password. */
  currentMasterPassword?: string | undefined;
}

export interface Actor {
  user: UserRecord;
  ip: string;
  /** The actor's own session, kept when they change their own master password. */
  sessionId: string;
}

/** What user administration needs of sign-in (AuthService). */
export interface SessionControl {
  /** Ends a user's sessions and live sockets, all or all but one. */
  endSessionsOf(userId: string, exceptSessionId?: string): Promise<void>;
  /** Checks a secret of the signed-in user under the sign-in lockout; a wrong one counts as a failure. */
  confirmSecret(user: UserRecord, ip: string, storedHash: string | null, given: string): Promise<boolean>;
}

/**
 * User administration (docs/api.md): unique username and e-mail, the password policy, a temporary
 * password to change at first sign-in, and never without an active administrator.
 */
export class UsersService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly audit: AuditService,
    private readonly sessions: SessionControl,
  ) {}

  async create(input: CreateUserInput, actor: Actor): Promise<UserRecord> {
    const username = input.username.trim().toLowerCase();
    checkPolicy(username, input.password, 'password');
    if (input.role === 'admin') this.checkMasterPassword(username, input.masterPassword);
    if (await this.repo.findByUsername(username)) throw conflict('USERNAME_TAKEN');
    if (await this.repo.findByEmail(input.email)) throw conflict('EMAIL_TAKEN');
    const user: UserRecord = {
      id: newId('usr'),
      username,
      name: input.name.trim(),
      email: input.email.trim().toLowerCase(),
      role: input.role,
      status: 'active',
      passwordHash: await hashPassword(input.password),
      masterPasswordHash: input.role === 'admin' ? await hashPassword(input.masterPassword!) : null,
      mustChangePassword: true,
      lastLoginMs: null,
      createdAtMs: Date.now(),
      ...NO_TOTP,
    };
    await this.repo.insert(user);
    await this.record('user.created', user, actor, { role: user.role });
    return user;
  }

  /**
   * The last-admin rule, e-mail uniqueness and the write are one transaction, so that concurrent
   * changes cannot each see another admin and together leave none; a master password is hashed
   * before it starts (the transaction holds the database while it runs).
   */
  async patch(id: string, input: PatchUserInput, actor: Actor): Promise<UserRecord> {
    this.checkPatch(await this.find(id), input);
    const ownMasterPassword = id === actor.user.id && input.masterPassword !== undefined && (input.role ?? actor.user.role) === 'admin';
    if (ownMasterPassword) await this.confirmOwnMasterPassword(actor, input.currentMasterPassword);
    const masterPasswordHash = input.masterPassword !== undefined ? await hashPassword(input.masterPassword) : undefined;
    const { before, updated } = await this.repo.transaction(async (repo) => {
      const user = await repo.findById(id);
      if (!user) throw notFound('USER_NOT_FOUND');
      this.checkPatch(user, input);
      const role = input.role ?? user.role;
      const status = input.status ?? user.status;
      const losesAdmin = user.role === 'admin' && user.status === 'active' && (role !== 'admin' || status !== 'active');
      if (losesAdmin && (await repo.countActiveAdmins()) <= 1) throw conflict('LAST_ADMIN');
      if (input.email !== undefined && input.email.trim().toLowerCase() !== user.email) {
        const other = await repo.findByEmail(input.email);
        if (other && other.id !== id) throw conflict('EMAIL_TAKEN');
      }
      await repo.update(id, {
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.role !== undefined ? { role: input.role } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(role === 'admin' && masterPasswordHash !== undefined ? { masterPasswordHash } : {}),
        ...(role !== 'admin' ? { masterPasswordHash: null } : {}),
      });
      return { before: user, updated: (await repo.findById(id))! };
    });
    if (updated.role !== before.role || (updated.status === 'inactive' && before.status === 'active')) await this.sessions.endSessionsOf(id);
    // A new master password of one's own, like a new password, ends one's other sessions.
    else if (ownMasterPassword) await this.sessions.endSessionsOf(id, actor.sessionId);
    const fields = (['name', 'email', 'role', 'status', 'masterPassword'] as const).filter((k) => input[k] !== undefined);
    await this.record('user.updated', updated, actor, { fields, ...(input.role ? { role: input.role } : {}), ...(input.status ? { status: input.status } : {}) });
    return updated;
  }

  /** The last-admin rule and the delete are one transaction (see patch). */
  async delete(id: string, actor: Actor): Promise<void> {
    const user = await this.repo.transaction(async (repo) => {
      const found = await repo.findById(id);
      if (!found) throw notFound('USER_NOT_FOUND');
      if (found.role === 'admin' && found.status === 'active' && (await repo.countActiveAdmins()) <= 1) throw conflict('LAST_ADMIN');
      await repo.delete(id);
      return found;
    });
    // The rows went with the user (ON DELETE CASCADE); this tells the live sockets.
    await this.sessions.endSessionsOf(id);
    await this.record('user.deleted', user, actor, { username: user.username });
  }

  /** Sets a new temporary password: it must be changed at the next sign-in; sessions end. */
  async resetPassword(id: string, password: string, actor: Actor): Promise<UserRecord> {
    const user = await this.find(id);
    checkPolicy(user.username, password, 'password');
    await this.repo.update(id, { passwordHash: await hashPassword(password), mustChangePassword: true });
    await this.sessions.endSessionsOf(id);
    await this.record('user.password_reset', user, actor);
    return { ...user, mustChangePassword: true };
  }

  private async find(id: string): Promise<UserRecord> {
    const user = await this.repo.findById(id);
    if (!user) throw notFound('USER_NOT_FOUND');
    return user;
  }

  /** An admin-role account needs its own master password, under the same policy as passwords. */
  private checkMasterPassword(username: string, masterPassword: string | undefined): void {
    if (!masterPassword) throw unprocessable('MASTER_PASSWORD_REQUIRED', { field: 'masterPassword' });
    checkPolicy(username, masterPassword, 'masterPassword');
  }

  /** Making someone admin needs their master password; setting an admin's one, the policy. */
  private checkPatch(user: UserRecord, input: PatchUserInput): void {
    const role = input.role ?? user.role;
    const becomesAdmin = role === 'admin' && user.role !== 'admin';
    if (becomesAdmin || (role === 'admin' && input.masterPassword !== undefined)) this.checkMasterPassword(user.username, input.masterPassword);
  }

  /**
   * Admins replacing their own master password prove they know the current one, like a password
   * change (a session left open must not be enough to take the second secret over); a wrong one
   * counts as a sign-in failure, under the same lockout.
   */
  private async confirmOwnMasterPassword(actor: Actor, current: string | undefined): Promise<void> {
    if (!current) throw unprocessable('MASTER_PASSWORD_REQUIRED', { field: 'currentMasterPassword' });
    if (await this.sessions.confirmSecret(actor.user, actor.ip, actor.user.masterPasswordHash, current)) return;
    await this.record('user.updated', actor.user, actor, { fields: ['masterPassword'], code: 'MASTER_PASSWORD_CURRENT_INVALID' }, 'denied');
    throw unprocessable('MASTER_PASSWORD_CURRENT_INVALID', { field: 'currentMasterPassword' });
  }

  private record(
    action: 'user.created' | 'user.updated' | 'user.deleted' | 'user.password_reset',
    target: UserRecord,
    actor: Actor,
    details?: Record<string, unknown>,
    result: 'ok' | 'denied' = 'ok',
  ) {
    return this.audit.record({ action, userId: actor.user.id, username: actor.user.username, target: `user:${target.id}`, result, ip: actor.ip, details: details ?? null });
  }
}

/** The password policy (shared with the web app), as the API's 422 naming the field. */
function checkPolicy(username: string, password: string, field: 'password' | 'masterPassword'): void {
  const problem = passwordPolicyError(username, password);
  if (problem) throw unprocessable(problem, { field });
}
