import { describe, expect, it } from 'vitest';
import type { Report } from '@agua/shared';
import { NEW_REPORT_VALUES, parseEmails, toReportForm, validatePeriod, validateReport, type ReportFormValues } from './validate-report';

const values = (over: Partial<ReportFormValues> = {}): ReportFormValues => ({ ...NEW_REPORT_VALUES, name: 'Parte diario', ...over });

describe('report form', () => {
  it('makes the body of a daily report: only the time in its schedule', () => {
    expect(validateReport(values({ weekday: '3', dayOfMonth: '5' }))).toEqual({
      input: { name: 'Parte diario', kind: 'daily', deviceIds: null, formats: ['xlsx', 'pdf'], recipients: [], schedule: { time: '07:00' }, enabled: true },
    });
  });

  it('asks for a name and at least one format', () => {
    expect(validateReport(values({ name: '  ', formats: [] }))).toEqual({ errors: { name: 'Indique un nombre.', formats: 'Elija al menos un formato.' } });
  });

  it('asks for the weekday of a weekly schedule and the day of the month of a monthly or overflows one', () => {
    expect(validateReport(values({ kind: 'weekly', weekday: '' }))).toEqual({ errors: { weekday: 'Elija el día de la semana.' } });
    const weekly = validateReport(values({ kind: 'weekly', weekday: '5' }));
    expect('input' in weekly && weekly.input.schedule).toEqual({ time: '07:00', weekday: 5 });
    for (const kind of ['monthly', 'overflows'] as const) {
      expect(validateReport(values({ kind, dayOfMonth: '' }))).toEqual({ errors: { dayOfMonth: 'Indique un día del mes del 1 al 28.' } });
      expect(validateReport(values({ kind, dayOfMonth: '29' }))).toEqual({ errors: { dayOfMonth: 'Indique un día del mes del 1 al 28.' } });
      const monthly = validateReport(values({ kind, dayOfMonth: '28' }));
      expect('input' in monthly && monthly.input.schedule).toEqual({ time: '07:00', dayOfMonth: 28 });
    }
  });

  it('sends no schedule for an on-demand report, whatever the fields hold', () => {
    const r = validateReport(values({ scheduled: false, time: '', kind: 'weekly', weekday: '' }));
    expect('input' in r && r.input.schedule).toBeNull();
  });

  it('asks for a time when scheduled', () => {
    expect(validateReport(values({ time: '7' }))).toEqual({ errors: { time: 'Indique la hora (HH:MM).' } });
  });

  it('wants chosen devices when not all, and sends the users and addresses together', () => {
    expect(validateReport(values({ allDevices: false }))).toEqual({ errors: { deviceIds: 'Elija al menos un dispositivo, o «Todos los dispositivos».' } });
    const r = validateReport(values({ allDevices: false, deviceIds: ['a', 'b'], userIds: ['u1'], emails: 'jefa@agua.es, guardia@agua.es\njefa@agua.es', formats: ['pdf'] }));
    expect('input' in r && r.input).toMatchObject({ deviceIds: ['a', 'b'], recipients: ['u1', 'jefa@agua.es', 'guardia@agua.es'], formats: ['pdf'] });
  });

  it('names the addresses that are not addresses', () => {
    expect(validateReport(values({ emails: 'bien@agua.es\nmal@\notro' }))).toEqual({ errors: { recipients: 'No son direcciones de correo válidas: mal@, otro.' } });
  });

  it('splits the addresses on lines, commas and semicolons, each once', () => {
    expect(parseEmails(' a@b.es,\n\nC@d.es; a@B.es  e@f.es ')).toEqual(['a@b.es', 'C@d.es', 'e@f.es']);
  });

  it('shows a stored definition: users apart from addresses, the schedule in its fields', () => {
    const report: Report = {
      id: 'r1',
      name: 'Semanal',
      kind: 'weekly',
      deviceIds: ['d1'],
      formats: ['xlsx'],
      recipients: ['u1', 'jefa@agua.es'],
      schedule: { time: '06:30', weekday: 7 },
      enabled: false,
      createdAt: '2026-11-20T10:00:00.000Z',
    };
    expect(toReportForm(report)).toEqual({
      name: 'Semanal',
      kind: 'weekly',
      allDevices: false,
      deviceIds: ['d1'],
      formats: ['xlsx'],
      userIds: ['u1'],
      emails: 'jefa@agua.es',
      scheduled: true,
      time: '06:30',
      weekday: '7',
      dayOfMonth: '1',
      enabled: false,
    });
    expect(toReportForm({ ...report, schedule: null, deviceIds: null }).scheduled).toBe(false);
  });
});

describe("'Generar ahora' period", () => {
  const today = '2026-11-29';

  it('takes one day or a range up to a year and a day, today included', () => {
    expect(validatePeriod('2026-11-27', '2026-11-27', today)).toEqual({ period: { from: '2026-11-27', to: '2026-11-27' } });
    expect(validatePeriod('2024-01-01', '2024-12-31', today)).toEqual({ period: { from: '2024-01-01', to: '2024-12-31' } });
    expect(validatePeriod('2026-11-29', '2026-11-30', today)).toEqual({ period: { from: '2026-11-29', to: '2026-11-30' } });
  });

  it('refuses an empty day, a reversed range, more than 366 days and a start in the future', () => {
    expect(validatePeriod('', '', today)).toEqual({ errors: { from: 'Indique la fecha de inicio.', to: 'Indique la fecha de fin.' } });
    expect(validatePeriod('2026-11-28', '2026-11-27', today)).toEqual({ errors: { to: '«Hasta» no puede ser anterior a «Desde».' } });
    expect(validatePeriod('2025-01-01', '2026-01-02', today)).toEqual({ errors: { to: 'El periodo admite hasta 366 días.' } });
    expect(validatePeriod('2026-11-30', '2026-11-30', today)).toEqual({ errors: { from: 'El periodo no puede empezar en el futuro.' } });
  });
});
