// Sign-in lockout (docs/api.md "Sign-in" step 1): per username and address, and per address.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORDS, startServer, type TestServer } from '../helpers/server';
import { auditEvents, MSG } from './auth-helpers';
import { expectApiError, login, loginCookie } from '../helpers/api';
import { sqlRun, sqlValue } from '../helpers/sql';

const WINDOW_S = 15 * 60;

/** Asserts a 429 TOO_MANY_ATTEMPTS with a Retry-After of whole positive seconds; returns them. */
async function expectLockedOut(res: Response): Promise<number> {
  const body = await expectApiError(res, 429, 'TOO_MANY_ATTEMPTS', MSG.TOO_MANY_ATTEMPTS);
  expect(body).toEqual({ error: MSG.TOO_MANY_ATTEMPTS, code: 'TOO_MANY_ATTEMPTS' });
  const retryAfter = res.headers.get('retry-after');
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  expect(res.headers.getSetCookie()).toEqual([]);
  return Number(retryAfter);
}

async function failTimes(s: TestServer, username: string, n: number, headers: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await login(s, { username, password: `wrong-password-${i}` }, headers);
    await expectApiError(res, 401, 'INVALID_CREDENTIALS', MSG.INVALID_CREDENTIALS);
  }
}

async function failureRows(s: TestServer, username?: string): Promise<number> {
  const n =
    username === undefined
      ? await sqlValue(s, 'SELECT COUNT(*) AS n FROM login_failures')
      : await sqlValue(s, 'SELECT COUNT(*) AS n FROM login_failures WHERE username = ?', username);
  return Number(n);
}

/** Moves every recorded failure back in time, as if that many seconds had passed. */
async function ageFailures(s: TestServer, seconds: number): Promise<void> {
  await sqlRun(s, 'UPDATE login_failures SET at_ms = at_ms - ?', seconds * 1000);
}

describe('lockout per username from one address (defaults 5 / 20)', () => {
  let s: TestServer;
  let adminCookie: string;
  beforeAll(async () => {
    s = await startServer();
    adminCookie = await s.login('admin');
  });
  afterAll(async () => s.close());
  beforeEach(async () => {
    await sqlRun(s, 'DELETE FROM login_failures');
  });

  it('answers the 6th attempt after 5 failures with 429 and Retry-After (about the 15-minute window)', async () => {
    await failTimes(s, 'viewer', 5);
    const retryAfter = await expectLockedOut(await login(s, { username: 'viewer', password: 'wrong-password-x' }));
    expect(retryAfter).toBeGreaterThan(WINDOW_S - 60);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
  });

  it('refuses even the right password during the lockout', async () => {
    await failTimes(s, 'viewer', 5);
    await expectLockedOut(await login(s, DEMO_PASSWORDS.viewer));
  });

  it('does not count a 429 as a further failure', async () => {
    await failTimes(s, 'viewer', 5);
    expect(await failureRows(s, 'viewer')).toBe(5);
    for (let i = 0; i < 3; i++) await expectLockedOut(await login(s, { username: 'viewer', password: 'wrong-password-y' }));
    await expectLockedOut(await login(s, DEMO_PASSWORDS.viewer));
    expect(await failureRows(s, 'viewer')).toBe(5);
  });

  it('still lets a different username in from the same address', async () => {
    await failTimes(s, 'viewer', 5);
    await expectLockedOut(await login(s, DEMO_PASSWORDS.viewer));
    expect((await login(s, DEMO_PASSWORDS.operator)).status).toBe(200);
  });

  it('counts the username case-insensitively', async () => {
    for (const username of ['VIEWER', 'Viewer', 'viewer', 'vIeWeR', 'VIEWER']) await failTimes(s, username, 1);
    await expectLockedOut(await login(s, DEMO_PASSWORDS.viewer));
    await expectLockedOut(await login(s, { ...DEMO_PASSWORDS.viewer, username: 'VIEWER' }));
  });

  it('locks unknown usernames too (the answer does not tell whether the account exists)', async () => {
    await failTimes(s, 'no-such-user', 5);
    await expectLockedOut(await login(s, { username: 'no-such-user', password: 'anything-1' }));
  });

  it('resets the username count on a success (4 failures, success, 4 failures: not locked)', async () => {
    await failTimes(s, 'viewer', 4);
    expect((await login(s, DEMO_PASSWORDS.viewer)).status).toBe(200);
    await failTimes(s, 'viewer', 4);
    expect((await login(s, DEMO_PASSWORDS.viewer)).status).toBe(200);
    // The count still works after the reset: 5 failures lock.
    await failTimes(s, 'viewer', 5);
    await expectLockedOut(await login(s, DEMO_PASSWORDS.viewer));
  });

  it('counts MASTER_PASSWORD_REQUIRED and MASTER_PASSWORD_INVALID as failures', async () => {
    const { username, password, masterPassword } = DEMO_PASSWORDS.admin;
    for (let i = 0; i < 3; i++) {
      await expectApiError(await login(s, { username, password }), 401, 'MASTER_PASSWORD_REQUIRED', MSG.MASTER_PASSWORD_REQUIRED);
    }
    for (let i = 0; i < 2; i++) {
      await expectApiError(await login(s, { username, password, masterPassword: `maestra-mal-${i}` }), 401, 'MASTER_PASSWORD_INVALID', MSG.MASTER_PASSWORD_INVALID);
    }
    expect(await failureRows(s, 'admin')).toBe(5);
    await expectLockedOut(await login(s, { username, password, masterPassword }));
  });

  it('does not count a USER_INACTIVE answer as a failure of the password', async () => {
    const viewer = (await s.modules.auth.users.findByUsername('viewer'))!;
    await s.modules.auth.users.update(viewer.id, { status: 'inactive' });
    try {
      for (let i = 0; i < 6; i++) await expectApiError(await login(s, DEMO_PASSWORDS.viewer), 403, 'USER_INACTIVE', MSG.USER_INACTIVE);
    } finally {
      await s.modules.auth.users.update(viewer.id, { status: 'active' });
    }
    expect(await failureRows(s, 'viewer')).toBe(0);
    expect((await login(s, DEMO_PASSWORDS.viewer)).status).toBe(200);
  });

  it('ends the lockout when the failures leave the 15-minute window; Retry-After counts down', async () => {
    await failTimes(s, 'viewer', 5);
    await expectLockedOut(await login(s, DEMO_PASSWORDS.viewer));
    await ageFailures(s, WINDOW_S - 60); // 14 minutes later
    const retryAfter = await expectLockedOut(await login(s, DEMO_PASSWORDS.viewer));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(61);
    await ageFailures(s, 61); // past the window
    expect((await login(s, DEMO_PASSWORDS.viewer)).status).toBe(200);
  });

  it('is per username AND address: failures from another address do not lock this one out', async () => {
    const now = Date.now();
    for (let i = 0; i < 25; i++) await sqlRun(s, 'INSERT INTO login_failures (username, ip, at_ms) VALUES (?, ?, ?)', i < 10 ? 'admin' : `guess${i}`, '10.9.8.7', now - i * 1000);
    const res = await login(s, DEMO_PASSWORDS.admin);
    expect(res.status).toBe(200);
  });

  it('answers concurrent guesses consistently: at most 5 are evaluated in the window', async () => {
    // A burst of parallel guesses must not get more tries than the limit allows.
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => login(s, { username: 'operator', password: `parallel-guess-${i}` })),
    );
    const statuses = results.map((r) => r.status);
    const evaluated = statuses.filter((st) => st === 401).length;
    expect(statuses.every((st) => st === 401 || st === 429), `statuses: ${statuses.join(',')}`).toBe(true);
    expect(evaluated, `statuses: ${statuses.join(',')}`).toBe(5);
    expect(await failureRows(s, 'operator')).toBe(5);
  });

  it('records each failure in the audit trail as auth.login_failed, result denied, with the address', async () => {
    await login(s, { username: 'nadie-audit', password: 'wrong-audit-1' });
    await login(s, { username: 'operator', password: 'wrong-audit-2' });
    await login(s, { username: 'admin', password: 'admin123' }); // master password missing
    const events = await auditEvents(s, 'auth.login_failed', adminCookie);
    const operator = (await s.modules.auth.users.findByUsername('operator'))!;
    const admin = (await s.modules.auth.users.findByUsername('admin'))!;

    const unknown = events.find((e) => e.username === 'nadie-audit');
    expect(unknown).toMatchObject({ action: 'auth.login_failed', result: 'denied', ip: '127.0.0.1', userId: null });
    const wrong = events.find((e) => e.username === 'operator');
    expect(wrong).toMatchObject({ action: 'auth.login_failed', result: 'denied', ip: '127.0.0.1', userId: operator.id });
    const master = events.find((e) => e.username === 'admin' && (e.details as { code?: string } | null)?.code === 'MASTER_PASSWORD_REQUIRED');
    expect(master).toMatchObject({ action: 'auth.login_failed', result: 'denied', ip: '127.0.0.1', userId: admin.id });
    for (const e of events) {
      expect(e.result).toBe('denied');
      expect(JSON.stringify(e)).not.toContain('wrong-audit');
    }
  });
});

