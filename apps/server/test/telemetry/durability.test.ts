// docs/protocol.md "HTTP": 202 only once every accepted reading is durably stored. The server runs as
// a real child process and is killed with SIGKILL right after the last 202; everything answered
// must be there after a restart on the same DATA_DIR.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LEVEL_1, LEVEL_2, levelMsg, postTelemetry } from '../helpers/protocol';
import { groupGone, killAll, killGroup, signIn, spawnServer, type Child } from '../helpers/child-server';
import { storedRows } from '../helpers/stored';

describe('durability: 202 means committed', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-durability-'));
  const children: Child[] = [];
  afterAll(async () => {
    await killAll(children);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('readings answered 202 survive a SIGKILL right after the last 202', async () => {
    const first = await spawnServer(dataDir);
    children.push(first);

    // 30 concurrent posts (group commit) for one device…
    const concurrent = await Promise.all(
      Array.from({ length: 30 }, (_, i) => postTelemetry(first, levelMsg(LEVEL_2, i / 10, { seq: i, boot: 'dur-c', ts: Date.now() - 60_000 + i }))),
    );
    expect(concurrent.map((r) => r.status)).toEqual(Array(30).fill(202));

    // …then 50 in quick succession for another, each awaited, and SIGKILL right after the last 202.
    const values = Array.from({ length: 50 }, (_, i) => Math.round((1 + i * 0.137) * 1000) / 1000);
    for (let i = 0; i < values.length; i++) {
      const res = await postTelemetry(first, levelMsg(LEVEL_1, values[i], { seq: i, boot: 'dur' }));
      if (res.status !== 202) throw new Error(`post ${i}: ${res.status} ${await res.text()}`);
      if (i === values.length - 1) killGroup(first, 'SIGKILL'); // before even reading the body
      else await res.arrayBuffer();
    }
    const gone = await first.exited;
    expect(gone.signal).toBe('SIGKILL');
    expect(await groupGone(first)).toBe(true);
    expect(first.output()).not.toMatch(/shutting down/);

    // Restart on the same DATA_DIR.
    const second = await spawnServer(dataDir);
    children.push(second);
    const cookie = await signIn(second, 'operator');
    const devices = (await (await fetch(`${second.url}/api/v1/devices`, { headers: { cookie } })).json()) as Array<{
      id: string;
      lastSeen: string | null;
      reading: { value: number; unit: string } | null;
    }>;
    const d1 = devices.find((d) => d.id === LEVEL_1)!;
    expect(d1.reading).toMatchObject({ value: values.at(-1), unit: 'm' });
    expect(d1.lastSeen).not.toBeNull();
    const d2 = devices.find((d) => d.id === LEVEL_2)!;
    expect(d2.reading).toMatchObject({ value: 2.9 });

    // The dedupe record was committed with the reading: a resend after the restart is a duplicate.
    const resend = await postTelemetry(second, levelMsg(LEVEL_1, values.at(-1), { seq: values.length - 1, boot: 'dur' }));
    expect(await resend.json()).toEqual({ accepted: 0, duplicates: 1, commands: [] });

    // Stop the second server cleanly, then count rows in the file itself.
    killGroup(second, 'SIGTERM');
    await second.exited;
    expect(await groupGone(second)).toBe(true);
    const rows = await storedRows<{ v: number }>(dataDir, 'SELECT value_num AS v FROM readings WHERE device_id = ? ORDER BY id', LEVEL_1);
    expect(rows.map((r) => r.v)).toEqual(values);
    const [n2] = await storedRows<{ n: number }>(dataDir, 'SELECT COUNT(*) AS n FROM readings WHERE device_id = ?', LEVEL_2);
    expect(Number(n2!.n)).toBe(30);
  }, 120_000);
});
