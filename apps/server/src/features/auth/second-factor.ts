import { hashPassword, verifyPassword } from '../../lib/password';
import type { UserRecord, UsersRepository } from '../users/users.repository';
import type { RecoveryCodesRepository } from './recovery-codes.repository';
import { matchingTotpStep, normalizeRecoveryCode } from './two-factor';

export interface SecondFactorInput {
  totpCode?: string | undefined;
  recoveryCode?: string | undefined;
}

/** What a second factor proved: a code of the app, a recovery code (now spent), nothing given, or a wrong one. */
export type SecondFactorOutcome = 'totp' | 'recovery' | 'missing' | 'invalid';

/**
 * Checks a user's second factor (docs/security.md "Two-factor sign-in"). Each code counts once:
 * an app code's time step, and a recovery code, are spent by one conditional update, so the same
 * code sent twice at once — to one instance or two — is accepted once.
 */
export class SecondFactor {
  constructor(
    private readonly users: UsersRepository,
    private readonly recoveryCodes: RecoveryCodesRepository,
  ) {}

  async check(user: UserRecord, input: SecondFactorInput): Promise<SecondFactorOutcome> {
    if (!user.totpSecret) return 'invalid';
    if (input.totpCode) {
      const step = matchingTotpStep(user.totpSecret, input.totpCode, user.totpLastStep);
      return step !== null && (await this.users.acceptTotpStep(user.id, step)) ? 'totp' : 'invalid';
    }
    if (input.recoveryCode) return (await this.spendRecoveryCode(user.id, input.recoveryCode)) ? 'recovery' : 'invalid';
    return 'missing';
  }

  /** Hashes a new set of recovery codes and stores them in place of the old. */
  async storeRecoveryCodes(userId: string, codes: string[]): Promise<void> {
    const hashes = await Promise.all(codes.map((c) => hashPassword(normalizeRecoveryCode(c)!)));
    await this.recoveryCodes.replace(userId, hashes);
  }

  async forget(userId: string): Promise<void> {
    await this.recoveryCodes.deleteAll(userId);
  }

  private async spendRecoveryCode(userId: string, given: string): Promise<boolean> {
    const code = normalizeRecoveryCode(given);
    if (!code) return false;
    // argon2id hashes cannot be looked up: the unused ones (ten at most) are tried in turn.
    for (const hash of await this.recoveryCodes.unused(userId)) {
      if (await verifyPassword(hash, code)) return this.recoveryCodes.spend(userId, hash, Date.now());
    }
    return false;
  }
}
