// Issue 16: the reference firmware's C++ core (firmware/src), run as the virtual board
// (firmware/host: libcurl + libmosquitto, flash as files) against a real server. The board is a
// real process killed with real signals; what it printed (one JSON line per event) is compared
// with what the server stored.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, demoKey, type TestServer } from '../helpers/server';
import { GATE_2, LEVEL_2, countReadings, getDevice, readingRows, sleep, waitFor } from '../helpers/protocol';
import { getCommand, issueOk, waitForCommandStatus } from '../helpers/api';
import { freePort } from '../helpers/net';

const FIRMWARE = fileURLToPath(new URL('../../../../firmware/', import.meta.url));
const BOARD = path.join(FIRMWARE, 'build', 'virtual-board');

type Event = Record<string, unknown> & { event: string };

/** One run of the virtual board; its stdout parsed line by line. */
class Board {
  readonly events: Event[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private stderr = '';

  constructor(readonly proc: ChildProcess) {
    let pending = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) if (line.trim()) this.events.push(JSON.parse(line) as Event);
    });
    proc.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  }

  of(name: string): Event[] {
    return this.events.filter((e) => e.event === name);
  }

  /** The first event matching, waiting for it if need be. */
  async next(match: (e: Event) => boolean, timeoutMs = 10_000): Promise<Event> {
    try {
      return (await waitFor(() => this.events.find(match), timeoutMs, 20))!;
    } catch {
      throw new Error(`event not seen within ${timeoutMs} ms; board printed:\n${this.events.map((e) => JSON.stringify(e)).join('\n')}\n${this.stderr}`);
    }
  }

  signal(sig: NodeJS.Signals): void {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill(sig);
  }
}

const running: Board[] = [];

function startBoard(args: Record<string, string | number | undefined>): Board {
  const argv = Object.entries(args).flatMap(([k, v]) => (v === undefined ? [] : [`--${k}`, String(v)]));
  const board = new Board(spawn(BOARD, argv, { stdio: ['ignore', 'pipe', 'pipe'] }));
  running.push(board);
  return board;
}

const stateDirs: string[] = [];
function stateDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agua-board-'));
  stateDirs.push(dir);
  return dir;
}

const motorStarts = (b: Board) => b.of('motor').filter((e) => e.direction !== 0).length;

beforeAll(() => {
  // The test stage of `npm test` builds it too; make is a no-op then.
  const res = spawnSync('make', ['-C', FIRMWARE, '-j2', 'build/virtual-board'], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`building the virtual board failed:\n${res.stdout}\n${res.stderr}`);
}, 300_000);

afterEach(async () => {
  for (const b of running.splice(0)) {
    b.signal('SIGCONT');
    b.signal('SIGKILL');
    await b.exited;
  }
});

