import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GATE_FAIL_MESSAGE, Gate, type GateBehaviour } from './gate';
import { RecordingIO, command } from './test-io';

const TRAVEL = 5000;
const INTERVAL = 3000;

describe('Gate', () => {
  let io: RecordingIO;
  let gate: Gate;

  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-22T10:00:00.000Z'));
    io = new RecordingIO();
  });
  afterEach(() => {
    gate?.stop();
    vi.useRealTimers();
  });

  function startGate(behaviour: GateBehaviour = 'normal', initialState: 'abierta' | 'cerrada' = 'cerrada') {
    gate = new Gate({ id: 'esp32_compuerta_01', io, behaviour, travelMs: TRAVEL, intervalMs: INTERVAL, initialState });
    gate.start();
    vi.advanceTimersByTime(0); // first report
    return gate;
  }

  it('demo: faults by itself now and then (falla), recovers after a while, and does it again', () => {
    const rng = () => 0.5; // every fault exactly meanEveryMs after the last recovery
    gate = new Gate({ id: 'esp32_compuerta_01', io, travelMs: TRAVEL, intervalMs: 60_000, spontaneousFaults: { meanEveryMs: 10_000, lastsMs: 4_000, rng } });
    gate.start();
    vi.advanceTimersByTime(0);
    vi.advanceTimersByTime(9_999);
    expect(io.values()).toEqual(['cerrada']);
    vi.advanceTimersByTime(1);
    expect(io.values()).toEqual(['cerrada', 'falla']);
    vi.advanceTimersByTime(4_000);
    expect(io.values()).toEqual(['cerrada', 'falla', 'cerrada']);
    vi.advanceTimersByTime(10_000);
    expect(io.values()).toEqual(['cerrada', 'falla', 'cerrada', 'falla']);
  });

  it('reports its state every interval', () => {
    startGate();
    vi.advanceTimersByTime(INTERVAL * 2);
    expect(io.values()).toEqual(['cerrada', 'cerrada', 'cerrada']);
    expect(io.sent.map((m) => m.seq)).toEqual([0, 1, 2]);
    expect(io.sent[0]).toMatchObject({ deviceId: 'esp32_compuerta_01', type: 'motorized_gate', data: { openPct: 0 } });
  });

  it("abrir: ack 'abriendo', reports 'abriendo' while moving, 'abierta' after the travel time", () => {
    startGate();
    gate.handleCommand(command('abrir', { id: 'cmd_a' }));
    expect(io.acks).toEqual([{ id: 'cmd_a', success: true, state: 'abriendo' }]);
    expect(io.last()?.data.value).toBe('abriendo'); // reported at once, not at the next tick
    vi.advanceTimersByTime(TRAVEL - 1);
    expect(gate.state).toBe('abriendo');
    expect(io.values().slice(1).every((v) => v === 'abriendo')).toBe(true);
    vi.advanceTimersByTime(1);
    expect(gate.state).toBe('abierta');
    expect(io.last()?.data).toMatchObject({ value: 'abierta', openPct: 100 });
    vi.advanceTimersByTime(INTERVAL);
    expect(io.last()?.data.value).toBe('abierta');
  });

  it('reports a change at once and restarts its interval, so no double report', () => {
    gate = new Gate({ id: 'esp32_compuerta_01', io, travelMs: 5000, intervalMs: 1000 });
    gate.start();
    vi.advanceTimersByTime(0);
    gate.handleCommand(command('abrir'));
    vi.advanceTimersByTime(5999);
    expect(io.values()).toEqual(['cerrada', 'abriendo', 'abriendo', 'abriendo', 'abriendo', 'abriendo', 'abierta']);
    vi.advanceTimersByTime(1);
    expect(io.values().at(-1)).toBe('abierta');
    expect(io.sent).toHaveLength(8);
  });

  it('acks the final state when already there, without moving', () => {
    startGate('normal', 'abierta');
    gate.handleCommand(command('abrir', { id: 'cmd_a' }));
    expect(io.acks).toEqual([{ id: 'cmd_a', success: true, state: 'abierta' }]);
    gate.handleCommand(command('detener', { id: 'cmd_d' }));
    expect(io.acks[1]).toEqual({ id: 'cmd_d', success: true, state: 'abierta' });
  });

  it("cerrar while opening turns back and travels only the distance covered", () => {
    startGate();
    gate.handleCommand(command('abrir'));
    vi.advanceTimersByTime(2000); // 40 % open
    gate.handleCommand(command('cerrar', { id: 'cmd_c' }));
    expect(io.acks.at(-1)).toEqual({ id: 'cmd_c', success: true, state: 'cerrando' });
    vi.advanceTimersByTime(1999);
    expect(gate.state).toBe('cerrando');
    vi.advanceTimersByTime(1);
    expect(gate.state).toBe('cerrada');
  });

  it("detener stops half way: a partly open gate reports 'abierta' with its openPct", () => {
    startGate();
    gate.handleCommand(command('abrir'));
    vi.advanceTimersByTime(2500);
    gate.handleCommand(command('detener', { id: 'cmd_d' }));
    expect(io.acks.at(-1)).toEqual({ id: 'cmd_d', success: true, state: 'abierta' });
    expect(io.last()?.data).toMatchObject({ value: 'abierta', openPct: 50 });
    vi.advanceTimersByTime(TRAVEL * 2);
    expect(gate.state).toBe('abierta');
    expect(gate.openPct).toBe(50);
    // Closing again takes half a stroke.
    gate.handleCommand(command('cerrar'));
    vi.advanceTimersByTime(TRAVEL / 2);
    expect(gate.state).toBe('cerrada');
  });

  it("detener while closing also leaves 'abierta' unless fully closed", () => {
    startGate('normal', 'abierta');
    gate.handleCommand(command('cerrar'));
    vi.advanceTimersByTime(4500); // 10 % open
    gate.handleCommand(command('detener'));
    expect(gate.state).toBe('abierta');
    expect(gate.openPct).toBe(10);
  });

  it('executes a command id once: a repeat is acked again but not executed', () => {
    startGate();
    const open = command('abrir', { id: 'cmd_once' });
    gate.handleCommand(open);
    vi.advanceTimersByTime(TRAVEL);
    gate.handleCommand(command('cerrar', { id: 'cmd_close' }));
    vi.advanceTimersByTime(TRAVEL);
    expect(gate.state).toBe('cerrada');
    gate.handleCommand(open); // the server re-publishes an unacknowledged command with the same id
    expect(gate.state).toBe('cerrada');
    vi.advanceTimersByTime(TRAVEL);
    expect(gate.state).toBe('cerrada');
    expect(io.acks.map((a) => a.id)).toEqual(['cmd_once', 'cmd_close', 'cmd_once']);
    expect(io.acks[2]).toEqual(io.acks[0]); // the same answer as the first time
  });

  it('ignores a command whose expiresAt has passed, or is unreadable', () => {
    startGate();
    gate.handleCommand(command('abrir', { ttlMs: -1 }));
    gate.handleCommand({ id: 'cmd_bad', command: 'abrir', issuedAt: '', expiresAt: 'soon' });
    vi.advanceTimersByTime(TRAVEL);
    expect(io.acks).toEqual([]);
    expect(gate.state).toBe('cerrada');
  });

  it("fail: acks success false with 'Motor bloqueado' and does not move", () => {
    startGate('fail');
    gate.handleCommand(command('abrir', { id: 'cmd_f' }));
    expect(io.acks).toEqual([{ id: 'cmd_f', success: false, message: GATE_FAIL_MESSAGE, state: 'cerrada' }]);
    vi.advanceTimersByTime(TRAVEL * 2);
    expect(gate.state).toBe('cerrada');
    expect(io.values().every((v) => v === 'cerrada')).toBe(true);
  });

  it('silent: never acks, never moves, keeps reporting', () => {
    startGate('silent');
    gate.handleCommand(command('abrir'));
    vi.advanceTimersByTime(INTERVAL * 4);
    expect(io.acks).toEqual([]);
    expect(gate.state).toBe('cerrada');
    expect(io.sent).toHaveLength(5);
  });

  it("stuck: acks, stays 'abriendo', reports 'falla' after its travel timeout", () => {
    startGate('stuck');
    gate.handleCommand(command('abrir', { id: 'cmd_s' }));
    expect(io.acks).toEqual([{ id: 'cmd_s', success: true, state: 'abriendo' }]);
    vi.advanceTimersByTime(TRAVEL);
    expect(gate.state).toBe('abriendo'); // never arrives
    vi.advanceTimersByTime(TRAVEL - 1);
    expect(gate.state).toBe('abriendo');
    vi.advanceTimersByTime(1); // default travel timeout: 2 × travel
    expect(gate.state).toBe('falla');
    expect(io.last()?.data.value).toBe('falla');
    expect(gate.openPct).toBe(0);
    // A new attempt clears the fault and tries again.
    gate.handleCommand(command('cerrar', { id: 'cmd_s2' }));
    expect(io.acks.at(-1)).toEqual({ id: 'cmd_s2', success: true, state: 'cerrada' });
  });

  it('refuses a command that is not a gate command', () => {
    startGate();
    gate.handleCommand(command('read', { id: 'cmd_r' }));
    expect(io.acks[0]).toMatchObject({ id: 'cmd_r', success: false, state: 'cerrada' });
  });
});
