import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { RECOVERY_CODE_COUNT, TOTP_ISSUER } from '@agua/shared';

/**
 * The arithmetic of two-factor sign-in (docs/security.md "Two-factor sign-in"): RFC 6238 codes —
 * SHA-1, 6 digits, 30 s steps, one step of clock drift either way — computed by `otpauth`, and the
 * one-time recovery codes. No state here: which step was last accepted is the caller's to keep.
 */
const PERIOD_S = 30;
const DIGITS = 6;
const DRIFT_STEPS = 1;

/** A new secret: base32 of 20 random bytes (RFC 4226's recommended length for SHA-1). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The URL an authenticator app reads from the QR code, in the documented order of its parameters. */
export function otpauthUrl(username: string, secret: string): string {
  const label = `${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(username)}`;
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(TOTP_ISSUER)}&algorithm=SHA1&digits=${DIGITS}&period=${PERIOD_S}`;
}

/**
 * The time step a code is valid for, within one step of now, newer than `lastStep` (a step once
 * accepted, or an older one, never counts again); null when none. The newest matching step wins,
 * so that a code cannot be replayed one step later.
 */
export function matchingTotpStep(secret: string, given: string, lastStep: number | null, nowMs = Date.now()): number | null {
  const code = given.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(code)) return null;
  const key = Secret.fromBase32(secret);
  const current = Math.floor(nowMs / 1000 / PERIOD_S);
  for (let step = current + DRIFT_STEPS; step >= current - DRIFT_STEPS; step--) {
    if (lastStep !== null && step <= lastStep) break;
    const expected = TOTP.generate({ secret: key, algorithm: 'SHA1', digits: DIGITS, period: PERIOD_S, timestamp: step * PERIOD_S * 1000 });
    if (timingSafeEqual(Buffer.from(expected), Buffer.from(code))) return step;
  }
  return null;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Ten recovery codes `xxxxx-xxxxx` of [a-z2-7]: 50 random bits each. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((b) => BASE32[b & 31]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A recovery code as it is hashed: lower case, without spaces or hyphens; null when it cannot be one. */
export function normalizeRecoveryCode(given: string): string | null {
  const code = given.toLowerCase().replace(/[\s-]+/g, '');
  return /^[a-z2-7]{10}$/.test(code) ? code : null;
}
