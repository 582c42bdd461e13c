import { describe, expect, it } from 'vitest';
import { accountOfOtpauthUrl, groupSecret, recoveryCodesFileName, recoveryCodesText } from './two-factor-texts';

describe('two-factor texts', () => {
  it('groups the secret in fours for typing by hand', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(groupSecret('ABCDEF')).toBe('ABCD EF');
    expect(groupSecret('')).toBe('');
  });

  it('names the recovery codes file after the user and the day', () => {
    expect(recoveryCodesFileName('juan.perez', new Date(2026, 10, 29, 8, 5))).toBe('codigos-recuperacion-juan.perez-2026-11-29.txt');
    expect(recoveryCodesFileName('a b/c', new Date(2026, 0, 2))).toBe('codigos-recuperacion-a_b_c-2026-01-02.txt');
  });

  it('writes one code a line after who and how', () => {
    const text = recoveryCodesText(['aaaaa-bbbbb', 'ccccc-ddddd'], { product: 'Panel de Control de Agua', username: 'juan', at: new Date(2026, 10, 29) });
    const lines = text.split('\n');
    expect(lines[0]).toBe('Panel de Control de Agua — códigos de recuperación');
    expect(lines[1]).toBe('Usuario: juan');
    expect(text).toContain('Cada código sirve una sola vez');
    expect(lines.slice(-3)).toEqual(['aaaaa-bbbbb', 'ccccc-ddddd', '']);
  });

  it('reads the account of an otpauth URL', () => {
    expect(accountOfOtpauthUrl('otpauth://totp/Agua:juan?secret=ABC&issuer=Agua')).toBe('Agua:juan');
    expect(accountOfOtpauthUrl('no es una url')).toBeNull();
  });
});