afterAll(() => {
  for (const dir of stateDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('virtual board against a real server (COMMAND_TIMEOUT_S=20)', () => {
  let s: TestServer;
  let operator: string;
  beforeAll(async () => {
    s = await startServer({ COMMAND_TIMEOUT_S: '20' });
    operator = await s.login('operator');
  });
  afterAll(async () => s.close());

  const level = (extra: Record<string, string | number | undefined>) =>
    startBoard({ url: s.url, device: LEVEL_2, key: demoKey(LEVEL_2), type: 'level_sensor', 'interval-ms': 100, ...extra });

  it('HTTP: readings buffered offline survive SIGKILL, and a batch stored just before a crash is stored once', async () => {
    const dir = stateDir();
    // 1. No server: readings wait in the persistent queue; the board is killed.
    const offline = level({ url: `http://127.0.0.1:${await freePort()}`, readings: 4, 'state-dir': dir });
    await waitFor(() => offline.of('reading').length === 4, 10_000);
    expect(offline.of('send_failed').length).toBeGreaterThan(0);
    offline.signal('SIGKILL');
    await offline.exited;
    expect(await countReadings(s, LEVEL_2)).toBe(0);

    // 2. Server back: the whole queue goes as one batch; the board dies (SIGKILL) after the 202,
    //    before it forgets the batch.
    const crashing = level({ readings: 2, 'state-dir': dir, 'crash-at': 'sent' });
    expect(await crashing.exited).toMatchObject({ signal: 'SIGKILL' });
    expect(crashing.of('boot')[0]).toMatchObject({ queued: 4 });
    const [sent] = crashing.of('sent');
    expect(sent).toMatchObject({ count: 5, accepted: 5, duplicates: 0 });

    // 3. Restarted: it sends that batch again (same boot/seq); the server recognises all of it.
    const again = level({ readings: 2, 'state-dir': dir });
    expect(await again.exited).toMatchObject({ code: 0 });
    expect(again.of('boot')[0]).toMatchObject({ queued: 5 });
    expect(again.of('sent')[0]).toMatchObject({ count: 6, accepted: 1, duplicates: 5 });

    // Every reading any run reported is stored, exactly once.
    const reported = [offline, crashing, again].flatMap((b) => b.of('reading'));
    expect(reported).toHaveLength(4 + 1 + 2);
    const rows = await readingRows(s, LEVEL_2);
    expect(rows).toHaveLength(reported.length);
    expect(rows.map((r) => r.tsMs).sort()).toEqual(reported.map((e) => e.ts as number).sort());
    expect(new Set(reported.map((e) => `${e.boot}/${e.seq}`)).size).toBe(reported.length);
  });

  it('MQTT: readings are published at QoS 1 and stored once each', async () => {
    const before = await countReadings(s, LEVEL_2);
    const b = level({ mqtt: s.mqttUrl, readings: 3, 'state-dir': stateDir() });
    expect(await b.exited).toMatchObject({ code: 0 });
    const transports = b.of('transport').filter((e) => e.request === 'telemetry');
    expect(transports.length).toBeGreaterThan(0);
    expect(transports.every((e) => e.via === 'mqtt' && e.status === 'puback')).toBe(true);
    expect(await countReadings(s, LEVEL_2) - before).toBe(3);
  });

  it.each(['http', 'mqtt'] as const)(
    '%s: a command is executed once though the board died before acknowledging it',
    async (via) => {
      const dir = stateDir();
      const gate = (extra: Record<string, string | number | undefined>) =>
        startBoard({
          url: s.url,
          mqtt: via === 'mqtt' ? s.mqttUrl : undefined,
          device: GATE_2,
          key: demoKey(GATE_2),
          type: 'motorized_gate',
          'interval-ms': 1000,
          'travel-ms': 60_000, // slow: after the crash the gate is part-way open
          'state-dir': dir,
          ...extra,
        });
      const first = gate({ 'crash-at': 'executed' });
      await first.next((e) => e.event === 'sent');
      await waitFor(async () => (await getDevice(s, operator, GATE_2)).status === 'online');
      const id = await issueOk(s, operator, GATE_2, 'abrir');

      // It ran the command (motor on, abriendo) and died before acknowledging it.
      expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
      expect(first.of('executed')).toEqual([expect.objectContaining({ id, command: 'abrir', state: 'abriendo' })]);
      expect(first.of('ack')).toHaveLength(0);
      expect(motorStarts(first)).toBe(1);

      // Restarted on the same state: the server hands the command out again (same id); the board
      // recognises it, does not run it, and acknowledges it with where the gate is now.
      const second = gate({});
      await second.next((e) => e.event === 'command' && e.id === id, 15_000);
      const ack = await second.next((e) => e.event === 'ack' && e.id === id);
      expect(second.of('command').filter((e) => e.id === id)[0]).toMatchObject({ verdict: 'duplicate' });
      expect(ack).toMatchObject({ success: true, state: 'abierta', delivered: true });
      expect(second.of('executed')).toHaveLength(0);
      expect(motorStarts(second)).toBe(0);
      const command = await waitForCommandStatus(s, operator, id, 'succeeded', 5000);
      expect(command.completedAt).not.toBeNull();
      await waitFor(async () => (await getDevice(s, operator, GATE_2)).reading?.value === 'abierta');
      second.signal('SIGTERM');
      expect(await second.exited).toMatchObject({ code: 0 });
    },
    60_000,
  );
});

describe('virtual board: expired commands (COMMAND_TIMEOUT_S=3)', () => {
  let s: TestServer;
  let operator: string;
  beforeAll(async () => {
    s = await startServer({ COMMAND_TIMEOUT_S: '3' });
    operator = await s.login('operator');
  });
  afterAll(async () => s.close());

  it.each(['http', 'mqtt'] as const)(
    '%s: a command that reaches the board after its expiresAt is not executed',
    async (via) => {
      const b = startBoard({
        url: s.url,
        mqtt: via === 'mqtt' ? s.mqttUrl : undefined,
        device: GATE_2,
        key: demoKey(GATE_2),
        type: 'motorized_gate',
        'interval-ms': 1000,
        'state-dir': stateDir(),
      });
      await b.next((e) => e.event === 'sent');
      if (via === 'mqtt') await b.next((e) => e.event === 'mqtt' && e.state === 'connected');
      else await b.next((e) => e.event === 'poll');
      await waitFor(async () => (await getDevice(s, operator, GATE_2)).status === 'online');
      await sleep(300); // the long poll is open at the server

      // Frozen, as a board stuck in a slow loop: the server delivers into its socket, and the
      // command expires before the board reads it.
      b.signal('SIGSTOP');
      const id = await issueOk(s, operator, GATE_2, 'abrir');
      const timedOut = await waitForCommandStatus(s, operator, id, 'timed_out', 8000);
      expect(timedOut.deliveredAt).not.toBeNull();
      b.signal('SIGCONT');

      expect(await b.next((e) => e.event === 'command' && e.id === id)).toMatchObject({ verdict: 'expired' });
      await sleep(500);
      expect(b.of('executed')).toHaveLength(0);
      expect(b.of('ack')).toHaveLength(0);
      expect(motorStarts(b)).toBe(0);
      expect((await getCommand(s, operator, id)).status).toBe('timed_out');
      expect((await getDevice(s, operator, GATE_2)).reading?.value).toBe('cerrada');
    },
    60_000,
  );
});
