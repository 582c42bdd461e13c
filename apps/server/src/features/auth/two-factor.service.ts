import type { TotpSetup } from '@agua/shared';
import { AppError, conflict, unprocessable } from '../../lib/errors';
import type { AuditAction } from '../audit/audit.repository';
import type { AuditService } from '../audit/audit.service';
import type { SettingsService } from '../settings/settings.service';
import type { UserRecord, UsersRepository } from '../users/users.repository';
import type { Authenticated, AuthService } from './auth.service';
import type { SecondFactor } from './second-factor';
import { newRecoveryCodes, newTotpSecret, otpauthUrl, matchingTotpStep } from './two-factor';

const TOTP_OFF = { totpSecret: null, totpPendingSecret: null, totpLastStep: null, totpEnabledAtMs: null } as const;

/**
 * Turning two-factor sign-in on and off (docs/security.md "Two-factor sign-in"). Every code or
 * password checked here counts as a sign-in attempt: a wrong one is a failure of this username from
 * this address, and during a lockout every attempt gets 429.
 */
export class TwoFactorService {
  constructor(
    private readonly users: UsersRepository,
    private readonly secondFactor: SecondFactor,
    private readonly auth: AuthService,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
  ) {}

  /** A new secret to scan, replacing one set up before and not confirmed. */
  async setup({ user }: Authenticated): Promise<TotpSetup> {
    if (user.totpSecret) throw conflict('TOTP_ALREADY_ENABLED');
    const secret = newTotpSecret();
    await this.users.update(user.id, { totpPendingSecret: secret });
    return { secret, otpauthUrl: otpauthUrl(user.username, secret) };
  }

  /** Confirms the pending secret with a first code; the ten recovery codes are returned this once. */
  async enable({ user }: Authenticated, code: string, ip: string): Promise<{ recoveryCodes: string[] }> {
    const fresh = await this.current(user);
    if (fresh.totpSecret) throw conflict('TOTP_ALREADY_ENABLED');
    if (!fresh.totpPendingSecret) throw conflict('TOTP_NOT_SET_UP');
    const step = matchingTotpStep(fresh.totpPendingSecret, code, null);
    await this.auth.settleSecret(fresh, ip, step !== null);
    if (step === null) {
      await this.record('auth.totp_enabled', fresh, ip, 'denied', { code: 'TOTP_INVALID' });
      throw unprocessable('TOTP_INVALID');
    }
    const recoveryCodes = newRecoveryCodes();
    await this.secondFactor.storeRecoveryCodes(fresh.id, recoveryCodes);
    await this.users.update(fresh.id, { totpSecret: fresh.totpPendingSecret, totpPendingSecret: null, totpLastStep: step, totpEnabledAtMs: Date.now() });
    await this.record('auth.totp_enabled', fresh, ip, 'ok');
    return { recoveryCodes };
  }

  /** Turns one's own TOTP off, with the password and a code (of the app or a recovery code). */
  async disable({ user }: Authenticated, password: string, code: string, ip: string): Promise<void> {
    const fresh = await this.current(user);
    if (!fresh.totpSecret) throw conflict('TOTP_NOT_ENABLED');
    if ((await this.settings.totpRequiredRoles()).includes(fresh.role)) throw conflict('TOTP_REQUIRED_BY_ROLE');
    const passwordOk = await this.auth.verifyOwnPassword(fresh, password);
    // The code is spent only behind the right password, so that guessing passwords burns no codes.
    const codeOk = passwordOk && ['totp', 'recovery'].includes(await this.secondFactor.check(fresh, looksLikeAppCode(code) ? { totpCode: code } : { recoveryCode: code }));
    await this.auth.settleSecret(fresh, ip, codeOk);
    if (!codeOk) {
      await this.record('auth.totp_disabled', fresh, ip, 'denied', { code: 'REAUTH_FAILED' });
      throw unprocessable('REAUTH_FAILED');
    }
    await this.turnOff(fresh.id);
    await this.record('auth.totp_disabled', fresh, ip, 'ok');
  }

  /** An administrator turns a user's TOTP off (a lost phone): that user's sessions end. */
  async reset(userId: string, actor: { user: UserRecord; ip: string }): Promise<void> {
    const target = await this.users.findById(userId);
    if (!target) throw new AppError(404, 'USER_NOT_FOUND');
    await this.turnOff(target.id);
    await this.auth.endSessionsOf(target.id);
    await this.audit.record({
      action: 'user.totp_reset',
      userId: actor.user.id,
      username: actor.user.username,
      target: `user:${target.id}`,
      result: 'ok',
      ip: actor.ip,
      details: { username: target.username, wasEnabled: target.totpSecret !== null },
    });
  }

  private async turnOff(userId: string): Promise<void> {
    await this.users.update(userId, TOTP_OFF);
    await this.secondFactor.forget(userId);
  }

  /** The user as stored now: the session's copy may predate a setup or an enable in another tab. */
  private async current(user: UserRecord): Promise<UserRecord> {
    return (await this.users.findById(user.id)) ?? user;
  }

  private record(action: AuditAction, user: UserRecord, ip: string, result: 'ok' | 'denied', details?: Record<string, unknown>): Promise<void> {
    return this.audit.record({ action, userId: user.id, username: user.username, target: `user:${user.id}`, result, ip, ...(details ? { details } : {}) });
  }
}

/** Six digits (spaces allowed) are a code of the app; anything else is tried as a recovery code. */
function looksLikeAppCode(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s+/g, ''));
}
