import { levelFromSensor, levelStatus } from '@agua/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LevelSensor, LevelWalk, sensorValue } from './level-sensor';
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

describe('a tank in cubic metres (docs/water.md "Simulator")', () => {
  it('constant flows move the volume by exactly (in − out) × time, and the level follows the shape', () => {
    // 10 m² × 5 m = 50 m³ full; starts at 20 % (10 m³ = 1 m); +36 − 12 = +24 m³/h for 30 min = +12 m³.
    const walk = new LevelWalk({ maxLevel: 5, tank: { kind: 'rectangular', areaM2: 10 }, initialFraction: 0.2, constantFlows: { inflowM3h: 36, outflowM3h: 12 } });
    for (let i = 0; i < 600; i++) walk.step(3000);
    expect(walk.volumeM3()).toBeCloseTo(22, 9);
    expect(walk.read()).toBe(2.2);
    expect(walk.flows()).toEqual({ inflowM3h: 36, outflowM3h: 12, netM3h: 24 });
  });

  it('a horizontal cylinder: the level is the one whose circular segment holds the volume', () => {
    // D = 2 m, L = 5 m: full 15.708 m³; half full at 1 m.
    const walk = new LevelWalk({ maxLevel: 2, tank: { kind: 'horizontal_cylinder', diameterM: 2, lengthM: 5 }, initialFraction: 0.5, constantFlows: { inflowM3h: 0, outflowM3h: 0 } });
    expect(walk.read()).toBe(1);
    expect(walk.levelM()).toBeCloseTo(1, 9);
  });

  it('the wandering model reports its flows in m³/h, and they account for the volume it moved', () => {
    const walk = new LevelWalk({ maxLevel: 10, tank: { kind: 'rectangular', areaM2: 24 }, rng: createRng(7), initialFraction: 0.5 });
    let before = walk.volumeM3()!;
    for (let i = 0; i < 200; i++) {
      walk.step(3000);
      const flows = walk.flows()!;
      const after = walk.volumeM3()!;
      // Not clamped at the ends here (it starts half full): each step moves net × 3 s.
      if (after > 0 && after < 240) expect(after - before).toBeCloseTo((flows.netM3h * 3) / 3600, 9);
      before = after;
    }
  });

  it('needs a tank for constant flows', () => {
    expect(() => new LevelWalk({ maxLevel: 5, constantFlows: { inflowM3h: 1, outflowM3h: 0 } })).toThrow(/tank/);
  });
});

describe('a distance sensor', () => {
  it('sends the distance from its mounting height down to the water, the inverse of the server’s conversion', () => {
    expect(sensorValue(2.2, { kind: 'distance', mountHeightM: 6 })).toBe(3.8);
    expect(sensorValue(2.2, { kind: 'distance', mountHeightM: 6, zeroOffsetM: 0.1 })).toBe(3.9);
    expect(levelFromSensor({ sensor: 'distance', mountHeightM: 6, zeroOffsetM: 0.1 }, 3.9)).toBeCloseTo(2.2, 9);
    expect(sensorValue(2.2, undefined)).toBe(2.2);
  });
});
