// POST /api/v1/auth/password under the sign-in lockout (docs/api.md "Sign-in" step 1): a wrong current
// password is a guess like a failed sign-in, so that a session left open gets no more guesses.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { createUser, MSG } from './auth-helpers';
import { expectApiError, login, loginCookie } from '../helpers/api';
import { sqlRun, sqlValue } from '../helpers/sql';

const PASSWORD = 'clave-actual-123';
const USER = { username: 'cambia01', password: PASSWORD };

const changeOwn = (s: TestServer, cookie: string, currentPassword: string, newPassword = 'clave-nueva-456') =>
  s.fetch('/api/v1/auth/password', { method: 'POST', cookie, json: { currentPassword, newPassword } });

async function failureRows(s: TestServer, username: string): Promise<number> {
  return Number(await sqlValue(s, 'SELECT COUNT(*) AS n FROM login_failures WHERE username = ?', username));
}

async function expectLockedOut(res: Response): Promise<void> {
  await expectApiError(res, 429, 'TOO_MANY_ATTEMPTS', MSG.TOO_MANY_ATTEMPTS);
  expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
}

describe('changing one\'s own password counts wrong current passwords (LOGIN_MAX_FAILURES_PER_USER=3)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ LOGIN_MAX_FAILURES_PER_USER: '3' });
    await createUser(s, USER);
  });
  afterAll(async () => s.close());
  beforeEach(async () => {
    await sqlRun(s, 'DELETE FROM login_failures');
  });

  it('records each wrong current password as a sign-in failure of that username from that address', async () => {
    const cookie = await loginCookie(s, USER);
    await expectApiError(await changeOwn(s, cookie, 'no-es-la-actual-1'), 422, 'PASSWORD_CURRENT_INVALID');
    await expectApiError(await changeOwn(s, cookie, 'no-es-la-actual-2'), 422, 'PASSWORD_CURRENT_INVALID');
    expect(await failureRows(s, USER.username)).toBe(2);
  });

  it('after the limit answers 429 with Retry-After, even for the right current password; sign-in is locked too', async () => {
    const cookie = await loginCookie(s, USER);
    for (let i = 0; i < 3; i++) await expectApiError(await changeOwn(s, cookie, `no-es-la-actual-${i}`), 422, 'PASSWORD_CURRENT_INVALID');
    await expectLockedOut(await changeOwn(s, cookie, PASSWORD));
    await expectLockedOut(await login(s, USER));
    // The 429s were not counted, and nothing changed.
    expect(await failureRows(s, USER.username)).toBe(3);
    await sqlRun(s, 'DELETE FROM login_failures');
    await loginCookie(s, USER);
  });

  it('concurrent wrong guesses get no more than the limit evaluated', async () => {
    const cookie = await loginCookie(s, USER);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => changeOwn(s, cookie, `adivinanza-${i}-x`)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((st) => st === 422), statuses.join(',')).toHaveLength(3);
    expect(statuses.filter((st) => st === 429), statuses.join(',')).toHaveLength(5);
  });

  it('a right current password below the limit changes it and resets the count', async () => {
    const cookie = await loginCookie(s, USER);
    await expectApiError(await changeOwn(s, cookie, 'no-es-la-actual-1'), 422, 'PASSWORD_CURRENT_INVALID');
    expect((await changeOwn(s, cookie, PASSWORD, 'clave-nueva-456')).status).toBe(200);
    expect(await failureRows(s, USER.username)).toBe(0);
    expect((await changeOwn(s, cookie, 'clave-nueva-456', PASSWORD)).status).toBe(200);
  });
});
