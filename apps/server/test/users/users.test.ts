// docs/api.md user administration (role admin): create with a temporary password, the first sign-in's
// forced change, the rules (unique, policy, master password, last admin), sessions and live sockets
// that end at once, and the audit trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_MAX_LENGTH, type User } from '@agua/shared';
import { sessionCookieOf, startServer, type TestServer } from '../helpers/server';
import { GATE_2, gateMsg, openLive, postTelemetry } from '../helpers/protocol';
import { ackHttp, auditPage, expectApiError, getCommand, issueCommand, issueOk, jsonOf, login, loginCookie } from '../helpers/api';


const USER_KEYS = ['email', 'id', 'lastLogin', 'mustChangePassword', 'mustEnrolTotp', 'name', 'permissions', 'role', 'status', 'totpEnabled', 'username'];
const PERMISSIONS = { admin: ['delete', 'manage_devices', 'manage_users', 'read', 'write'], operator: ['read', 'write'], viewer: ['read'] };
const MSG_CHANGE = 'Debe cambiar su contraseña antes de continuar.';
const ENV = { DEVICE_RATE_LIMIT: '0', LOGIN_MAX_FAILURES_PER_USER: '1000', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' };

const postUser = (s: TestServer, cookie: string, body: unknown) => s.fetch('/api/v1/users', { method: 'POST', cookie, json: body });
const patchUser = (s: TestServer, cookie: string, id: string, body: unknown) =>
  s.fetch(`/api/v1/users/${encodeURIComponent(id)}`, { method: 'PATCH', cookie, json: body });
const deleteUser = (s: TestServer, cookie: string, id: string) => s.fetch(`/api/v1/users/${encodeURIComponent(id)}`, { method: 'DELETE', cookie });
const resetPassword = (s: TestServer, cookie: string, id: string, body: unknown) =>
  s.fetch(`/api/v1/users/${encodeURIComponent(id)}/password`, { method: 'POST', cookie, json: body });
const changeOwn = (s: TestServer, cookie: string, currentPassword: string, newPassword: string) =>
  s.fetch('/api/v1/auth/password', { method: 'POST', cookie, json: { currentPassword, newPassword } });
const me = (s: TestServer, cookie: string) => s.fetch('/api/v1/auth/me', { cookie });

async function createUser(
  s: TestServer,
  admin: string,
  u: { username: string; role?: User['role']; password?: string; masterPassword?: string; email?: string; name?: string },
): Promise<User> {
  const res = await postUser(s, admin, {
    username: u.username,
    name: u.name ?? `Usuario ${u.username}`,
    email: u.email ?? `${u.username}@test.example`,
    role: u.role ?? 'viewer',
    password: u.password ?? 'temporal-123',
    ...(u.masterPassword ? { masterPassword: u.masterPassword } : {}),
  });
  const { status, body } = await jsonOf<User>(res);
  if (status !== 201) throw new Error(`POST /api/v1/users ${u.username}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** Creates a user, signs in with the temporary password and changes it; returns a usable session. */
async function activeUser(s: TestServer, admin: string, username: string, role: User['role'] = 'viewer') {
  const user = await createUser(s, admin, { username, role });
  const temp = await loginCookie(s, { username, password: 'temporal-123' });
  const password = `${username}-definitiva`;
  const res = await changeOwn(s, temp, 'temporal-123', password);
  if (res.status !== 200) throw new Error(`password change for ${username}: ${res.status} ${await res.text()}`);
  return { user, cookie: temp, password };
}

async function listUsers(s: TestServer, admin: string): Promise<User[]> {
  const res = await s.fetch('/api/v1/users', { cookie: admin });
  expect(res.status).toBe(200);
  return (await res.json()) as User[];
}

describe('users (admin)', () => {
  let s: TestServer;
  let admin: string;
  let operator: string;
  let viewer: string;
  beforeAll(async () => {
    s = await startServer(ENV);
    [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
  });
  afterAll(async () => s.close());

  it('create → 201 User with mustChangePassword; the new user must change the password, then reaches devices and commands', async () => {
    const res = await postUser(s, admin, { username: 'carla', name: 'Carla Ruiz', email: 'carla.ruiz@aguas.example', role: 'operator', password: 'temporal-123' });
    const { status, body: user } = await jsonOf<User>(res);
    expect(status).toBe(201);
    expect(Object.keys(user).sort()).toEqual(USER_KEYS);
    expect(user).toMatchObject({ username: 'carla', name: 'Carla Ruiz', email: 'carla.ruiz@aguas.example', role: 'operator', status: 'active', lastLogin: null, mustChangePassword: true });
    expect([...user.permissions].sort()).toEqual(PERMISSIONS.operator);
    expect((await listUsers(s, admin)).find((u) => u.id === user.id)).toMatchObject({ username: 'carla', mustChangePassword: true });

    const signIn = await login(s, { username: 'carla', password: 'temporal-123' });
    expect(signIn.status).toBe(200);
    expect(((await signIn.json()) as User).mustChangePassword).toBe(true);
    const cookie = sessionCookieOf(signIn);

    const blocked = await expectApiError(await s.fetch('/api/v1/devices', { cookie }), 403, 'PASSWORD_CHANGE_REQUIRED');
    expect(blocked.error).toBe(MSG_CHANGE);
    await expectApiError(await issueCommand(s, cookie, GATE_2, 'abrir'), 403, 'PASSWORD_CHANGE_REQUIRED');
    expect((await me(s, cookie)).status).toBe(200);
    const live = await openLive(s, { cookie });
    expect(live.status).toBe(403);

    await expectApiError(await changeOwn(s, cookie, 'equivocada-1', 'nueva-clave-carla'), 422);
    await expectApiError(await changeOwn(s, cookie, 'temporal-123', 'corta'), 422);
    await expectApiError(await changeOwn(s, cookie, 'temporal-123', 'carla'), 422);
    const changed = await jsonOf<User>(await changeOwn(s, cookie, 'temporal-123', 'nueva-clave-carla'));
    expect(changed.status).toBe(200);
    expect(changed.body.mustChangePassword).toBe(false);

    expect((await s.fetch('/api/v1/devices', { cookie })).status).toBe(200);
    expect((await postTelemetry(s, gateMsg(GATE_2, 'cerrada'))).status).toBe(202); // the gate comes online
    const commandId = await issueOk(s, cookie, GATE_2, 'abrir');
    expect((await getCommand(s, cookie, commandId)).issuedBy).toMatchObject({ id: user.id, username: 'carla', name: 'Carla Ruiz' });
    expect((await ackHttp(s, GATE_2, commandId, { success: true, state: 'abriendo' })).status).toBe(200);

    await expectApiError(await login(s, { username: 'carla', password: 'temporal-123' }), 401, 'INVALID_CREDENTIALS');
    const again = await jsonOf<User>(await login(s, { username: 'carla', password: 'nueva-clave-carla' }));
    expect(again.status).toBe(200);
    expect(again.body.mustChangePassword).toBe(false);
    expect(again.body.lastLogin).not.toBeNull();

    const created = (await auditPage(s, admin, { action: 'user.created' })).find((e) => e.target === `user:${user.id}`);
    expect(created).toMatchObject({ result: 'ok', username: 'admin' });
    const pwChanged = (await auditPage(s, admin, { action: 'user.password_changed' })).filter((e) => e.target === `user:${user.id}`);
    expect(pwChanged.map((e) => e.result)).toContain('ok');
    expect(pwChanged.find((e) => e.result === 'ok')).toMatchObject({ userId: user.id, username: 'carla' });
    const trail = JSON.stringify(await auditPage(s, admin));
    expect(trail).not.toContain('temporal-123');
    expect(trail).not.toContain('nueva-clave-carla');
  });

  it('one password length for every route: the longest password can be set by an admin, changed to, and signed in with; one more is refused', async () => {
    const longest = 'p'.repeat(PASSWORD_MAX_LENGTH - 4) + '-123';
    const tooLong = longest + 'x';
    await expectApiError(await postUser(s, admin, { username: 'clave_larga_mal', name: 'N', email: 'clm@test.example', role: 'viewer', password: tooLong }), 400);
    const user = await createUser(s, admin, { username: 'clave_larga', email: 'cl@test.example' });
    expect((await resetPassword(s, admin, user.id, { password: longest })).status).toBe(200);
    await expectApiError(await resetPassword(s, admin, user.id, { password: tooLong }), 400);
    const temp = await loginCookie(s, { username: 'clave_larga', password: longest });
    await expectApiError(await changeOwn(s, temp, longest, tooLong), 400);
    const other = 'q'.repeat(PASSWORD_MAX_LENGTH - 4) + '-456';
    expect((await changeOwn(s, temp, longest, other)).status).toBe(200);
    expect((await login(s, { username: 'clave_larga', password: other })).status).toBe(200);
    await expectApiError(await login(s, { username: 'clave_larga', password: other + 'x' }), 400);
  });

  it('rules: duplicate username (any case) or e-mail 409; invalid e-mail 400; password policy 422; admin without master password 422', async () => {
    await createUser(s, admin, { username: 'dup_user', email: 'dup.user@test.example' });
    const ok = { name: 'N', role: 'viewer', password: 'temporal-123' };
    await expectApiError(await postUser(s, admin, { ...ok, username: 'dup_user', email: 'otro1@test.example' }), 409);
    await expectApiError(await postUser(s, admin, { ...ok, username: 'DUP_User', email: 'otro2@test.example' }), 409);
    await expectApiError(await postUser(s, admin, { ...ok, username: 'Operator', email: 'otro3@test.example' }), 409); // a demo account
    await expectApiError(await postUser(s, admin, { ...ok, username: 'dup_user2', email: 'dup.user@test.example' }), 409);
    await expectApiError(await postUser(s, admin, { ...ok, username: 'dup_user3', email: 'Dup.User@Test.Example' }), 409);
    await expectApiError(await postUser(s, admin, { ...ok, username: 'dup_user4', email: 'juan.perez@aguas.example' }), 409);

    for (const email of ['sin-arroba', 'a@b', 'a b@c.de', '@c.de', '']) {
      const r = await postUser(s, admin, { ...ok, username: 'mail_mal', email });
      expect({ email, status: r.status }).toEqual({ email, status: 400 });
    }
    await expectApiError(await postUser(s, admin, { ...ok, username: 'clave_corta', email: 'cc@test.example', password: 'corta-123' }), 422); // 9 characters
    await expectApiError(await postUser(s, admin, { ...ok, username: 'igualusuario', email: 'iu@test.example', password: 'igualusuario' }), 422);
    await expectApiError(await postUser(s, admin, { ...ok, username: 'igualusuario', email: 'iu@test.example', password: 'IgualUsuario' }), 422);
    await expectApiError(await postUser(s, admin, { ...ok, username: 'nuevo_admin', email: 'na@test.example', role: 'admin' }), 422);
    await expectApiError(await postUser(s, admin, { ...ok, username: 'nuevo_admin', email: 'na@test.example', role: 'admin', masterPassword: 'corta' }), 422);
    await expectApiError(await postUser(s, admin, { ...ok, username: 'rol_mal', email: 'rm@test.example', role: 'superuser' }), 400);
    await expectApiError(await postUser(s, admin, { username: 'sin_nombre', email: 'sn@test.example', role: 'viewer', password: 'temporal-123' }), 400);
    await expectApiError(await postUser(s, admin, { ...ok, username: 'con extra', email: 'ce@test.example' }), 400);
    await expectApiError(await postUser(s, admin, { ...ok, username: 'extra_campo', email: 'ec@test.example', isAdmin: true }), 400);

    const names = (await listUsers(s, admin)).map((u) => u.username);
    expect(names.filter((n) => n === 'dup_user')).toHaveLength(1);
    for (const n of ['dup_user2', 'dup_user3', 'dup_user4', 'mail_mal', 'clave_corta', 'igualusuario', 'nuevo_admin', 'rol_mal', 'sin_nombre', 'extra_campo']) {
      expect(names).not.toContain(n);
    }
  });

  it('PATCH name/email/status; e-mail taken 409; deactivating ends the session (401) and the live socket (4401) at once', async () => {
    const { user, cookie, password } = await activeUser(s, admin, 'pedro');
    const opened = await openLive(s, { cookie });
    expect(opened.status).toBe(101);
    const live = opened.live!;
    await live.next((f) => f.type === 'hello');

    const edited = await jsonOf<User>(await patchUser(s, admin, user.id, { name: 'Pedro Páez', email: 'pedro.paez@test.example' }));
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: user.id, name: 'Pedro Páez', email: 'pedro.paez@test.example', role: 'viewer', status: 'active' });
    expect((await me(s, cookie)).status).toBe(200); // an edit of name/e-mail keeps the session
    expect(live.closeCode).toBeNull();

    await expectApiError(await patchUser(s, admin, user.id, { email: 'juan.perez@aguas.example' }), 409);
    await expectApiError(await patchUser(s, admin, user.id, { email: 'JUAN.PEREZ@aguas.example' }), 409);
    await expectApiError(await patchUser(s, admin, user.id, { email: 'no-es-correo' }), 400);
    await expectApiError(await patchUser(s, admin, user.id, { status: 'suspended' }), 400);
    await expectApiError(await patchUser(s, admin, user.id, { username: 'otro' }), 400);
    await expectApiError(await patchUser(s, admin, 'usr_unknown', { name: 'X' }), 404);
    // Its own e-mail again is no conflict.
    expect((await patchUser(s, admin, user.id, { email: 'pedro.paez@test.example' })).status).toBe(200);

    const off = await jsonOf<User>(await patchUser(s, admin, user.id, { status: 'inactive' }));
    expect(off.status).toBe(200);
    expect(off.body.status).toBe('inactive');
    expect(await live.closed(2000)).toBe(4401);
    await expectApiError(await me(s, cookie), 401);
    await expectApiError(await s.fetch('/api/v1/devices', { cookie }), 401);
    await expectApiError(await login(s, { username: 'pedro', password }), 403, 'USER_INACTIVE');

    expect((await patchUser(s, admin, user.id, { status: 'active' })).status).toBe(200);
    expect((await login(s, { username: 'pedro', password })).status).toBe(200);

    const updates = (await auditPage(s, admin, { action: 'user.updated' })).filter((e) => e.target === `user:${user.id}`);
    expect(updates.length).toBeGreaterThanOrEqual(3);
    expect(updates.every((e) => e.result === 'ok' && e.username === 'admin')).toBe(true);
    expect(updates.some((e) => e.details?.status === 'inactive')).toBe(true);
  });

  it('a role change ends the sessions and live sockets; becoming admin needs a master password', async () => {
    const { user, cookie, password } = await activeUser(s, admin, 'rosa');
    const opened = await openLive(s, { cookie });
    expect(opened.status).toBe(101);

    const promoted = await jsonOf<User>(await patchUser(s, admin, user.id, { role: 'operator' }));
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe('operator');
    expect([...promoted.body.permissions].sort()).toEqual(PERMISSIONS.operator);
    expect(await opened.live!.closed(2000)).toBe(4401);
    await expectApiError(await me(s, cookie), 401);

    const fresh = await loginCookie(s, { username: 'rosa', password });
    expect(((await (await me(s, fresh)).json()) as User).role).toBe('operator');

    await expectApiError(await patchUser(s, admin, user.id, { role: 'admin' }), 422);
    expect((await me(s, fresh)).status).toBe(200); // a refused change ends nothing
    const made = await jsonOf<User>(await patchUser(s, admin, user.id, { role: 'admin', masterPassword: 'maestra-de-rosa' }));
    expect(made.status).toBe(200);
    expect([...made.body.permissions].sort()).toEqual(PERMISSIONS.admin);
    await expectApiError(await me(s, fresh), 401);
    await expectApiError(await login(s, { username: 'rosa', password }), 401, 'MASTER_PASSWORD_REQUIRED');
    expect((await login(s, { username: 'rosa', password, masterPassword: 'maestra-de-rosa' })).status).toBe(200);
    // Back to viewer (two admins exist, so this is allowed).
    expect((await patchUser(s, admin, user.id, { role: 'viewer' })).status).toBe(200);
    expect((await login(s, { username: 'rosa', password })).status).toBe(200);
  });

  it('reset password: temporary again, sessions end, the old password fails and the new one works', async () => {
    const { user, cookie, password } = await activeUser(s, admin, 'tomas_ramirez', 'operator');
    const opened = await openLive(s, { cookie });
    expect(opened.status).toBe(101);

    await expectApiError(await resetPassword(s, admin, user.id, { password: 'corta' }), 422);
    await expectApiError(await resetPassword(s, admin, user.id, { password: 'TOMAS_RAMIREZ' }), 422); // the username
    await expectApiError(await resetPassword(s, admin, user.id, {}), 400);
    await expectApiError(await resetPassword(s, admin, 'usr_unknown', { password: 'otra-temporal-9' }), 404);
    expect((await me(s, cookie)).status).toBe(200); // refused resets end nothing
    expect(opened.live!.closeCode).toBeNull();

    const res = await jsonOf<User>(await resetPassword(s, admin, user.id, { password: 'otra-temporal-9' }));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(USER_KEYS);
    expect(res.body).toMatchObject({ id: user.id, mustChangePassword: true });
    await expectApiError(await me(s, cookie), 401);
    expect(await opened.live!.closed(2000)).toBe(4401);
    expect((await listUsers(s, admin)).find((u) => u.id === user.id)).toMatchObject({ mustChangePassword: true });

    await expectApiError(await login(s, { username: 'tomas_ramirez', password }), 401, 'INVALID_CREDENTIALS');
    const signIn = await login(s, { username: 'tomas_ramirez', password: 'otra-temporal-9' });
    expect(signIn.status).toBe(200);
    expect(((await signIn.json()) as User).mustChangePassword).toBe(true);
    await expectApiError(await s.fetch('/api/v1/devices', { cookie: sessionCookieOf(signIn) }), 403, 'PASSWORD_CHANGE_REQUIRED');

    const resets = (await auditPage(s, admin, { action: 'user.password_reset' })).filter((e) => e.target === `user:${user.id}`);
    expect(resets).toHaveLength(1);
    expect(resets[0]).toMatchObject({ result: 'ok', username: 'admin' });
    expect(JSON.stringify(resets)).not.toContain('otra-temporal-9');
  });

  it('DELETE → 204: the user cannot sign in, their session ends, their commands keep who issued them', async () => {
    const { user, cookie, password } = await activeUser(s, admin, 'borrar', 'operator');
    expect((await postTelemetry(s, gateMsg(GATE_2, 'abriendo'))).status).toBe(202);
    const commandId = await issueOk(s, cookie, GATE_2, 'cerrar');
    expect((await ackHttp(s, GATE_2, commandId, { success: true, state: 'cerrando' })).status).toBe(200);

    const del = await deleteUser(s, admin, user.id);
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    await expectApiError(await me(s, cookie), 401);
    await expectApiError(await login(s, { username: 'borrar', password }), 401, 'INVALID_CREDENTIALS');
    expect((await listUsers(s, admin)).map((u) => u.id)).not.toContain(user.id);
    await expectApiError(await deleteUser(s, admin, user.id), 404);
    await expectApiError(await patchUser(s, admin, user.id, { name: 'X' }), 404);
    await expectApiError(await resetPassword(s, admin, user.id, { password: 'otra-temporal-9' }), 404);

    expect((await getCommand(s, admin, commandId)).issuedBy).toMatchObject({ id: user.id, username: 'borrar' });
    const deleted = (await auditPage(s, admin, { action: 'user.deleted' })).find((e) => e.target === `user:${user.id}`);
    expect(deleted).toMatchObject({ result: 'ok', username: 'admin' });
    // The user's own audit events remain (append-only).
    expect((await auditPage(s, admin, { userId: user.id })).length).toBeGreaterThan(0);
    // The name is free again.
    expect((await createUser(s, admin, { username: 'borrar' })).id).not.toBe(user.id);
  });

  it('operator and viewer get 403 on every /api/v1/users route; without a session 401', async () => {
    const target = (await listUsers(s, admin)).find((u) => u.username === 'viewer')!;
    for (const cookie of [operator, viewer]) {
      await expectApiError(await s.fetch('/api/v1/users', { cookie }), 403);
      await expectApiError(await postUser(s, cookie, { username: 'intruso', name: 'I', email: 'i@test.example', role: 'viewer', password: 'temporal-123' }), 403);
      await expectApiError(await patchUser(s, cookie, target.id, { name: 'Hackeado' }), 403);
      await expectApiError(await deleteUser(s, cookie, target.id), 403);
      await expectApiError(await resetPassword(s, cookie, target.id, { password: 'hackeado-123' }), 403);
      await expectApiError(await s.fetch('/api/v1/audit', { cookie }), 403);
    }
    await expectApiError(await s.fetch('/api/v1/users'), 401);
    await expectApiError(await postUser(s, '', { username: 'intruso', name: 'I', email: 'i@test.example', role: 'viewer', password: 'temporal-123' }), 401);
    const after = (await listUsers(s, admin)).find((u) => u.id === target.id)!;
    expect(after.name).toBe('Ana Rodríguez');
    expect((await listUsers(s, admin)).map((u) => u.username)).not.toContain('intruso');
    expect((await login(s, { username: 'viewer', password: 'viewer123' })).status).toBe(200);
  });
});

describe('the last active admin', () => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer(ENV);
    admin = await s.login('admin');
  });
  afterAll(async () => s.close());

  it('cannot be deleted, deactivated or demoted (409 LAST_ADMIN) until a second admin exists', async () => {
    const self = (await (await me(s, admin)).json()) as User;
    await expectApiError(await deleteUser(s, admin, self.id), 409, 'LAST_ADMIN');
    await expectApiError(await patchUser(s, admin, self.id, { role: 'operator' }), 409, 'LAST_ADMIN');
    await expectApiError(await patchUser(s, admin, self.id, { status: 'inactive' }), 409, 'LAST_ADMIN');
    expect((await me(s, admin)).status).toBe(200);
    expect((await listUsers(s, admin)).find((u) => u.id === self.id)).toMatchObject({ role: 'admin', status: 'active' });

    // A second admin, with its own master password.
    const second = await createUser(s, admin, { username: 'admin2', role: 'admin', masterPassword: 'maestra-dos-2025' });
    expect(second).toMatchObject({ role: 'admin', mustChangePassword: true });
    await expectApiError(await login(s, { username: 'admin2', password: 'temporal-123' }), 401, 'MASTER_PASSWORD_REQUIRED');
    await expectApiError(await login(s, { username: 'admin2', password: 'temporal-123', masterPassword: 'maestra2024' }), 401, 'MASTER_PASSWORD_INVALID');
    const temp = await loginCookie(s, { username: 'admin2', password: 'temporal-123', masterPassword: 'maestra-dos-2025' });
    expect((await changeOwn(s, temp, 'temporal-123', 'admin2-definitiva')).status).toBe(200);
    const admin2 = temp;

    // Now the first admin may be deactivated, reactivated, demoted and deleted.
    expect((await patchUser(s, admin2, self.id, { status: 'inactive' })).status).toBe(200);
    await expectApiError(await me(s, admin), 401);
    // admin2 is the last active admin now.
    await expectApiError(await deleteUser(s, admin2, second.id), 409, 'LAST_ADMIN');
    await expectApiError(await patchUser(s, admin2, second.id, { role: 'viewer' }), 409, 'LAST_ADMIN');
    await expectApiError(await patchUser(s, admin2, second.id, { status: 'inactive' }), 409, 'LAST_ADMIN');

    expect((await patchUser(s, admin2, self.id, { status: 'active' })).status).toBe(200);
    const back = await loginCookie(s, { username: 'admin', password: 'admin123', masterPassword: 'maestra2024' });
    const demoted = await jsonOf<User>(await patchUser(s, admin2, self.id, { role: 'operator' }));
    expect(demoted.status).toBe(200);
    expect(demoted.body.role).toBe('operator');
    await expectApiError(await me(s, back), 401);
    const asOperator = await jsonOf<User>(await login(s, { username: 'admin', password: 'admin123' }));
    expect(asOperator.status).toBe(200);
    expect(asOperator.body.role).toBe('operator');

    expect((await deleteUser(s, admin2, self.id)).status).toBe(204);
    await expectApiError(await login(s, { username: 'admin', password: 'admin123' }), 401, 'INVALID_CREDENTIALS');
    await expectApiError(await deleteUser(s, admin2, second.id), 409, 'LAST_ADMIN');

    const actions = (await auditPage(s, admin2)).map((e) => e.action);
    for (const a of ['user.created', 'user.updated', 'user.deleted', 'user.password_changed']) expect(actions).toContain(a);
  });
});
