import { describe, expect, it } from 'vitest';
import type { Command, Interlock } from '@agua/shared';
import { applyAwaitingCommand, applyBypassFrame, removeInterlock, runningBypasses, upsertInterlock } from './interlock-cache';
import { delayBeforeRefresh, devicesInvolved, isTouched } from './permissive-refresh';

const interlock = (id: string, over: Partial<Interlock> = {}): Interlock => ({
  id,
  deviceId: 'compuerta',
  command: 'abrir',
  name: id,
  conditions: [{ kind: 'level', deviceId: 'tanque', op: '<', valueM: 4 }],
  mode: 'block',
  enabled: true,
  version: 1,
  bypass: null,
  updatedAt: '2026-11-24T10:00:00.000Z',
  ...over,
});
const bypass = (until: string) => ({ until, by: { id: 'u1', username: 'admin', name: 'María González' }, comment: 'Mantenimiento' });

const command = (id: string, status: Command['status'], issuedAt = '2026-11-24T10:00:00.000Z'): Command => ({
  id,
  deviceId: 'compuerta',
  command: 'abrir',
  status,
  issuedBy: { kind: 'user', id: 'u2', username: 'operator', name: 'Juan Pérez' },
  issuedAt,
  deliveredAt: null,
  completedAt: null,
  message: null,
  comment: null,
  approvedBy: null,
  approvedAt: null,
  approvalExpiresAt: null,
  overrides: [],
});

describe('the interlock list from interlock frames', () => {
  it('puts a new one in order of device, command and name', () => {
    const list = [interlock('b', { name: 'B' }), interlock('z', { deviceId: 'otra', name: 'Z' })];
    expect(upsertInterlock(list, interlock('a', { name: 'A' })).map((i) => i.id)).toEqual(['a', 'b', 'z']);
  });

  it('replaces a known one, but never with an older version', () => {
    const list = [interlock('a', { version: 3, name: 'nuevo' })];
    expect(upsertInterlock(list, interlock('a', { version: 2, name: 'viejo' }))[0]!.name).toBe('nuevo');
    expect(upsertInterlock(list, interlock('a', { version: 4, name: 'otro' }))[0]!.name).toBe('otro');
  });

  it('drops a removed one', () => {
    expect(removeInterlock([interlock('a'), interlock('b')], 'a').map((i) => i.id)).toEqual(['b']);
  });
});

describe('the bypass banner', () => {
  const now = Date.parse('2026-11-24T10:00:00.000Z');

  it('takes an interlock whose bypass began and drops it when the bypass ends', () => {
    const on = applyBypassFrame([], interlock('a', { version: 2, bypass: bypass('2026-11-24T11:00:00.000Z') }));
    expect(on.map((i) => i.id)).toEqual(['a']);
    expect(applyBypassFrame(on, interlock('a', { version: 3 }))).toEqual([]);
  });

  it('keeps a newer bypass when an older frame comes late', () => {
    const on = [interlock('a', { version: 5, bypass: bypass('2026-11-24T11:00:00.000Z') })];
    expect(applyBypassFrame(on, interlock('a', { version: 4 }))).toHaveLength(1);
  });

  it('shows only bypasses still running, the first to end first, without waiting for a frame', () => {
    const list = [
      interlock('late', { bypass: bypass('2026-11-24T12:00:00.000Z') }),
      interlock('soon', { bypass: bypass('2026-11-24T10:30:00.000Z') }),
      interlock('over', { bypass: bypass('2026-11-24T09:59:59.000Z') }),
    ];
    expect(runningBypasses(list, now).map((i) => i.id)).toEqual(['soon', 'late']);
    expect(runningBypasses(list, Date.parse('2026-11-24T10:30:00.000Z')).map((i) => i.id)).toEqual(['late']);
  });
});

describe('commands waiting for approval', () => {
  it('adds a waiting one, oldest first, and drops it once approved, rejected or expired', () => {
    let list = applyAwaitingCommand([], command('b', 'awaiting_approval', '2026-11-24T10:05:00.000Z'));
    list = applyAwaitingCommand(list, command('a', 'awaiting_approval', '2026-11-24T10:01:00.000Z'));
    expect(list.map((c) => c.id)).toEqual(['a', 'b']);
    for (const status of ['pending', 'rejected', 'expired', 'superseded'] as const) {
      expect(applyAwaitingCommand(list, command('a', status)).map((c) => c.id)).toEqual(['b']);
    }
  });

  it('ignores another command', () => {
    const list = [command('a', 'awaiting_approval')];
    expect(applyAwaitingCommand(list, command('x', 'succeeded'))).toEqual(list);
  });
});

describe('when a permissive check is asked again', () => {
  const list = [
    interlock('a', { conditions: [{ kind: 'level', deviceId: 'tanque', op: '<', valueM: 4 }, { kind: 'online', deviceId: 'compuerta' }] }),
    interlock('b', { command: 'cerrar', conditions: [{ kind: 'gate_state', deviceId: 'otra', in: ['cerrada'] }] }),
    interlock('c', { enabled: false, conditions: [{ kind: 'online', deviceId: 'apagado' }] }),
  ];

  it("depends on the devices its enabled interlocks' conditions name", () => {
    expect([...devicesInvolved(list, 'compuerta', 'abrir')].sort()).toEqual(['compuerta', 'tanque']);
    expect([...devicesInvolved(list, 'compuerta', 'cerrar')]).toEqual(['otra']);
    expect(devicesInvolved(list, 'compuerta', 'detener').size).toBe(0);
  });

  it('is touched by a frame of one of them; anything touches it while the interlocks are unknown', () => {
    expect(isTouched(new Set(['tanque']), new Set(['tanque', 'x']))).toBe(true);
    expect(isTouched(new Set(['tanque']), new Set(['x']))).toBe(false);
    expect(isTouched('all', new Set(['x']))).toBe(true);
    expect(isTouched('all', new Set())).toBe(false);
  });

  it('is asked at most once every few seconds', () => {
    expect(delayBeforeRefresh(10_000, 16_000, 5_000)).toBe(0);
    expect(delayBeforeRefresh(10_000, 12_000, 5_000)).toBe(3_000);
  });
});
