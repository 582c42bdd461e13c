import { levelFromSensor } from '@agua/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LevelSensor } from './level-sensor';
import { createRng } from './rng';
import { TankModel } from './tank/tank-model';
import { RecordingIO, command } from './test-io';

describe('LevelSensor', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-22T10:00:00.000Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function sensor(io: RecordingIO, intervalMs = 3000) {
    return new LevelSensor({ id: 'esp32_nivel_01', tank: new TankModel({ maxLevel: 10, rng: createRng(1) }), io, intervalMs, restartDelayMs: 500 });
  }

  it('a distance sensor sends the distance down to its water, and logs the truth at debug', () => {
    const io = new RecordingIO();
    const debug: string[] = [];
    const flows = { inflowM3h: 120, inflowWanderM3h: 0, storms: null, demandM3h: 0, drainM3h: 0, pump: null };
    const geometry = { sensor: 'distance', mountHeightM: 12, zeroOffsetM: 0, shape: { kind: 'rectangular', areaM2: 24 } } as const;
    const tank = new TankModel({ maxLevel: 10, geometry, flows, initialFraction: 0.5, rippleM: 0 });
    const logger = { info: () => {}, warn: () => {}, error: () => {}, debug: (m: string) => debug.push(m) };
    const s = new LevelSensor({ id: 'esp32_nivel_01', tank, io, intervalMs: 3000, logger });
    s.start();
    vi.advanceTimersByTime(0);
    vi.advanceTimersByTime(60_000);
    s.stop();
    // 120 m³/h into 24 m² for a minute: 2 m³, 8.3 cm higher; the distance shrinks by as much.
    expect(io.sent[0]!.data.value).toBe(7);
    expect(io.sent.at(-1)!.data.value).toBe(Math.round((12 - 5 - 2 / 24) * 100) / 100);
    expect(levelFromSensor(tank.geometry, io.sent.at(-1)!.data.value as number)).toBeCloseTo(5 + 2 / 24, 2);
    expect(debug.at(-1)).toBe(`esp32_nivel_01: sends 6.92 · level ${(5 + 2 / 24).toFixed(3)} m · volume 122.0 m³ · in 120.0 m³/h · out 0.0 m³/h · net +120.0 m³/h`);
  });

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
