// docs/security.md "Two-factor sign-in": TOTP codes computed here as an authenticator app would
// (RFC 6238 via otpauth), enrolment with its recovery codes, sign-in step 5, codes that never count
// twice, wrong codes counted toward the lockout, turning it off, an administrator's reset, and the
// role requirement that gates a new session until it enrols.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { ERROR_MESSAGES } from '@agua/shared';
import { sessionCookieOf, startServer, type TestServer } from '../helpers/server';
import { auditPage, expectApiError, jsonOf, login } from '../helpers/api';
import { openLive } from '../helpers/protocol';
import { createUser } from './auth-helpers';

const PASSWORD = 'clave-segura-2fa';

/** The code an authenticator app shows `steps` time steps from now. */
function codeAt(secret: string, steps = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + steps * 30_000 });
}

describe('two-factor sign-in', () => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer({ LOGIN_MAX_FAILURES_PER_USER: '4' });
    admin = await s.login('admin');
  });
  afterAll(async () => s.close());

  const post = (path: string, cookie: string, json?: unknown, method = 'POST') => s.fetch(path, { method, cookie, headers: { origin: s.url }, ...(json === undefined ? {} : { json }) });

  /** A new user signed in, with TOTP turned on; returns its cookie, secret and recovery codes. */
  async function enrolled(username: string, role: 'operator' | 'viewer' = 'operator') {
    const id = await createUser(s, { username, password: PASSWORD, role });
    const res = await login(s, { username, password: PASSWORD });
    expect(res.status).toBe(200);
    const cookie = sessionCookieOf(res);
    const setup = await jsonOf<{ secret: string; otpauthUrl: string }>(await post('/api/v1/auth/totp/setup', cookie));
    expect(setup.status).toBe(200);
    const enabled = await jsonOf<{ recoveryCodes: string[] }>(await post('/api/v1/auth/totp/enable', cookie, { code: codeAt(setup.body.secret) }));
    expect(enabled.status).toBe(200);
    return { id, cookie, secret: setup.body.secret, recoveryCodes: enabled.body.recoveryCodes };
  }

  it('setup answers a base32 secret and the documented otpauth URL; a second setup replaces it; enable needs a right code and answers ten recovery codes once', async () => {
    await createUser(s, { username: 'tf-setup', password: PASSWORD, role: 'viewer' });
    const cookie = sessionCookieOf(await login(s, { username: 'tf-setup', password: PASSWORD }));
    const first = await jsonOf<{ secret: string; otpauthUrl: string }>(await post('/api/v1/auth/totp/setup', cookie));
    expect(first.status).toBe(200);
    expect(first.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(first.body.otpauthUrl).toBe(`otpauth://totp/Agua:tf-setup?secret=${first.body.secret}&issuer=Agua&algorithm=SHA1&digits=6&period=30`);
    const second = await jsonOf<{ secret: string }>(await post('/api/v1/auth/totp/setup', cookie));
    expect(second.body.secret).not.toBe(first.body.secret);
    // The replaced secret's code no longer enables.
    await expectApiError(await post('/api/v1/auth/totp/enable', cookie, { code: codeAt(first.body.secret) }), 422, 'TOTP_INVALID');
    const enabled = await jsonOf<{ recoveryCodes: string[] }>(await post('/api/v1/auth/totp/enable', cookie, { code: codeAt(second.body.secret) }));
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    for (const c of enabled.body.recoveryCodes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(new Set(enabled.body.recoveryCodes).size).toBe(10);
    await expectApiError(await post('/api/v1/auth/totp/setup', cookie), 409, 'TOTP_ALREADY_ENABLED');
    await expectApiError(await post('/api/v1/auth/totp/enable', cookie, { code: codeAt(second.body.secret, 1) }), 409, 'TOTP_ALREADY_ENABLED');
    const me = await jsonOf<{ totpEnabled: boolean; mustEnrolTotp: boolean }>(await s.fetch('/api/v1/auth/me', { cookie }));
    expect(me.body).toMatchObject({ totpEnabled: true, mustEnrolTotp: false });
    const trail = await auditPage(s, admin, { action: 'auth.totp_enabled' });
    expect(trail.some((e) => e.username === 'tf-setup' && e.result === 'ok')).toBe(true);
    expect(trail.some((e) => e.username === 'tf-setup' && e.result === 'denied')).toBe(true);
    // No secret and no code anywhere in the trail.
    const everything = JSON.stringify(await auditPage(s, admin));
    expect(everything).not.toContain(second.body.secret);
    for (const c of enabled.body.recoveryCodes) expect(everything).not.toContain(c);
  });

  it('enable without a setup is 409 TOTP_NOT_SET_UP', async () => {
    await createUser(s, { username: 'tf-nosetup', password: PASSWORD });
    const cookie = sessionCookieOf(await login(s, { username: 'tf-nosetup', password: PASSWORD }));
    await expectApiError(await post('/api/v1/auth/totp/enable', cookie, { code: '123456' }), 409, 'TOTP_NOT_SET_UP');
  });

  it('sign-in asks for the code, refuses a wrong one and a reused one, and takes a recovery code exactly once', async () => {
    const { secret, recoveryCodes } = await enrolled('tf-login');
    const base = { username: 'tf-login', password: PASSWORD };
    await expectApiError(await login(s, base), 401, 'TOTP_REQUIRED', ERROR_MESSAGES.TOTP_REQUIRED);
    const wrong = codeAt(secret, 1) === '000000' ? '111111' : '000000';
    await expectApiError(await login(s, { ...base, totpCode: wrong }), 401, 'TOTP_INVALID', ERROR_MESSAGES.TOTP_INVALID);
    // The code of enabling was this step's: the next step's (an app's clock a little ahead) signs in.
    const next = codeAt(secret, 1);
    const ok = await login(s, { ...base, totpCode: next });
    expect(ok.status).toBe(200);
    const user = (await ok.json()) as { totpEnabled: boolean };
    expect(user.totpEnabled).toBe(true);
    // The same code again, and the older step's, never count twice.
    await expectApiError(await login(s, { ...base, totpCode: next }), 401, 'TOTP_INVALID');
    await expectApiError(await login(s, { ...base, totpCode: codeAt(secret, 0) }), 401, 'TOTP_INVALID');
    // A recovery code: case, spaces and hyphens do not matter; once only.
    const recovery = recoveryCodes[3]!;
    const typed = ` ${recovery.toUpperCase().replace('-', ' - ')} `;
    expect((await login(s, { ...base, recoveryCode: typed })).status).toBe(200);
    await expectApiError(await login(s, { ...base, recoveryCode: recovery }), 401, 'TOTP_INVALID');
    expect((await login(s, { ...base, recoveryCode: recoveryCodes[4]! })).status).toBe(200);
    const used = await auditPage(s, admin, { action: 'auth.recovery_code_used' });
    expect(used.filter((e) => e.username === 'tf-login')).toHaveLength(2);
    const failed = (await auditPage(s, admin, { action: 'auth.login_failed' })).filter((e) => e.username === 'tf-login');
    expect(failed.map((e) => (e.details as { code: string }).code)).toEqual(expect.arrayContaining(['TOTP_REQUIRED', 'TOTP_INVALID']));
  });

  it('the same code sent twice at once signs in once', async () => {
    const { secret } = await enrolled('tf-race');
    const code = codeAt(secret, 1);
    const results = await Promise.all([0, 1, 2].map(() => login(s, { username: 'tf-race', password: PASSWORD, totpCode: code })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });

  it('wrong codes count toward the lockout: then even the right one gets 429 with Retry-After', async () => {
    const { secret } = await enrolled('tf-lock');
    for (let i = 0; i < 4; i++) await expectApiError(await login(s, { username: 'tf-lock', password: PASSWORD, totpCode: '99999' + i }), 401, 'TOTP_INVALID');
    const locked = await login(s, { username: 'tf-lock', password: PASSWORD, totpCode: codeAt(secret, 1) });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('turning it off needs the password and a code (422 REAUTH_FAILED, counted); then sign-in needs no code', async () => {
    const { cookie, secret } = await enrolled('tf-off');
    await expectApiError(await post('/api/v1/auth/totp', cookie, { password: 'no-es-esta', code: codeAt(secret, 1) }, 'DELETE'), 422, 'REAUTH_FAILED');
    await expectApiError(await post('/api/v1/auth/totp', cookie, { password: PASSWORD, code: '000001' }, 'DELETE'), 422, 'REAUTH_FAILED');
    expect((await post('/api/v1/auth/totp', cookie, { password: PASSWORD, code: codeAt(secret, 1) }, 'DELETE')).status).toBe(204);
    await expectApiError(await post('/api/v1/auth/totp', cookie, { password: PASSWORD, code: codeAt(secret, 1) }, 'DELETE'), 409, 'TOTP_NOT_ENABLED');
    const res = await login(s, { username: 'tf-off', password: PASSWORD });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { totpEnabled: boolean }).totpEnabled).toBe(false);
    // Repeated identical refusals are gathered into one row (docs/security.md "Audit"): one or more.
    const trail = (await auditPage(s, admin, { action: 'auth.totp_disabled' })).filter((e) => e.username === 'tf-off');
    expect(new Set(trail.map((e) => e.result))).toEqual(new Set(['denied', 'ok']));
  });

  it('wrong passwords or codes when turning it off count toward the lockout', async () => {
    const { cookie, secret } = await enrolled('tf-off-count');
    for (let i = 0; i < 4; i++) await expectApiError(await post('/api/v1/auth/totp', cookie, { password: `mal-${i}`, code: codeAt(secret, 1) }, 'DELETE'), 422, 'REAUTH_FAILED');
    const locked = await post('/api/v1/auth/totp', cookie, { password: PASSWORD, code: codeAt(secret, 1) }, 'DELETE');
    expect(locked.status).toBe(429);
    expect((await jsonOf<{ totpEnabled: boolean }>(await s.fetch('/api/v1/auth/me', { cookie }))).body.totpEnabled).toBe(true);
  });

  it('an administrator resets a lost phone: the user’s sessions end, sign-in needs no code; others may not', async () => {
    const { id, cookie } = await enrolled('tf-lost');
    const operator = await s.login('operator');
    await expectApiError(await post(`/api/v1/users/${id}/totp`, operator, undefined, 'DELETE'), 403);
    await expectApiError(await post('/api/v1/users/usr_nobody/totp', admin, undefined, 'DELETE'), 404, 'USER_NOT_FOUND');
    expect((await post(`/api/v1/users/${id}/totp`, admin, undefined, 'DELETE')).status).toBe(204);
    expect((await s.fetch('/api/v1/auth/me', { cookie })).status).toBe(401);
    expect((await login(s, { username: 'tf-lost', password: PASSWORD })).status).toBe(200);
    const reset = await auditPage(s, admin, { action: 'user.totp_reset' });
    expect(reset.some((e) => e.target === `user:${id}` && e.username === 'admin')).toBe(true);
    const users = await jsonOf<Array<{ id: string; totpEnabled: boolean }>>(await s.fetch('/api/v1/users', { cookie: admin }));
    expect(users.body.find((u) => u.id === id)?.totpEnabled).toBe(false);
  });

  describe('required per role', () => {
    afterAll(async () => {
      await post('/api/v1/settings', admin, { totpRequiredRoles: [] }, 'PATCH');
    });

    it('settings: read and changed by user administrators only, validated, audited', async () => {
      const viewer = await s.login('viewer');
      await expectApiError(await s.fetch('/api/v1/settings', { cookie: viewer }), 403);
      await expectApiError(await post('/api/v1/settings', viewer, { totpRequiredRoles: ['viewer'] }, 'PATCH'), 403);
      await expectApiError(await post('/api/v1/settings', admin, { totpRequiredRoles: ['jefe'] }, 'PATCH'), 400);
      await expectApiError(await post('/api/v1/settings', admin, { totpRequiredRoles: ['viewer', 'viewer'] }, 'PATCH'), 400);
      expect((await jsonOf(await s.fetch('/api/v1/settings', { cookie: admin }))).body).toEqual({ totpRequiredRoles: [] });
    });

    it('a new sign-in of that role must enrol first (older sessions go on); enabling frees the same session; it cannot be turned off', async () => {
      await createUser(s, { username: 'tf-gated', password: PASSWORD, role: 'operator' });
      const older = sessionCookieOf(await login(s, { username: 'tf-gated', password: PASSWORD }));
      const changed = await jsonOf(await post('/api/v1/settings', admin, { totpRequiredRoles: ['operator'] }, 'PATCH'));
      expect(changed).toEqual({ status: 200, body: { totpRequiredRoles: ['operator'] } });
      const audit = await auditPage(s, admin, { action: 'settings.updated' });
      expect(audit[0]?.details).toMatchObject({ before: { totpRequiredRoles: [] }, after: { totpRequiredRoles: ['operator'] } });

      const res = await login(s, { username: 'tf-gated', password: PASSWORD });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { mustEnrolTotp: boolean }).mustEnrolTotp).toBe(true);
      const gated = sessionCookieOf(res);
      await expectApiError(await s.fetch('/api/v1/devices', { cookie: gated }), 403, 'TOTP_ENROLMENT_REQUIRED', ERROR_MESSAGES.TOTP_ENROLMENT_REQUIRED);
      await expectApiError(await s.fetch('/api/v1/auth/sessions', { cookie: gated }), 403, 'TOTP_ENROLMENT_REQUIRED');
      expect((await s.fetch('/api/v1/auth/me', { cookie: gated })).status).toBe(200);
      const live = await openLive(s, { cookie: gated, origin: s.url });
      expect(live.status).toBe(403);
      // The session from before the requirement goes on.
      expect((await s.fetch('/api/v1/auth/sessions', { cookie: older })).status).toBe(200);

      const setup = await jsonOf<{ secret: string }>(await post('/api/v1/auth/totp/setup', gated));
      expect((await post('/api/v1/auth/totp/enable', gated, { code: codeAt(setup.body.secret) })).status).toBe(200);
      expect((await s.fetch('/api/v1/auth/sessions', { cookie: gated })).status).toBe(200);
      await expectApiError(await post('/api/v1/auth/totp', gated, { password: PASSWORD, code: codeAt(setup.body.secret, 1) }, 'DELETE'), 409, 'TOTP_REQUIRED_BY_ROLE');
      const me = await jsonOf<{ mustEnrolTotp: boolean; totpEnabled: boolean }>(await s.fetch('/api/v1/auth/me', { cookie: gated }));
      expect(me.body).toMatchObject({ mustEnrolTotp: false, totpEnabled: true });
    });

    it('a gated session is freed when the requirement is lifted', async () => {
      await post('/api/v1/settings', admin, { totpRequiredRoles: ['viewer'] }, 'PATCH');
      await createUser(s, { username: 'tf-lifted', password: PASSWORD, role: 'viewer' });
      const gated = sessionCookieOf(await login(s, { username: 'tf-lifted', password: PASSWORD }));
      await expectApiError(await s.fetch('/api/v1/devices', { cookie: gated }), 403, 'TOTP_ENROLMENT_REQUIRED');
      await post('/api/v1/settings', admin, { totpRequiredRoles: [] }, 'PATCH');
      expect((await s.fetch('/api/v1/auth/sessions', { cookie: gated })).status).toBe(200);
    });
  });
});
