import { createHash } from 'node:crypto';
import { can, passwordPolicyError } from '@agua/shared';
import { AppError, forbidden, unprocessable } from '../../lib/errors';
import type { EventBus } from '../../lib/event-bus';
import { newSecret } from '../../lib/ids';
import type { AuditService } from '../audit/audit.service';
import type { UserRecord, UsersRepository } from '../users/users.repository';
import type { SettingsService } from '../settings/settings.service';
import type { LoginFailuresRepository } from './login-failures.repository';
import { hashPassword, verifyPassword } from '../../lib/password';
import type { SecondFactor } from './second-factor';
import type { SessionRecord, SessionsRepository } from './sessions.repository';

export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;
/** Sessions are touched at most this often, so that reads do not turn into writes. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface AuthOptions {
  sessionTtlMs: number;
  maxFailuresPerUser: number;
  maxFailuresPerAddress: number;
}

export interface LoginInput {
  username: string;
  password: string;
  masterPassword?: string | undefined;
  totpCode?: string | undefined;
  recoveryCode?: string | undefined;
}

export interface RequestOrigin {
  ip: string;
  userAgent: string | null;
}

export interface Authenticated {
  session: SessionRecord;
  user: UserRecord;
  /**
   * The session began while the user's role required TOTP they had not turned on: until they do,
   * it reaches only the routes that let them (docs/security.md "Two-factor sign-in").
   */
  mustEnrolTotp: boolean;
  /** The session's idle clock was reset by this request: the cookie is sent again to match. */
  touched?: boolean;
}

/** The cookie holds a random token; the database only its hash. */
/** The id a session shows in the API: derived from the stored key, never usable as one. */
export function publicSessionId(sessionId: string): string {
  return createHash('sha256').update(`public:${sessionId}`).digest('base64url').slice(0, 22);
}

