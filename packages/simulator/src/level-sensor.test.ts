import { levelStatus } from '@agua/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LevelSensor, LevelWalk } from './level-sensor';
import { createRng } from './rng';
import { RecordingIO, command } from './test-io';

describe('LevelWalk', () => {
  it.each([
    [10, 1],
    [5, 2],
    [10, 3],
    [0.5, 4],
  ])('stays within [0, %d] and crosses 60 % and 85 % and comes back (seed %d)', (maxLevel, seed) => {
    const walk = new LevelWalk({ maxLevel, rng: createRng(seed) });
    const entered = { warning: 0, critical: 0, normalAfterCritical: 0 };
    let previous = 'normal';
    let sawCritical = false;
    // 24 hours of readings at 3 s.
    let min = Infinity;
    let max = -Infinity;
    let notTwoDecimals = 0;
    let faults = 0;
    for (let i = 0; i < 28_800; i++) {
      const v = walk.step(3000);
      min = Math.min(min, v);
      max = Math.max(max, v);
      if (Math.round(v * 100) / 100 !== v) notTwoDecimals++;
      const status = levelStatus(v, { maxLevel });
      if (status === 'fault') faults++;
      if (status !== previous) {
        if (status === 'warning' && previous === 'normal') entered.warning++;
        if (status === 'critical') {
          entered.critical++;
          sawCritical = true;
        }
        if (status === 'normal' && sawCritical) entered.normalAfterCritical++;
      }
      previous = status;
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThanOrEqual(maxLevel);
    expect(notTwoDecimals).toBe(0);
    expect(faults).toBe(0);
    // Several episodes a day: a demo shows alarms coming and going, not a level stuck in one band.
    expect(entered.warning).toBeGreaterThan(20);
    expect(entered.critical).toBeGreaterThan(10);
    expect(entered.normalAfterCritical).toBeGreaterThan(10);
  });

  it('is repeatable with the same seed', () => {
    const a = new LevelWalk({ maxLevel: 10, rng: createRng(42) });
    const b = new LevelWalk({ maxLevel: 10, rng: createRng(42) });
    const run = (w: LevelWalk) => Array.from({ length: 200 }, () => w.step());
    expect(run(a)).toEqual(run(b));
  });

  it('moves by water physics, not by reading count: short steps stay bounded and smooth', () => {
    const walk = new LevelWalk({ maxLevel: 10, rng: createRng(9), initialFraction: 0.5 });
    let last = walk.read();
    let min = Infinity;
    let max = -Infinity;
    let biggestJump = 0;
    for (let i = 0; i < 50_000; i++) {
      const v = walk.step(250);
      min = Math.min(min, v);
      max = Math.max(max, v);
      biggestJump = Math.max(biggestJump, Math.abs(v - last));
      last = v;
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThanOrEqual(10);
    // 250 ms of water plus sensor ripple: never a jump of more than 2 % of the range.
    expect(biggestJump).toBeLessThan(0.2);
  });

  it('refuses a non-positive maxLevel', () => {
    expect(() => new LevelWalk({ maxLevel: 0 })).toThrow();
  });
});

describe('LevelSensor', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-22T10:00:00.000Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function sensor(io: RecordingIO, intervalMs = 3000) {
    return new LevelSensor({ id: 'esp32_nivel_01', maxLevel: 10, io, intervalMs, rng: createRng(1), restartDelayMs: 500 });
  }

  it('sends a reading every interval with seq, boot and epoch-ms ts', () => {
    const io = new RecordingIO();
    const s = sensor(io);
    s.start();
    vi.advanceTimersByTime(0);
    vi.advanceTimersByTime(3000 * 3);
    s.stop();
    expect(io.sent).toHaveLength(4);
    const boot = io.sent[0]!.boot;
    expect(boot).toMatch(/^[0-9a-f]{8}$/);
    io.sent.forEach((m, i) => {
      expect(m).toMatchObject({ deviceId: 'esp32_nivel_01', type: 'level_sensor', seq: i, boot, data: { unit: 'm' } });
      expect(m.ts).toBe(Date.parse('2026-11-22T10:00:00.000Z') + i * 3000);
      expect(typeof m.data.value).toBe('number');
    });
    vi.advanceTimersByTime(10_000);
    expect(io.sent).toHaveLength(4); // stopped means silent
  });

  it("'read' acks and sends a fresh reading at once", async () => {
    const io = new RecordingIO();
    const s = sensor(io);
    s.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(io.sent).toHaveLength(1);
    s.handleCommand(command('read', { id: 'cmd_1' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(io.acks).toEqual([{ id: 'cmd_1', success: true }]);
    expect(io.sent).toHaveLength(2);
    expect(io.sent[1]!.seq).toBe(1);
    s.stop();
  });

  it("'restart' acks, reconnects, and starts a new boot with seq from 0", async () => {
    const io = new RecordingIO();
    const s = sensor(io);
    s.start();
    await vi.advanceTimersByTimeAsync(6000);
    const firstBoot = io.sent[0]!.boot;
    expect(io.sent.map((m) => m.seq)).toEqual([0, 1, 2]);
    s.handleCommand(command('restart', { id: 'cmd_r' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(io.acks).toEqual([{ id: 'cmd_r', success: true }]);
    expect(io.reconnects).toBe(0); // still "booting"
    await vi.advanceTimersByTimeAsync(500);
    expect(io.reconnects).toBe(1);
    const after = io.sent.slice(3);
    expect(after[0]).toMatchObject({ seq: 0 });
    expect(after[0]!.boot).not.toBe(firstBoot);
    await vi.advanceTimersByTimeAsync(3000);
    expect(io.sent.slice(3).map((m) => m.seq)).toEqual([0, 1]);
    s.stop();
  });

  it('executes a command id once (re-acks a repeat) and ignores an expired command', async () => {
    const io = new RecordingIO();
    const s = sensor(io);
    s.start();
    await vi.advanceTimersByTimeAsync(0);
    const read = command('read', { id: 'cmd_dup' });
    s.handleCommand(read);
    s.handleCommand(read);
    await vi.advanceTimersByTimeAsync(0);
    expect(io.sent).toHaveLength(2); // 1 periodic + 1 from the single execution
    expect(io.acks).toEqual([
      { id: 'cmd_dup', success: true },
      { id: 'cmd_dup', success: true },
    ]);
    s.handleCommand(command('read', { id: 'cmd_old', ttlMs: -1 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(io.acks).toHaveLength(2);
    expect(io.sent).toHaveLength(2);
    s.stop();
  });

  it('answers an unknown command with success false', async () => {
    const io = new RecordingIO();
    const s = sensor(io);
    s.start();
    s.handleCommand(command('abrir', { id: 'cmd_x' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(io.acks[0]).toMatchObject({ id: 'cmd_x', success: false });
    s.stop();
  });
});
