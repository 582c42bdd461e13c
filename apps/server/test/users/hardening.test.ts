// Hardening of user administration and of the audit trail (issue 10): the last admin under
// concurrent requests, concurrent creation of one username, one's own master password, blank
// passwords, and refusals that cannot flood the append-only audit.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@agua/shared';
import { hashPassword } from '../../src/lib/password';
import { DEMO_PASSWORDS, startServer, tempDataDir, type TestServer } from '../helpers/server';
import { ackHttp, auditPage, expectApiError, ISO_Z, issueCommand, issueOk, jsonOf, loginCookie } from '../helpers/api';
import { GATE_1, GATE_2, gateMsg, postTelemetry, sleep, waitFor } from '../helpers/protocol';
import { createUser } from '../auth/auth-helpers';
import { sqlRun, sqlValue } from '../helpers/sql';

const ENV = { LOGIN_MAX_FAILURES_PER_USER: '1000', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' };
const ROUNDS = 6;

const ADMIN2 = { username: 'admin2', password: 'admin2-definitiva', masterPassword: 'maestra-dos-2025' };

const patchUser = (s: TestServer, cookie: string, id: string, body: unknown) =>
  s.fetch(`/api/v1/users/${encodeURIComponent(id)}`, { method: 'PATCH', cookie, json: body });
const deleteUser = (s: TestServer, cookie: string, id: string) => s.fetch(`/api/v1/users/${encodeURIComponent(id)}`, { method: 'DELETE', cookie });
const postUser = (s: TestServer, cookie: string, body: unknown) => s.fetch('/api/v1/users', { method: 'POST', cookie, json: body });

async function listUsers(s: TestServer, cookie: string): Promise<User[]> {
  const res = await s.fetch('/api/v1/users', { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as User[];
}

const activeAdmins = (users: User[]) => users.filter((u) => u.role === 'admin' && u.status === 'active');

/** Straight to storage: puts a user back as an active admin with its master password, between rounds. */
async function restoreAdmin(s: TestServer, username: string, masterPassword: string, password: string): Promise<string> {
  const existing = await s.modules.auth.users.findByUsername(username);
  if (!existing) return createUser(s, { username, password, role: 'admin', masterPassword });
  await s.modules.auth.users.update(existing.id, { role: 'admin', status: 'active', masterPasswordHash: await hashPassword(masterPassword) });
  return existing.id;
}

describe('the last active admin under concurrent requests', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(ENV);
  });
  afterAll(async () => s.close());

  interface SignedInAdmin {
    id: string;
    cookie: string;
    masterPassword: string;
  }

  /** Two active admins (the demo one and admin2), each signed in. */
  async function twoAdmins(): Promise<[SignedInAdmin, SignedInAdmin]> {
    const ids = await Promise.all([
      restoreAdmin(s, 'admin', DEMO_PASSWORDS.admin.masterPassword, DEMO_PASSWORDS.admin.password),
      restoreAdmin(s, ADMIN2.username, ADMIN2.masterPassword, ADMIN2.password),
    ]);
    const cookies = await Promise.all([loginCookie(s, DEMO_PASSWORDS.admin), loginCookie(s, ADMIN2)]);
    return [
      { id: ids[0], cookie: cookies[0], masterPassword: DEMO_PASSWORDS.admin.masterPassword },
      { id: ids[1], cookie: cookies[1], masterPassword: ADMIN2.masterPassword },
    ];
  }

  // Each admin removes itself, so that whichever request ends first, the other one's session
  // still belongs to an active admin and reaches the last-admin rule.
  const deactivateSelf = (a: SignedInAdmin) =>
    patchUser(s, a.cookie, a.id, { status: 'inactive', masterPassword: a.masterPassword, currentMasterPassword: a.masterPassword });
  const demoteSelf = (a: SignedInAdmin) => patchUser(s, a.cookie, a.id, { role: 'operator' });
  const deleteSelf = (a: SignedInAdmin) => deleteUser(s, a.cookie, a.id);

  /**
   * Races two removals ROUNDS times, the second sent 0, 2, 4… ms after the first so that it lands
   * before, inside and after the first one's slow step: each time one succeeds, the other gets
   * 409 LAST_ADMIN, and one active admin is left.
   */
  async function raceRemovals(first: (a: SignedInAdmin) => Promise<Response>, second: (a: SignedInAdmin) => Promise<Response>): Promise<void> {
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = await twoAdmins();
      const results = await Promise.all([first(a), sleep(round * 2).then(() => second(b))]);
      const statuses = results.map((r) => r.status);
      const lost = statuses.indexOf(409);
      expect(lost, `round ${round}: statuses ${statuses.join(',')}`).toBeGreaterThanOrEqual(0);
      expect([200, 204], `round ${round}: statuses ${statuses.join(',')}`).toContain(statuses[1 - lost]);
      await expectApiError(results[lost]!, 409, 'LAST_ADMIN');
      // The loser is the admin left: its session still works and sees itself as the only one.
      const survivor = [a, b][lost]!;
      expect(activeAdmins(await listUsers(s, survivor.cookie)).map((u) => u.id)).toEqual([survivor.id]);
    }
  }

  // A master password in the body is hashed: the slow step that used to sit between the
  // last-admin check and the write, during which the other request got through.
  it('two deactivations at once (master password in the body): one 200, one 409', async () => {
    await raceRemovals(deactivateSelf, deactivateSelf);
  });

  it('a deactivation racing a delete: one succeeds, one 409', async () => {
    await raceRemovals(deactivateSelf, deleteSelf);
  });

  it('a deactivation racing a demotion: one succeeds, one 409', async () => {
    await raceRemovals(deactivateSelf, demoteSelf);
  });

  it('two deletes at once: one 204, one 409', async () => {
    await raceRemovals(deleteSelf, deleteSelf);
  });

  it('two demotions at once: one 200, one 409', async () => {
    await raceRemovals(demoteSelf, demoteSelf);
  });
});

