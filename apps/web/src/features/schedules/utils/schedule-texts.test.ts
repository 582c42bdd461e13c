import { describe, expect, it } from 'vitest';
import type { SchedulePreview } from '@agua/shared';
import { daysText, durationText, pendingClose, plannedCloseText, scheduleState, scheduleSummary, scheduleVerdict } from './schedule-texts';

const preview = (allowed: boolean, messages: string[] = []): SchedulePreview => ({
  timezone: 'UTC',
  items: [
    {
      at: '2026-11-30T06:00:00.000Z',
      action: 'abrir',
      closeAt: null,
      permissive: {
        allowed,
        mode: allowed ? null : 'block',
        reasons: messages.map((message, i) => ({ interlockId: `il${i}`, name: 'E', mode: 'block', deviceId: 'g', kind: 'level', message })),
      },
    },
  ],
});
const online = { status: 'online', enabled: true } as const;

describe('a schedule in words', () => {
  it('names the usual sets of days, else lists them in order', () => {
    expect(daysText([7, 1, 2, 3, 4, 5, 6])).toBe('Todos los días');
    expect(daysText([5, 4, 3, 2, 1])).toBe('Laborables');
    expect(daysText([6, 7])).toBe('Fines de semana');
    expect(daysText([5, 1, 3])).toBe('Lun, Mié, Vie');
    expect(daysText([7])).toBe('Dom');
    expect(daysText([])).toBe('Ningún día');
  });

  it('says the close-after of an abrir', () => {
    expect(durationText(30)).toBe('y cierra a los 30 min');
    expect(durationText(90)).toBe('y cierra a los 90 min (1 h 30 min)');
    expect(durationText(120)).toBe('y cierra a los 120 min (2 h)');
    expect(durationText(null)).toBeNull();
  });

  it('summarises action, time and days', () => {
    expect(scheduleSummary({ action: 'abrir', time: '06:00', days: [1, 2, 3, 4, 5] })).toBe('Abrir a las 06:00 · Laborables');
    expect(scheduleSummary({ action: 'cerrar', time: '01:15', days: [6] })).toBe('Cerrar a la 01:15 · Sáb');
  });

  it('tells active, disabled and suspended apart', () => {
    const now = Date.parse('2026-11-29T10:00:00.000Z');
    expect(scheduleState({ enabled: true, suspendedUntil: null, timezone: 'UTC' }, now)).toEqual({ label: 'Activa', tone: 'ok' });
    expect(scheduleState({ enabled: false, suspendedUntil: null, timezone: 'UTC' }, now)).toEqual({ label: 'Desactivada', tone: 'off' });
    expect(scheduleState({ enabled: true, suspendedUntil: '2026-11-30T08:00:00.000Z', timezone: 'UTC' }, now)).toEqual({ label: 'Suspendida hasta mañana 08:00', tone: 'warn' });
    expect(scheduleState({ enabled: true, suspendedUntil: '2026-11-28T08:00:00.000Z', timezone: 'UTC' }, now).label).toBe('Activa');
  });

  it("shows a planned close-after as 'Cierre previsto a las HH:MM'", () => {
    const now = Date.parse('2026-11-29T10:00:00.000Z');
    expect(plannedCloseText({ plannedAt: '2026-11-29T10:30:00.000Z' }, 'UTC', now)).toBe('Cierre previsto a las 10:30');
    expect(plannedCloseText({ plannedAt: '2026-11-29T10:30:00.000Z' }, 'Europe/Madrid', now)).toBe('Cierre previsto a las 11:30');
    const run = (status: 'pending' | 'issued', trigger: 'time' | 'duration') => ({ id: `${status}-${trigger}`, status, trigger }) as never;
    expect(pendingClose([run('issued', 'time'), run('pending', 'duration')])).toMatchObject({ id: 'pending-duration' });
    expect(pendingClose([run('issued', 'duration')])).toBeNull();
  });
});

describe('the verdict of the next run', () => {
  it("'Se ejecutará' when the preview allows it and the gate is online", () => {
    expect(scheduleVerdict({ enabled: true }, preview(true), online)).toEqual({ kind: 'run' });
  });

  it("'Se omitirá' with the interlocks' reasons", () => {
    expect(scheduleVerdict({ enabled: true }, preview(false, ['Bloqueado: nivel alto', 'Bloqueado: alarma activa']), online)).toEqual({
      kind: 'skip',
      reasons: ['Bloqueado: nivel alto', 'Bloqueado: alarma activa'],
    });
  });

  it('skips on an offline or disabled gate, which the preview does not judge, even before the preview came', () => {
    expect(scheduleVerdict({ enabled: true }, preview(true), { status: 'offline', enabled: true })).toEqual({ kind: 'skip', reasons: ['El dispositivo no está en línea.'] });
    expect(scheduleVerdict({ enabled: true }, undefined, { status: 'online', enabled: false })).toEqual({ kind: 'skip', reasons: ['El dispositivo no está en línea.'] });
  });

  it('says nothing for a disabled schedule, nor before the preview came', () => {
    expect(scheduleVerdict({ enabled: false }, preview(false, ['x']), online)).toEqual({ kind: 'off' });
    expect(scheduleVerdict({ enabled: true }, undefined, online)).toEqual({ kind: 'unknown' });
  });
});