export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Sign-in, sessions and one's own password (docs/api.md "Sign-in"). */
export class AuthService {
  private readonly attemptsByAddress = new Map<string, Promise<unknown>>();

  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly failures: LoginFailuresRepository,
    private readonly audit: AuditService,
    private readonly bus: EventBus,
    private readonly secondFactor: SecondFactor,
    private readonly settings: SettingsService,
    private readonly options: AuthOptions,
  ) {}

  login(input: LoginInput, from: RequestOrigin): Promise<{ user: UserRecord; token: string }> {
    return this.oneAtATime(from.ip, () => this.attempt(input, from));
  }

  /**
   * Guesses from one address (sign-ins, current passwords) run one at a time, so that concurrent
   * guesses cannot all pass the lockout check before any of their failures is counted.
   */
  private oneAtATime<T>(ip: string, work: () => Promise<T>): Promise<T> {
    const previous = this.attemptsByAddress.get(ip) ?? Promise.resolve();
    const attempt = previous.catch(() => undefined).then(work);
    const tail = attempt.catch(() => undefined);
    this.attemptsByAddress.set(ip, tail);
    void tail.then(() => {
      if (this.attemptsByAddress.get(ip) === tail) this.attemptsByAddress.delete(ip);
    });
    return attempt;
  }

  /**
   * Checks a secret of a signed-in user again (the current password or master password before
   * changing it) as a sign-in would: `429` during a lockout, and a wrong one counts as a sign-in
   * failure of that username from that address; a right one resets that count. A stolen session
   * thus gets no more guesses at the password than the sign-in form.
   */
  confirmSecret(user: UserRecord, ip: string, storedHash: string | null, given: string): Promise<boolean> {
    return this.oneAtATime(ip, async () => {
      await this.assertNotLockedOut(user.username, ip, Date.now());
      const ok = await verifyPassword(storedHash, given);
      if (ok) await this.failures.clear(user.username, ip);
      else await this.failures.record(user.username, ip, Date.now());
      return ok;
    });
  }

  /** Whether a password is the user's own; nothing counted (see `settleSecret`). */
  verifyOwnPassword(user: UserRecord, given: string): Promise<boolean> {
    return verifyPassword(user.passwordHash, given);
  }

  /**
   * Counts a secret checked elsewhere (a command's re-authentication, checked on the instance
   * that received it) as `confirmSecret` would: `429` during a lockout, else a failure or a clear.
   */
  settleSecret(user: UserRecord, ip: string, ok: boolean): Promise<void> {
    return this.oneAtATime(ip, async () => {
      await this.assertNotLockedOut(user.username, ip, Date.now());
      if (ok) await this.failures.clear(user.username, ip);
      else await this.failures.record(user.username, ip, Date.now());
    });
  }

  /** Checks in the order docs/security.md fixes: lockout, credentials, inactive, master password, second factor. */
  private async attempt(input: LoginInput, from: RequestOrigin): Promise<{ user: UserRecord; token: string }> {
    const username = input.username.trim().toLowerCase();
    const now = Date.now();
    await this.assertNotLockedOut(username, from.ip, now);

    const user = await this.users.findByUsername(username);
    const passwordOk = await verifyPassword(user?.passwordHash, input.password);
    if (!user || !passwordOk) return this.fail(username, from, 'INVALID_CREDENTIALS', 401, user);
    if (user.status !== 'active') {
      await this.audit.record({ action: 'auth.login_failed', userId: user.id, username, target: `user:${user.id}`, result: 'denied', ip: from.ip, details: { code: 'USER_INACTIVE' } });
      throw new AppError(403, 'USER_INACTIVE');
    }
    if (user.role === 'admin') {
      if (!input.masterPassword) return this.fail(username, from, 'MASTER_PASSWORD_REQUIRED', 401, user);
      if (!(await verifyPassword(user.masterPasswordHash, input.masterPassword))) {
        return this.fail(username, from, 'MASTER_PASSWORD_INVALID', 401, user);
      }
    }
    if (user.totpSecret) {
      const outcome = await this.secondFactor.check(user, input);
      if (outcome === 'missing') return this.fail(username, from, 'TOTP_REQUIRED', 401, user);
      if (outcome === 'invalid') return this.fail(username, from, 'TOTP_INVALID', 401, user);
      if (outcome === 'recovery') {
        await this.audit.record({ action: 'auth.recovery_code_used', userId: user.id, username: user.username, target: `user:${user.id}`, result: 'ok', ip: from.ip });
      }
    }
    const mustEnrolTotp = !user.totpSecret && (await this.settings.totpRequiredRoles()).includes(user.role);

    await this.failures.clear(username, from.ip);
    const token = newSecret();
    await this.sessions.insert({
      id: sessionIdOf(token),
      userId: user.id,
      createdAtMs: now,
      lastUsedMs: now,
      ip: from.ip,
      userAgent: from.userAgent?.slice(0, 300) ?? null,
      mustEnrolTotp,
    });
    await this.users.update(user.id, { lastLoginMs: now });
    await this.audit.record({ action: 'auth.login', userId: user.id, username: user.username, target: `user:${user.id}`, result: 'ok', ip: from.ip });
    return { user: { ...user, lastLoginMs: now }, token };
  }

  private async assertNotLockedOut(username: string, ip: string, now: number): Promise<void> {
    const since = now - LOCKOUT_WINDOW_MS;
    const byUser = await this.failures.since(since, ip, username);
    const byAddress = await this.failures.since(since, ip);
    const retryAt = Math.max(
      lockedUntil(byUser, this.options.maxFailuresPerUser),
      lockedUntil(byAddress, this.options.maxFailuresPerAddress),
    );
    if (retryAt > now) {
      const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
      throw new AppError(429, 'TOO_MANY_ATTEMPTS', undefined, { 'retry-after': String(seconds) });
    }
  }

  private async fail(
    username: string,
    from: RequestOrigin,
    code: 'INVALID_CREDENTIALS' | 'MASTER_PASSWORD_REQUIRED' | 'MASTER_PASSWORD_INVALID' | 'TOTP_REQUIRED' | 'TOTP_INVALID',
    status: number,
    user: UserRecord | null,
  ): Promise<never> {
    await this.failures.record(username, from.ip, Date.now());
    await this.audit.record({
      action: 'auth.login_failed',
      userId: user?.id ?? null,
      username,
      target: user ? `user:${user.id}` : null,
      result: 'denied',
      ip: from.ip,
      details: { code },
    });
    throw new AppError(status, code);
  }

  /** The session behind a cookie's token, or null when it is unknown, expired or its user inactive. */
  async authenticate(token: string | undefined): Promise<Authenticated | null> {
    if (!token || token.length > 200) return null;
    const session = await this.sessions.find(sessionIdOf(token));
    if (!session) return null;
    const now = Date.now();
    if (now - session.lastUsedMs > this.options.sessionTtlMs) {
      await this.sessions.delete(session.id);
      return null;
    }
    const user = await this.users.findById(session.userId);
    if (!user || user.status !== 'active') {
      await this.sessions.delete(session.id);
      return null;
    }
    const mustEnrolTotp = await this.mustEnrol(session, user);
    if (now - session.lastUsedMs > TOUCH_EVERY_MS) {
      await this.sessions.touch(session.id, now);
      session.lastUsedMs = now;
      return { session, user, mustEnrolTotp, touched: true };
    }
    return { session, user, mustEnrolTotp };
  }

  /** A gated session stays gated while the role still requires TOTP and it is still off. */
  private async mustEnrol(session: SessionRecord, user: UserRecord): Promise<boolean> {
    if (!session.mustEnrolTotp || user.totpSecret) return false;
    return (await this.settings.totpRequiredRoles()).includes(user.role);
  }

  /** The user of a session that is still valid (the live socket's re-check), else null. */
  async authenticateSessionId(sessionId: string): Promise<UserRecord | null> {
    const session = await this.sessions.find(sessionId);
    if (!session || Date.now() - session.lastUsedMs > this.options.sessionTtlMs) return null;
    const user = await this.users.findById(session.userId);
    if (!user || user.status !== 'active' || user.mustChangePassword) return null;
    if (await this.mustEnrol(session, user)) return null;
    // A screen that stays open on the live socket is in use: its session does not idle out.
    await this.sessions.touch(sessionId, Date.now());
    return user;
  }

  async logout(auth: Authenticated, ip: string): Promise<void> {
    await this.sessions.delete(auth.session.id);
    this.bus.emit('sessions.ended', { sessionId: auth.session.id });
    await this.audit.record({ action: 'auth.logout', userId: auth.user.id, username: auth.user.username, target: `user:${auth.user.id}`, result: 'ok', ip });
  }

  /** Changes one's own password: keeps this session, ends the others (docs/api.md). */
  async changeOwnPassword(auth: Authenticated, currentPassword: string, newPassword: string, ip: string): Promise<UserRecord> {
    const { user } = auth;
    if (!(await this.confirmSecret(user, ip, user.passwordHash, currentPassword))) {
      await this.audit.record({ action: 'user.password_changed', userId: user.id, username: user.username, target: `user:${user.id}`, result: 'denied', ip, details: { code: 'PASSWORD_CURRENT_INVALID' } });
      throw unprocessable('PASSWORD_CURRENT_INVALID');
    }
    const policy = newPassword === currentPassword ? 'PASSWORD_POLICY' : passwordPolicyError(user.username, newPassword);
    if (policy) throw unprocessable(policy, { field: 'newPassword' });
    await this.users.update(user.id, { passwordHash: await hashPassword(newPassword), mustChangePassword: false });
    await this.endSessionsOf(user.id, auth.session.id);
    await this.audit.record({ action: 'user.password_changed', userId: user.id, username: user.username, target: `user:${user.id}`, result: 'ok', ip });
    return { ...user, mustChangePassword: false };
  }

  /**
   * A user's sessions as the API shows them (docs/security.md): one's own, or another user's with
   * manage_users. Their ids are derived from the stored key, so that neither is a token.
   */
  async sessionsOf(auth: Authenticated, userId?: string): Promise<Array<{ id: string; createdAt: string; lastSeenAt: string; address: string | null; userAgent: string | null; current: boolean }>> {
    const of = userId ?? auth.user.id;
    if (of !== auth.user.id) {
      if (!can(auth.user, 'manage_users')) throw forbidden();
      if (!(await this.users.findById(of))) throw new AppError(404, 'USER_NOT_FOUND');
    }
    return (await this.sessions.listByUser(of)).map((s) => ({
      id: publicSessionId(s.id),
      createdAt: new Date(s.createdAtMs).toISOString(),
      lastSeenAt: new Date(s.lastUsedMs).toISOString(),
      address: s.ip,
      userAgent: s.userAgent,
      current: s.id === auth.session.id,
    }));
  }

  /** Ends one session by its public id: one's own, or any with manage_users (404 otherwise); audited. */
  async revokeSession(auth: Authenticated, publicId: string, ip: string): Promise<void> {
    const mayAny = can(auth.user, 'manage_users');
    const found = await this.sessions.findByPublicId(publicId, publicSessionId, mayAny ? undefined : auth.user.id);
    if (!found) throw new AppError(404, 'SESSION_NOT_FOUND');
    await this.sessions.delete(found.id);
    this.bus.emit('sessions.ended', { sessionId: found.id });
    await this.audit.record({ action: 'auth.session_revoked', userId: auth.user.id, username: auth.user.username, target: `user:${found.userId}`, result: 'ok', ip, details: { session: publicId } });
  }

  /** Ends a user's sessions (all, or all but one) and tells the live sockets at once. */
  async endSessionsOf(userId: string, exceptSessionId?: string): Promise<void> {
    await this.sessions.deleteByUser(userId, exceptSessionId);
    this.bus.emit('sessions.ended', { userId, ...(exceptSessionId ? { exceptSessionId } : {}) });
  }

  async pruneExpired(): Promise<void> {
    const now = Date.now();
    await this.sessions.deleteIdleBefore(now - this.options.sessionTtlMs);
    await this.failures.pruneBefore(now - LOCKOUT_WINDOW_MS);
  }
}

/** The time a list of failure times stays locked: until the oldest of the last `max` leaves the window. */
function lockedUntil(times: number[], max: number): number {
  if (times.length < max) return 0;
  const oldestRelevant = times[times.length - max] ?? 0;
  return oldestRelevant + LOCKOUT_WINDOW_MS;
}