describe('creating the same user twice at once', () => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer(ENV);
    admin = await s.login('admin');
  });
  afterAll(async () => s.close());

  const newUser = (username: string, email: string) => ({ username, name: 'Doble', email, role: 'viewer', password: 'temporal-123' });

  it('same username: 201 and 409 USERNAME_TAKEN, never 500', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const username = `doble${round}`;
      const results = await Promise.all([
        postUser(s, admin, newUser(username, `${username}-a@test.example`)),
        postUser(s, admin, newUser(username, `${username}-b@test.example`)),
      ]);
      expect(results.map((r) => r.status).sort(), `round ${round}`).toEqual([201, 409]);
      await expectApiError(results.find((r) => r.status === 409)!, 409, 'USERNAME_TAKEN');
    }
    const users = await listUsers(s, admin);
    for (let round = 0; round < ROUNDS; round++) expect(users.filter((u) => u.username === `doble${round}`)).toHaveLength(1);
  });

  it('same e-mail: 201 and 409 EMAIL_TAKEN, never 500', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const email = `correo${round}@test.example`;
      const results = await Promise.all([postUser(s, admin, newUser(`correo${round}a`, email)), postUser(s, admin, newUser(`correo${round}b`, email))]);
      expect(results.map((r) => r.status).sort(), `round ${round}`).toEqual([201, 409]);
      await expectApiError(results.find((r) => r.status === 409)!, 409, 'EMAIL_TAKEN');
    }
  });
});

