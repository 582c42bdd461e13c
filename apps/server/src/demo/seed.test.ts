import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../lib/password';
import { DEMO_USERS } from './seed';

/** The `$argon2id$v=…$m=…,t=…,p=…$` part of a PHC string: the algorithm and its parameters. */
const parametersOf = (phc: string) => phc.split('$').slice(0, 4).join('$');

describe('demo accounts', () => {
  it("each stored hash verifies its public password and no other, with today's argon2id parameters", async () => {
    const current = parametersOf(await hashPassword('anything'));
    for (const u of DEMO_USERS) {
      for (const [password, hash] of [[u.password, u.passwordHash], [u.masterPassword, u.masterPasswordHash]] as const) {
        expect(hash === null, `${u.username}: a hash exactly when there is a password`).toBe(password === null);
        if (password === null || hash === null) continue;
        expect(parametersOf(hash)).toBe(current);
        expect(await verifyPassword(hash, password)).toBe(true);
        expect(await verifyPassword(hash, `${password}x`)).toBe(false);
      }
    }
  });
});
