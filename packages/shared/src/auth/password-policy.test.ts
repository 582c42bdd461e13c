import { describe, expect, it } from 'vitest';
import { meetsPasswordPolicy } from './password-policy';

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
});
