// /alarms/stats over any range costs what the alarms in it cost, never what its span does: a viewer
// asking for year 0001 to 9999 once made the server allocate a slot per 10 minutes (500 million)
// and die of a full heap. The server runs as a child process here, so that a crash is seen as
// one, and its resident memory is read from /proc while it answers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, signIn, spawnServer, type Child } from '../helpers/child-server';

/** Resident memory of a process from /proc: now (VmRSS) and its peak so far (VmHWM), in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return null; // gone
  }
}

/** The process of the child's group that serves: the largest. */
function serverPid(child: Child): number {
  let best = { pid: 0, rss: -1 };
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state, ppid, pgrp, …
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgrp !== child.proc.pid) continue;
      const rss = memoryOf(Number(entry))?.rss ?? 0;
      if (rss > best.rss) best = { pid: Number(entry), rss };
    } catch {
      // exited while we looked
    }
  }
  if (best.pid === 0) throw new Error('no server process in the group');
  return best.pid;
}

const MB = 1024 * 1024;

describe('/alarms/stats over absurd spans (server as a child process)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-stats-span-'));
  const children: Child[] = [];
  let server: Child;
  let viewer: string;

  beforeAll(async () => {
    // A production-like heap cap: a slot per window would exhaust it at once.
    server = await spawnServer(dataDir, { NODE_OPTIONS: '--max-old-space-size=256' });
    children.push(server);
    viewer = await signIn(server, 'viewer');
  });
  afterAll(async () => {
    await killAll(children);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['0001-01-01T00:00:00Z', '9999-12-31T00:00:00Z'],
    ['1000-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
    ['2020-01-01T00:00:00Z', '2026-01-01T00:00:00Z'], // over ~2.4 years: the spread of a big array overflowed the stack
  ])('from %s to %s: 200 at once, the server alive and its memory flat', async (from, to) => {
    const pid = serverPid(server);
    const before = memoryOf(pid)!;
    const started = Date.now();
    const res = await fetch(`${server.url}/api/v1/alarms/stats?from=${from}&to=${to}`, {
      headers: { cookie: viewer },
      signal: AbortSignal.timeout(20_000),
    }).catch((err: unknown) => {
      throw new Error(`no answer (${String(err)}); server output:\n${server.output().slice(-2000)}`);
    });
    const body = (await res.json()) as { from: string; to: string; total: number; perTenMinutes: { max: number; mean: number }; floods: number };
    const tookMs = Date.now() - started;
    expect({ status: res.status, body }).toMatchObject({
      status: 200,
      body: { from: new Date(from).toISOString(), to: new Date(to).toISOString(), floods: 0 },
    });
    expect(body.perTenMinutes.mean).toBe(body.total / Math.ceil((Date.parse(to) - Date.parse(from)) / 600_000));
    expect(tookMs).toBeLessThan(2000);
    const after = memoryOf(pid);
    expect(after, 'the server process died').not.toBeNull();
    // The peak resident memory did not move by more than noise while it answered.
    expect((after!.peak - Math.max(before.peak, before.rss)) / MB).toBeLessThan(64);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});
