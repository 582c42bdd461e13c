// `npm run user:create`: the CLI validates with the routes' own request schema (shared), so a
// user it creates is one the API would accept, and it refuses what the API refuses.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PASSWORD_MAX_LENGTH } from '@agua/shared';
import { dropTestDatabase, TEST_ENGINE, testDatabaseEnv } from '../helpers/postgres';
import { tempDataDir } from '../helpers/server';
import { storedRows } from '../helpers/stored';

const run = promisify(execFile);
const dirs: string[] = [];

async function userCreate(args: string[], password: string): Promise<{ code: number; output: string; dataDir: string }> {
  const dataDir = tempDataDir();
  dirs.push(dataDir);
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/user-create.ts', ...args], {
      env: { ...process.env, ...(await testDatabaseEnv(dataDir)), DATA_DIR: dataDir, AGUA_PASSWORD: password },
    });
    return { code: 0, output: stdout + stderr, dataDir };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr, dataDir };
  }
}

async function usernames(dataDir: string): Promise<string[]> {
  return (await storedRows<{ username: string }>(dataDir, 'SELECT username FROM users ORDER BY username')).map((r) => r.username);
}

afterAll(async () => {
  for (const d of dirs) {
    fs.rmSync(d, { recursive: true, force: true });
    if (TEST_ENGINE === 'postgres') await dropTestDatabase(d);
  }
});

describe('user:create', () => {
  const base = ['--name', 'Ana Ruiz', '--email', 'ana@test.example', '--role', 'viewer'];

  it('creates a user with the longest password the API accepts', async () => {
    const r = await userCreate(['--username', 'ana.ruiz', ...base], 'p'.repeat(PASSWORD_MAX_LENGTH));
    expect(r.code).toBe(0);
    expect(await usernames(r.dataDir)).toEqual(['ana.ruiz']);
  });

  it.each([
    [['--username', 'ana ruiz', ...base], 'clave-segura-123', /el usuario admite de 3 a 50/],
    [['--username', 'ana', '--name', ' ', '--email', 'ana@test.example'], 'clave-segura-123', /el nombre admite/],
    [['--username', 'ana', '--name', 'Ana', '--email', 'ana@', '--role', 'viewer'], 'clave-segura-123', /correo electrónico no es válido/],
    [['--username', 'ana', ...base], 'p'.repeat(PASSWORD_MAX_LENGTH + 1), /como máximo 1000 caracteres/],
    [['--username', 'ana', ...base], 'corta', /al menos 10 caracteres/],
  ])('refuses %j and stores nothing', async (args, password, message) => {
    const r = await userCreate(args, password);
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(message);
    expect(await usernames(r.dataDir)).toEqual([]);
  });
});

describe('user:totp-reset', () => {
  const reset = async (dataDir: string, username: string) => {
    try {
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/user-totp-reset.ts', '--username', username], {
        env: { ...process.env, ...(await testDatabaseEnv(dataDir)), DATA_DIR: dataDir },
      });
      return { code: 0, output: stdout + stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, output: e.stdout + e.stderr };
    }
  };

  it('turns a user’s TOTP off from the machine (the only admin with a lost phone), audited; an unknown user is an error', async () => {
    const created = await userCreate(['--username', 'jefa', '--name', 'Jefa', '--email', 'jefa@test.example', '--role', 'viewer'], 'clave-segura-123');
    expect(created.code).toBe(0);
    const unknown = await reset(created.dataDir, 'nadie');
    expect(unknown.code).not.toBe(0);
    expect(unknown.output).toMatch(/el usuario "nadie" no existe/);
    const done = await reset(created.dataDir, 'jefa');
    expect(done.code).toBe(0);
    expect(done.output).toMatch(/desactivada para "jefa"/);
    const trail = await storedRows<{ action: string; details_json: string }>(created.dataDir, "SELECT action, details_json FROM audit_events WHERE action = 'user.totp_reset'");
    expect(trail).toHaveLength(1);
    expect(JSON.parse(trail[0]!.details_json)).toMatchObject({ username: 'jefa', by: 'cli' });
  });
});

