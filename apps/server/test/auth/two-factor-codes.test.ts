// The code arithmetic of docs/security.md "Two-factor sign-in", against RFC 6238's own test vectors
// (SHA-1, secret "12345678901234567890"; the 6-digit codes are the last six of the RFC's eight).
import { describe, expect, it } from 'vitest';
import { matchingTotpStep, newRecoveryCodes, normalizeRecoveryCode, otpauthUrl } from '../../src/features/auth/two-factor';

const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP steps', () => {
  it('matches RFC 6238 vectors at their step, with one step of drift either way', () => {
    expect(matchingTotpStep(RFC_SECRET, '287082', null, 59_000)).toBe(1);
    expect(matchingTotpStep(RFC_SECRET, '081804', null, 1_111_111_109_000)).toBe(37_037_036);
    expect(matchingTotpStep(RFC_SECRET, '081804', null, 1_111_111_109_000 + 30_000)).toBe(37_037_036);
    expect(matchingTotpStep(RFC_SECRET, '081804', null, 1_111_111_109_000 - 30_000)).toBe(37_037_036);
    expect(matchingTotpStep(RFC_SECRET, '081804', null, 1_111_111_109_000 + 60_000)).toBeNull();
  });

  it('refuses the step already accepted and older ones; spaces are ignored; anything not six digits is wrong', () => {
    expect(matchingTotpStep(RFC_SECRET, '081804', 37_037_036, 1_111_111_109_000)).toBeNull();
    expect(matchingTotpStep(RFC_SECRET, '081804', 37_037_035, 1_111_111_109_000)).toBe(37_037_036);
    expect(matchingTotpStep(RFC_SECRET, '081 804', null, 1_111_111_109_000)).toBe(37_037_036);
    expect(matchingTotpStep(RFC_SECRET, '81804', null, 1_111_111_109_000)).toBeNull();
    expect(matchingTotpStep(RFC_SECRET, '0818045', null, 1_111_111_109_000)).toBeNull();
  });
});

describe('recovery codes', () => {
  it('ten different codes xxxxx-xxxxx of [a-z2-7], read back whatever the case, spaces and hyphens', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) {
      expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
      expect(normalizeRecoveryCode(` ${c.toUpperCase().replace('-', ' - ')} `)).toBe(c.replace('-', ''));
    }
    expect(normalizeRecoveryCode('abcde-fgh1j')).toBeNull();
    expect(normalizeRecoveryCode('abcde')).toBeNull();
  });
});

it('the otpauth URL names the issuer and the user, in the documented order', () => {
  expect(otpauthUrl('ana.perez', 'ABC')).toBe('otpauth://totp/Agua:ana.perez?secret=ABC&issuer=Agua&algorithm=SHA1&digits=6&period=30');
});
