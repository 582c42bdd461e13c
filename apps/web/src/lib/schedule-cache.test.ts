import { describe, expect, it } from 'vitest';
import type { Schedule, ScheduleRun } from '@agua/shared';
import { applyScheduleRun, removeSchedule, upsertSchedule, type ScheduleRunPages } from './schedule-cache';

const run = (id: string, plannedAt: string, over: Partial<ScheduleRun> = {}): ScheduleRun => ({
  id,
  scheduleId: 's1',
  deviceId: 'g1',
  action: 'abrir',
  trigger: 'time',
  plannedAt,
  ranAt: null,
  status: 'issued',
  commandId: null,
  reason: null,
  ...over,
});
const pages = (...lists: Array<[ScheduleRun[], string | null]>): ScheduleRunPages => ({
  pages: lists.map(([items, nextCursor]) => ({ items, nextCursor })),
  pageParams: lists.map((_, i) => (i === 0 ? null : `c${i}`)),
});
const ids = (data: ScheduleRunPages) => data.pages.map((p) => p.items.map((r) => r.id));
const schedule = (id: string, time: string, name = `Abrir ${time}`) => ({ id, time, name }) as Schedule;

describe('run pages from schedule.run frames', () => {
  const a = run('a', '2026-11-28T06:00:00.000Z');
  const b = run('b', '2026-11-29T06:00:00.000Z');

  it('puts a new run first, newest planned first', () => {
    expect(ids(applyScheduleRun(pages([[b, a], null]), run('c', '2026-11-30T06:00:00.000Z')))).toEqual([['c', 'b', 'a']]);
  });

  it('puts a planned close-after (in the future) on top, and replaces it where it is when it goes', () => {
    const close = run('close', '2026-11-29T06:30:00.000Z', { trigger: 'duration', action: 'cerrar', status: 'pending' });
    const withClose = applyScheduleRun(pages([[b, a], null]), close);
    expect(ids(withClose)).toEqual([['close', 'b', 'a']]);
    const issued = { ...close, status: 'issued' as const, commandId: 'cmd_1' };
    const after = applyScheduleRun(withClose, issued);
    expect(ids(after)).toEqual([['close', 'b', 'a']]);
    expect(after.pages[0]!.items[0]).toBe(issued);
    // A late 'pending' frame does not undo it.
    expect(applyScheduleRun(after, close).pages[0]!.items[0]).toBe(issued);
  });

  it("leaves a run older than everything loaded to 'Ver más', unless the list is complete", () => {
    const old = run('old', '2026-11-01T06:00:00.000Z');
    expect(ids(applyScheduleRun(pages([[b, a], 'cursor']), old))).toEqual([['b', 'a']]);
    expect(ids(applyScheduleRun(pages([[b, a], null]), old))).toEqual([['b', 'a', 'old']]);
  });
});

describe("a gate's schedule list", () => {
  it('keeps the order of the day, replacing a changed schedule', () => {
    const list = [schedule('x', '06:00'), schedule('y', '18:00')];
    expect(upsertSchedule(list, schedule('z', '12:00')).map((s) => s.id)).toEqual(['x', 'z', 'y']);
    expect(upsertSchedule(list, schedule('x', '20:00')).map((s) => s.id)).toEqual(['y', 'x']);
    expect(removeSchedule(list, 'x').map((s) => s.id)).toEqual(['y']);
  });
});