describe('lockout per address (LOGIN_MAX_FAILURES_PER_ADDRESS=3)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ LOGIN_MAX_FAILURES_PER_ADDRESS: '3' });
  });
  afterAll(async () => s.close());
  beforeEach(async () => {
    await sqlRun(s, 'DELETE FROM login_failures');
  });

  it('lets other usernames in until the address limit, then refuses every username', async () => {
    await failTimes(s, 'spray1', 1);
    await failTimes(s, 'spray2', 1);
    expect((await login(s, DEMO_PASSWORDS.viewer)).status).toBe(200);
    await failTimes(s, 'spray3', 1);
    const retryAfter = await expectLockedOut(await login(s, DEMO_PASSWORDS.operator));
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
    await expectLockedOut(await login(s, DEMO_PASSWORDS.admin));
    await expectLockedOut(await login(s, { username: 'spray4', password: 'whatever-1' }));
  });

  it('ignores X-Forwarded-For (no trusted proxy): spoofed addresses still count against the real one', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await login(s, { username: `xff${i}`, password: 'wrong-xff' }, { 'x-forwarded-for': `203.0.113.${i + 1}` });
      await expectApiError(res, 401, 'INVALID_CREDENTIALS');
    }
    await expectLockedOut(await login(s, DEMO_PASSWORDS.viewer, { 'x-forwarded-for': '198.51.100.7' }));
  });

  it('a success of one username does not clear the failures of the others', async () => {
    await failTimes(s, 'spray1', 1);
    await failTimes(s, 'spray2', 1);
    expect((await login(s, DEMO_PASSWORDS.viewer)).status).toBe(200);
    expect(await failureRows(s)).toBe(2);
    await failTimes(s, 'spray3', 1);
    await expectLockedOut(await login(s, DEMO_PASSWORDS.viewer));
  });

  it('records the spray in the audit trail', async () => {
    const adminCookie = await loginCookie(s, DEMO_PASSWORDS.admin);
    await failTimes(s, 'spray-audit', 1);
    const events = await auditEvents(s, 'auth.login_failed', adminCookie);
    expect(events[0]).toMatchObject({ username: 'spray-audit', result: 'denied', ip: '127.0.0.1' });
  });
});