describe("an admin's own master password", () => {
  let s: TestServer;
  let adminId: string;
  const NEW_MASTER = 'maestra-nueva-2025';
  beforeAll(async () => {
    s = await startServer({ LOGIN_MAX_FAILURES_PER_USER: '3', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' });
    adminId = (await s.modules.auth.users.findByUsername('admin'))!.id;
  });
  afterAll(async () => s.close());

  const failureRows = async () => Number(await sqlValue(s, "SELECT COUNT(*) AS n FROM login_failures WHERE username = 'admin'"));

  it('needs the current one: 422 MASTER_PASSWORD_REQUIRED without it, 422 MASTER_PASSWORD_CURRENT_INVALID when wrong (audited, counted)', async () => {
    const admin = await s.login('admin');
    const missing = await expectApiError(await patchUser(s, admin, adminId, { masterPassword: NEW_MASTER }), 422, 'MASTER_PASSWORD_REQUIRED');
    expect(missing.details).toEqual({ field: 'currentMasterPassword' });
    const wrong = await expectApiError(
      await patchUser(s, admin, adminId, { masterPassword: NEW_MASTER, currentMasterPassword: 'no-es-la-maestra' }),
      422,
      'MASTER_PASSWORD_CURRENT_INVALID',
    );
    expect(wrong.details).toEqual({ field: 'currentMasterPassword' });
    expect(await failureRows()).toBe(1);
    const denied = (await auditPage(s, admin, { action: 'user.updated' })).find((e) => e.result === 'denied');
    expect(denied).toMatchObject({ userId: adminId, target: `user:${adminId}`, details: { code: 'MASTER_PASSWORD_CURRENT_INVALID' } });
    // Nothing changed: the old master password still signs in (which also clears the failure).
    await loginCookie(s, DEMO_PASSWORDS.admin);
  });

  it('with the right current one: 200, the other sessions end, this one stays; only the new one signs in', async () => {
    const [admin, other] = await Promise.all([s.login('admin'), s.login('admin')]);
    const res = await patchUser(s, admin, adminId, { masterPassword: NEW_MASTER, currentMasterPassword: DEMO_PASSWORDS.admin.masterPassword });
    expect(res.status).toBe(200);
    expect((await s.fetch('/api/v1/auth/me', { cookie: admin })).status).toBe(200);
    await expectApiError(await s.fetch('/api/v1/auth/me', { cookie: other }), 401);
    await expectApiError(await s.fetch('/api/v1/auth/login', { method: 'POST', json: DEMO_PASSWORDS.admin }), 401, 'MASTER_PASSWORD_INVALID');
    await loginCookie(s, { ...DEMO_PASSWORDS.admin, masterPassword: NEW_MASTER });
    // Back to the demo one for the next test.
    const back = await patchUser(s, admin, adminId, { masterPassword: DEMO_PASSWORDS.admin.masterPassword, currentMasterPassword: NEW_MASTER });
    expect(back.status).toBe(200);
  });

  it('wrong current ones lock out like sign-in failures: 429 with Retry-After, even for the right one, and sign-in too', async () => {
    const admin = await s.login('admin');
    for (let i = 0; i < 3; i++) {
      await expectApiError(
        await patchUser(s, admin, adminId, { masterPassword: NEW_MASTER, currentMasterPassword: `adivinanza-${i}-x` }),
        422,
        'MASTER_PASSWORD_CURRENT_INVALID',
      );
    }
    const locked = await patchUser(s, admin, adminId, { masterPassword: NEW_MASTER, currentMasterPassword: DEMO_PASSWORDS.admin.masterPassword });
    expect(locked.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    await expectApiError(locked, 429, 'TOO_MANY_ATTEMPTS');
    await expectApiError(await s.fetch('/api/v1/auth/login', { method: 'POST', json: DEMO_PASSWORDS.admin }), 429, 'TOO_MANY_ATTEMPTS');
    await sqlRun(s, 'DELETE FROM login_failures');
  });

  it("setting another admin's master password needs no current one (docs/api.md), and leaves one's own sessions alone", async () => {
    const admin = await s.login('admin');
    const otherId = await createUser(s, { username: 'admin3', password: 'admin3-definitiva', role: 'admin', masterPassword: 'maestra-tres-2025' });
    expect((await patchUser(s, admin, otherId, { masterPassword: 'maestra-tres-nueva' })).status).toBe(200);
    await loginCookie(s, { username: 'admin3', password: 'admin3-definitiva', masterPassword: 'maestra-tres-nueva' });
    expect((await s.fetch('/api/v1/auth/me', { cookie: admin })).status).toBe(200);
  });
});

describe('passwords made only of whitespace', () => {
  let s: TestServer;
  let admin: string;
  let viewerId: string;
  beforeAll(async () => {
    s = await startServer(ENV);
    admin = await s.login('admin');
    viewerId = (await s.modules.auth.users.findByUsername('viewer'))!.id;
  });
  afterAll(async () => s.close());

  const BLANKS = [' '.repeat(10), '\t'.repeat(12), ' \u00a0\u3000 '.repeat(3)];

  async function expectBlank(res: Response, field: string): Promise<void> {
    const body = await expectApiError(res, 422, 'PASSWORD_BLANK');
    expect(body.details).toEqual({ field });
  }

  it.each(BLANKS.map((b) => [JSON.stringify(b), b]))('%s is refused with 422 wherever a password is set', async (_name, blank) => {
    const base = { username: 'espacios', name: 'Espacios', email: 'espacios@test.example', role: 'viewer' };
    await expectBlank(await postUser(s, admin, { ...base, password: blank }), 'password');
    await expectBlank(await postUser(s, admin, { ...base, role: 'admin', password: 'temporal-123', masterPassword: blank }), 'masterPassword');
    await expectBlank(await s.fetch(`/api/v1/users/${viewerId}/password`, { method: 'POST', cookie: admin, json: { password: blank } }), 'password');
    const self = (await s.modules.auth.users.findByUsername('admin'))!.id;
    await expectBlank(
      await patchUser(s, admin, self, { masterPassword: blank, currentMasterPassword: DEMO_PASSWORDS.admin.masterPassword }),
      'masterPassword',
    );
    await expectBlank(await patchUser(s, admin, viewerId, { role: 'admin', masterPassword: blank }), 'masterPassword');
    const viewer = await s.login('viewer');
    await expectBlank(
      await s.fetch('/api/v1/auth/password', { method: 'POST', cookie: viewer, json: { currentPassword: DEMO_PASSWORDS.viewer.password, newPassword: blank } }),
      'newPassword',
    );
    expect((await listUsers(s, admin)).map((u) => u.username)).not.toContain('espacios');
    await loginCookie(s, DEMO_PASSWORDS.viewer);
  });
});

describe('refusals cannot flood the append-only audit trail (AUDIT_COLLAPSE_WINDOW_MS=2500)', () => {
  const WINDOW_MS = 2500;
  let s: TestServer;
  let admin: string;
  let viewer: string;
  let operator: string;
  beforeAll(async () => {
    s = await startServer({ AUDIT_COLLAPSE_WINDOW_MS: String(WINDOW_MS), DEVICE_RATE_LIMIT: '0' });
    [admin, viewer, operator] = await Promise.all([s.login('admin'), s.login('viewer'), s.login('operator')]);
  });
  afterAll(async () => s.close());

  /** Sends n requests, 50 at a time (one address may hold only so many connections). */
  async function burst(n: number, send: (i: number) => Promise<Response>): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i += 50) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, j) => send(i + j)));
      statuses.push(...batch.map((r) => r.status));
      await Promise.all(batch.map((r) => r.arrayBuffer()));
    }
    return statuses;
  }

  /** Events an action wrote for one username, and the number of refusals they account for. */
  async function trailOf(action: string, username: string) {
    const events = (await auditPage(s, admin, { action })).filter((e) => e.username === username);
    // A summary stands for its `repeated` refusals, any other row for itself.
    const accounted = events.reduce((n, e) => n + (typeof e.details?.repeated === 'number' ? e.details.repeated : 1), 0);
    return { events, summaries: events.filter((e) => e.details?.repeated !== undefined), accounted };
  }

  /** The trail once its summaries account for all `total` refusals (the window has closed). */
  async function settledTrail(action: string, username: string, total: number) {
    let trail = await trailOf(action, username);
    await waitFor(async () => (trail = await trailOf(action, username)).accounted === total, WINDOW_MS * 3);
    return trail;
  }

  it('300 identical refused commands: one row at once, then one summary with repeated = the rest', async () => {
    const statuses = await burst(300, () => issueCommand(s, viewer, GATE_1, 'abrir'));
    expect(statuses.every((st) => st === 403)).toBe(true);
    const during = await trailOf('command.refused', 'viewer');
    expect(during.events.length).toBeLessThanOrEqual(3);

    const after = await settledTrail('command.refused', 'viewer', 300);
    expect(after.events.length).toBeLessThanOrEqual(5);
    const summary = after.summaries[0]!;
    expect(summary).toMatchObject({ action: 'command.refused', result: 'denied', target: `device:${GATE_1}`, details: { code: 'FORBIDDEN', command: 'abrir' } });
    expect(summary.details!.firstAt).toMatch(ISO_Z);
    expect(summary.details!.lastAt).toMatch(ISO_Z);
    expect(Date.parse(summary.details!.lastAt as string)).toBeGreaterThanOrEqual(Date.parse(summary.details!.firstAt as string));
  });

  it('past 120 refusals of one actor in a window, different refusals are only counted, and summed up per action', async () => {
    const statuses = await burst(200, (i) => issueCommand(s, operator, `no_such_device_${i}`, 'abrir'));
    expect(statuses.every((st) => st === 404)).toBe(true);
    const during = await trailOf('command.refused', 'operator');
    expect(during.events.length).toBeLessThanOrEqual(120);

    const after = await settledTrail('command.refused', 'operator', 200);
    const over = after.summaries.find((e) => e.details?.overBudget === true);
    expect(over).toMatchObject({ action: 'command.refused', userId: (await s.modules.auth.users.findByUsername('operator'))!.id, details: { code: 'DEVICE_NOT_FOUND' } });
    expect(after.events.length).toBeLessThanOrEqual(121);
  });

  it('successful events are never collapsed: every sign-in is a row', async () => {
    const before = (await auditPage(s, admin, { action: 'auth.login' })).length;
    for (let i = 0; i < 5; i++) await s.login('viewer');
    expect((await auditPage(s, admin, { action: 'auth.login' })).length).toBe(before + 5);
  });

  it('repeated failed sign-ins: one row and a summary with the count, while the lockout still counts each one', async () => {
    for (let i = 0; i < 5; i++) await expectApiError(await s.fetch('/api/v1/auth/login', { method: 'POST', json: { username: 'nadie', password: 'clave-equivocada' } }), 401, 'INVALID_CREDENTIALS');
    await expectApiError(await s.fetch('/api/v1/auth/login', { method: 'POST', json: { username: 'nadie', password: 'clave-equivocada' } }), 429, 'TOO_MANY_ATTEMPTS');
    expect((await trailOf('auth.login_failed', 'nadie')).events).toHaveLength(1);
    const after = await settledTrail('auth.login_failed', 'nadie', 5);
    expect(after.summaries[0]).toMatchObject({ result: 'denied', ip: '127.0.0.1', details: { code: 'INVALID_CREDENTIALS', repeated: 4 } });
  });

  it('late acknowledgements of a finished command write no audit row', async () => {
    const heard = await postTelemetry(s, gateMsg(GATE_2, 'cerrada'));
    expect(heard.status).toBe(202);
    const commandId = await issueOk(s, operator, GATE_2, 'abrir');
    expect(await jsonOf(await ackHttp(s, GATE_2, commandId, { success: true, state: 'abriendo' }))).toEqual({ status: 200, body: { status: 'succeeded' } });
    for (let i = 0; i < 20; i++) {
      expect(await jsonOf(await ackHttp(s, GATE_2, commandId, { success: i % 2 === 0, state: 'abierta' }))).toEqual({ status: 200, body: { status: 'succeeded' } });
    }
    const completed = (await auditPage(s, admin, { action: 'command.completed' })).filter((e) => e.details?.commandId === commandId);
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ result: 'ok', details: { status: 'succeeded' } });
  });
});

describe('summaries still open at shutdown are written', () => {
  it('closes with the count of the repeats in the trail (default 60 s window)', async () => {
    const dataDir = tempDataDir();
    try {
      let s = await startServer({}, { dataDir });
      const viewer = await s.login('viewer');
      for (let i = 0; i < 5; i++) await expectApiError(await issueCommand(s, viewer, GATE_1, 'cerrar'), 403);
      expect((await auditPage(s, await s.login('admin'), { action: 'command.refused' })).length).toBe(1);
      await s.close();

      s = await startServer({}, { dataDir });
      const refused = await auditPage(s, await s.login('admin'), { action: 'command.refused' });
      await s.close();
      expect(refused).toHaveLength(2);
      expect(refused[0]).toMatchObject({ username: 'viewer', details: { command: 'cerrar', code: 'FORBIDDEN', repeated: 4 } });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
