import { meetsPasswordPolicy, type Role, type UserStatus } from '@agua/shared';
import { conflict, notFound, unprocessable } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { AuditService } from '../audit/audit.service';
import { hashPassword } from '../auth/password';
import type { UserRecord, UsersRepository } from './users.repository';

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
}

export interface Actor {
  user: UserRecord;
  ip: string;
}

/** Ends a user's sessions and live sockets (AuthService.endSessionsOf). */
export type EndSessions = (userId: string) => Promise<void>;

/**
 * User administration (API.md): unique username and e-mail, the password policy, a temporary
 * password to change at first sign-in, and never without an active administrator.
 */
export class UsersService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly audit: AuditService,
    private readonly endSessions: EndSessions,
  ) {}

  async create(input: CreateUserInput, actor: Actor): Promise<UserRecord> {
    const username = input.username.trim().toLowerCase();
    if (!meetsPasswordPolicy(username, input.password)) throw unprocessable('PASSWORD_POLICY', { field: 'password' });
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
    };
    await this.repo.insert(user);
    await this.record('user.created', user, actor, { role: user.role });
    return user;
  }

  async patch(id: string, input: PatchUserInput, actor: Actor): Promise<UserRecord> {
    const user = await this.find(id);
    const role = input.role ?? user.role;
    const status = input.status ?? user.status;
    const losesAdmin = user.role === 'admin' && user.status === 'active' && (role !== 'admin' || status !== 'active');
    if (losesAdmin && (await this.repo.countActiveAdmins()) <= 1) throw conflict('LAST_ADMIN');
    const becomesAdmin = role === 'admin' && user.role !== 'admin';
    if (becomesAdmin || (role === 'admin' && input.masterPassword !== undefined)) this.checkMasterPassword(user.username, input.masterPassword);
    if (input.email !== undefined && input.email.trim().toLowerCase() !== user.email) {
      const other = await this.repo.findByEmail(input.email);
      if (other && other.id !== id) throw conflict('EMAIL_TAKEN');
    }
    const patch = {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.email !== undefined ? { email: input.email } : {}),
      ...(input.role !== undefined ? { role: input.role } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(role === 'admin' && input.masterPassword !== undefined ? { masterPasswordHash: await hashPassword(input.masterPassword) } : {}),
      ...(role !== 'admin' ? { masterPasswordHash: null } : {}),
    };
    await this.repo.update(id, patch);
    if (role !== user.role || (status === 'inactive' && user.status === 'active')) await this.endSessions(id);
    const fields = (['name', 'email', 'role', 'status', 'masterPassword'] as const).filter((k) => input[k] !== undefined);
    const updated = (await this.repo.findById(id))!;
    await this.record('user.updated', updated, actor, { fields, ...(input.role ? { role: input.role } : {}), ...(input.status ? { status: input.status } : {}) });
    return updated;
  }

  async delete(id: string, actor: Actor): Promise<void> {
    const user = await this.find(id);
    if (user.role === 'admin' && user.status === 'active' && (await this.repo.countActiveAdmins()) <= 1) throw conflict('LAST_ADMIN');
    await this.endSessions(id);
    await this.repo.delete(id);
    await this.record('user.deleted', user, actor, { username: user.username });
  }

  /** Sets a new temporary password: it must be changed at the next sign-in; sessions end. */
  async resetPassword(id: string, password: string, actor: Actor): Promise<UserRecord> {
    const user = await this.find(id);
    if (!meetsPasswordPolicy(user.username, password)) throw unprocessable('PASSWORD_POLICY', { field: 'password' });
    await this.repo.update(id, { passwordHash: await hashPassword(password), mustChangePassword: true });
    await this.endSessions(id);
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
    if (!meetsPasswordPolicy(username, masterPassword)) throw unprocessable('PASSWORD_POLICY', { field: 'masterPassword' });
  }

  private record(action: 'user.created' | 'user.updated' | 'user.deleted' | 'user.password_reset', target: UserRecord, actor: Actor, details?: Record<string, unknown>) {
    return this.audit.record({ action, userId: actor.user.id, username: actor.user.username, target: `user:${target.id}`, result: 'ok', ip: actor.ip, details: details ?? null });
  }
}
