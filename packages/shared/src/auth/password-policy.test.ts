import { describe, expect, it } from 'vitest';
import { meetsPasswordPolicy, passwordPolicyError } from './password-policy';

describe('password policy', () => {
  it.each([
    ['ana', 'corta', false],
    ['ana', '123456789', false],
    ['ana', '1234567890', true],
    ['juan.perez', 'juan.perez', false],
    ['juan.perez', 'JUAN.PEREZ', false],
    ['juan.perez', 'juan.perez1', true],
    ['ana', 'ñandúes-10', true],
  ])('user %s with %s → %s', (user, password, ok) => {
    expect(meetsPasswordPolicy(user, password)).toBe(ok);
  });

  it.each([
    ['ten spaces', ' '.repeat(10), 'PASSWORD_BLANK'],
    ['forty spaces', ' '.repeat(40), 'PASSWORD_BLANK'],
    ['tabs and newlines', '\t\n\r \t\n\r \t\n', 'PASSWORD_BLANK'],
    ['no-break and ideographic spaces', '\u00a0\u3000\u2003'.repeat(4), 'PASSWORD_BLANK'],
    ['short spaces (the length rule first)', ' '.repeat(9), 'PASSWORD_POLICY'],
    ['too short', 'corta', 'PASSWORD_POLICY'],
    ['the username, padded', '  ana.maria  ', 'PASSWORD_POLICY'],
    ['spaces around a real secret', '  secreto-1  ', null],
    ['a passphrase with spaces', 'agua clara del río', null],
  ])('%s → %s', (_name, password, expected) => {
    expect(passwordPolicyError('ana.maria', password)).toBe(expected);
    expect(meetsPasswordPolicy('ana.maria', password)).toBe(expected === null);
  });
});
