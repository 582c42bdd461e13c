// Helpers shared by the auth tests (docs/api.md "Sign-in", "Rules for every route", "CSRF").
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Role, User, UserStatus } from '@agua/shared';
import { hashPassword } from '../../src/lib/password';
import { newId } from '../../src/lib/ids';
import { NO_TOTP } from '../../src/features/users/users.repository';
import { ISO_Z, loginCookie } from '../helpers/api';
import { DEMO_PASSWORDS, type TestServer } from '../helpers/server';
import { serverCommand } from '../helpers/server-bundle';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const TSX_CLI = path.join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs');

export const MSG = {
  INVALID_CREDENTIALS: 'Credenciales de usuario inválidas',
  USER_INACTIVE: 'Usuario inactivo. Contacte al administrador.',
  MASTER_PASSWORD_REQUIRED: 'Se requiere la Contraseña Maestra',
  MASTER_PASSWORD_INVALID: 'Contraseña Maestra incorrecta',
  TOO_MANY_ATTEMPTS: 'Demasiados intentos fallidos. Intente de nuevo más tarde.',
  PASSWORD_CHANGE_REQUIRED: 'Debe cambiar su contraseña antes de continuar.',
} as const;

export const ROLE_PERMISSIONS_EXPECTED: Record<Role, string[]> = {
  admin: ['read', 'write', 'delete', 'manage_users', 'manage_devices'],
  operator: ['read', 'write'],
  viewer: ['read'],
};


/** Asserts the `User` shape of docs/api.md exactly (no extra keys, no hashes). */
export function expectUserShape(user: User, expected: { username: string; role: Role }): void {
  expect(Object.keys(user).sort()).toEqual(
    ['email', 'id', 'lastLogin', 'mustChangePassword', 'mustEnrolTotp', 'name', 'permissions', 'role', 'status', 'totpEnabled', 'username'].sort(),
  );
  expect(user.username).toBe(expected.username);
  expect(user.role).toBe(expected.role);
  expect([...user.permissions].sort()).toEqual([...ROLE_PERMISSIONS_EXPECTED[expected.role]].sort());
  expect(typeof user.id).toBe('string');
  expect(user.id.length).toBeGreaterThan(0);
  expect(typeof user.name).toBe('string');
  expect(typeof user.email).toBe('string');
  expect(['active', 'inactive']).toContain(user.status);
  expect(user.lastLogin === null || ISO_Z.test(user.lastLogin)).toBe(true);
  expect(typeof user.mustChangePassword).toBe('boolean');
}

export interface NewUser {
  username: string;
  password: string;
  role?: Role;
  status?: UserStatus;
  mustChangePassword?: boolean;
  masterPassword?: string | null;
}

/** Creates a user directly through the repository (no users API yet); returns its id. */
export async function createUser(s: TestServer, u: NewUser): Promise<string> {
  const id = newId('usr');
  await s.modules.auth.users.insert({
    id,
    username: u.username,
    name: `Test ${u.username}`,
    email: `${u.username}@test.example`,
    role: u.role ?? 'viewer',
    status: u.status ?? 'active',
    passwordHash: await hashPassword(u.password),
    masterPasswordHash: u.masterPassword ? await hashPassword(u.masterPassword) : null,
    mustChangePassword: u.mustChangePassword ?? false,
    lastLoginMs: null,
    createdAtMs: Date.now(),
    ...NO_TOTP,
  });
  return id;
}

/** Audit events (newest first) of one action, read as the demo admin. */
export async function auditEvents(s: TestServer, action: string, adminCookie?: string): Promise<Array<Record<string, unknown>>> {
  const cookie = adminCookie ?? (await loginCookie(s, DEMO_PASSWORDS.admin));
  const res = await s.fetch(`/api/v1/audit?action=${encodeURIComponent(action)}&limit=500`, { cookie });
  expect(res.status).toBe(200);
  const page = (await res.json()) as { items: Array<Record<string, unknown>>; nextCursor: string | null };
  return page.items;
}

export interface ProcessOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript entry with tsx in a child process; resolves with its exit code and output. */
export function runTsx(entry: string, env: Record<string, string>, timeoutMs = 20_000): Promise<ProcessOutcome> {
  return runNode([TSX_CLI, entry], env, timeoutMs);
}

/** Runs the built server (server-bundle.ts) until it exits by itself: a refused start. */
export function runServerBundle(env: Record<string, string>, timeoutMs = 20_000): Promise<ProcessOutcome> {
  return runNode(serverCommand()[1], env, timeoutMs);
}

/** Runs node with these arguments, without the caller's database, broker and port settings. */
function runNode(args: string[], env: Record<string, string>, timeoutMs: number): Promise<ProcessOutcome> {
  const entry = args.at(-1);
  return new Promise((resolve, reject) => {
    const base: Record<string, string | undefined> = { ...process.env };
    for (const k of ['DATABASE_URL', 'MQTT_URL', 'REDIS_URL', 'PORT', 'MQTT_PORT', 'NODE_OPTIONS']) delete base[k];
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    // 'close' comes after the pipes are drained.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export type WsOutcome = { opened: true; firstFrame: { type: string; data: unknown } } | { opened: false; status: number; body: string };

/**
 * Tries a real WebSocket upgrade to /api/v1/live; resolves with the first frame when it opens,
 * or with the HTTP status of the refused handshake.
 */
export async function tryLiveSocket(s: TestServer, headers: Record<string, string> = {}): Promise<WsOutcome> {
  const { default: WebSocket } = await import('ws');
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${s.url.replace(/^http/, 'ws')}/api/v1/live`, { headers });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('live socket: no answer within 5 s'));
    }, 5000);
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        clearTimeout(timer);
        ws.terminate();
        resolve({ opened: false, status: res.statusCode ?? 0, body });
      });
    });
    ws.on('message', (data) => {
      clearTimeout(timer);
      ws.close();
      resolve({ opened: true, firstFrame: JSON.parse(String(data)) as { type: string; data: unknown } });
    });
    ws.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** An open live socket; `closed` resolves with the close code when the server ends it. */
export async function openLiveSocket(s: TestServer, cookie: string): Promise<{ closed: Promise<number>; close: () => void; isOpen: () => boolean }> {
  const { default: WebSocket } = await import('ws');
  const ws = new WebSocket(`${s.url.replace(/^http/, 'ws')}/api/v1/live`, { headers: { cookie } });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('message', () => resolve()); // hello
    ws.once('unexpected-response', (_req, res) => reject(new Error(`live socket refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
  return { closed, close: () => ws.close(), isOpen: () => ws.readyState === WebSocket.OPEN };
}
