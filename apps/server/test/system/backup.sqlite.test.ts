// `npm run backup`: an online copy of the SQLite database taken while the server stores readings;
// the copy restores into a server that starts on it with everything the copy holds.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { LEVEL_1, countReadings, levelMsg, postTelemetry } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

const run = promisify(execFile);

async function backup(dataDir: string, out: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/backup.ts', '--out', out], { env: { ...process.env, DATA_DIR: dataDir } });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

describe('npm run backup', () => {
  const dirs: string[] = [];
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('copies the database while the server stores readings; the copy restores into a working server', async () => {
    const dataDir = tempDataDir();
    const outDir = tempDataDir();
    dirs.push(dataDir, outDir);
    const s = await startServer({ DEVICE_RATE_LIMIT: '0' }, { dataDir });
    servers.push(s);
    let seq = 0;
    const post = async () => {
      const res = await postTelemetry(s, Array.from({ length: 50 }, () => levelMsg(LEVEL_1, 3 + (seq % 100) / 100, { boot: 'bk', seq: seq++ })));
      expect(res.status).toBe(202);
    };
    for (let i = 0; i < 10; i++) await post();
    // Ingest goes on during the copy.
    let copying = true;
    const load = (async () => {
      while (copying) await post();
    })();
    const result = await backup(dataDir, outDir);
    copying = false;
    await load;
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/integrity ok/);
    const [file] = fs.readdirSync(outDir).filter((f) => f.endsWith('.db'));
    expect(file).toMatch(/^agua-\d{8}T\d{6}Z\.db$/);
    const copy = new BetterSqlite3(path.join(outDir, file!), { readonly: true });
    const inCopy = (copy.prepare('SELECT COUNT(*) AS n FROM readings WHERE device_id = ?').get(LEVEL_1) as { n: number }).n;
    copy.close();
    // A consistent moment: whole batches of 50, at least those stored before the copy began.
    expect(inCopy % 50).toBe(0);
    expect(inCopy).toBeGreaterThanOrEqual(500);
    expect(inCopy).toBeLessThanOrEqual(await countReadings(s, LEVEL_1));

    // Restore: the copy becomes agua.db of a new data folder.
    const restoredDir = tempDataDir();
    dirs.push(restoredDir);
    fs.copyFileSync(path.join(outDir, file!), path.join(restoredDir, 'agua.db'));
    const restored = await startServer({}, { dataDir: restoredDir });
    servers.push(restored);
    expect(await countReadings(restored, LEVEL_1)).toBe(inCopy);
    await restored.login('admin');
    // Device keys still work (the pepper is in the copy).
    expect((await postTelemetry(restored, levelMsg(LEVEL_1, 4))).status).toBe(202);
  });

  it('refuses to overwrite a backup, and says so when there is no database', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const missing = await backup(dataDir, path.join(dataDir, 'x.db'));
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('no database');
    fs.writeFileSync(path.join(dataDir, 'agua.db'), '');
    fs.writeFileSync(path.join(dataDir, 'exists.db'), 'keep');
    const exists = await backup(dataDir, path.join(dataDir, 'exists.db'));
    expect(exists.code).toBe(1);
    expect(exists.output).toContain('already exists');
    expect(fs.readFileSync(path.join(dataDir, 'exists.db'), 'utf8')).toBe('keep');
  });
});
