import { describe, expect, it } from 'vitest';
import type { Schedule } from '@agua/shared';
import { ApiError } from '@/lib/api-client';
import { NEW_SCHEDULE_VALUES, namePlaceholder, scheduleFieldError, scheduleFormError, toScheduleForm, validateSchedule } from './schedule-form';

const saved: Schedule = {
  id: 'sch_1',
  deviceId: 'esp32_compuerta_01',
  name: 'Abrir 06:00',
  action: 'abrir',
  time: '06:00',
  days: [5, 1],
  durationMin: 30,
  enabled: true,
  suspendedUntil: null,
  alarmPriority: 2,
  timezone: 'UTC',
  nextRunAt: null,
  by: null,
};

describe('the schedule form', () => {
  it('sends every field, the default name made from the action and time when left empty', () => {
    expect(validateSchedule({ ...NEW_SCHEDULE_VALUES, time: '07:15', durationMin: '45' })).toEqual({
      body: { action: 'abrir', time: '07:15', days: [1, 2, 3, 4, 5, 6, 7], durationMin: 45, name: 'Abrir 07:15', alarmPriority: 3, enabled: true },
    });
    expect(validateSchedule({ ...NEW_SCHEDULE_VALUES, name: '  Riego  ' })).toMatchObject({ body: { name: 'Riego' } });
  });

  it('drops a duration with cerrar, and sends an empty choice of days for the server to judge', () => {
    expect(validateSchedule({ ...NEW_SCHEDULE_VALUES, action: 'cerrar', durationMin: '30', days: [] })).toMatchObject({ body: { action: 'cerrar', durationMin: null, days: [], name: 'Cerrar 06:00' } });
  });

  it('refuses a duration that is not a whole number; the range is the server’s', () => {
    expect(validateSchedule({ ...NEW_SCHEDULE_VALUES, durationMin: '1.5' })).toEqual({ errors: { durationMin: 'Un número entero de minutos.' } });
    expect(validateSchedule({ ...NEW_SCHEDULE_VALUES, durationMin: '5000' })).toMatchObject({ body: { durationMin: 5000 } });
  });

  it('shows a default name as the placeholder, so it follows a new time', () => {
    expect(toScheduleForm(saved)).toMatchObject({ name: '', days: [1, 5], durationMin: '30', alarmPriority: '2' });
    expect(toScheduleForm({ ...saved, name: 'Riego' }).name).toBe('Riego');
    expect(namePlaceholder({ action: 'cerrar', time: '18:30' })).toBe('Cerrar 18:30');
    expect(namePlaceholder({ action: 'abrir', time: '' })).toBe('Abrir 06:00');
  });

  it("puts the server's reason at the field it names", () => {
    const days = new ApiError(422, 'SCHEDULE_INVALID', 'Programación no válida.', { field: 'days', reason: 'Uno o más días de la semana.' });
    expect(scheduleFieldError(days)).toEqual({ field: 'days', message: 'Uno o más días de la semana.' });
    const gate = new ApiError(422, 'SCHEDULE_INVALID', 'Programación no válida.', { field: 'deviceId', reason: 'Como mucho 50 programaciones por compuerta.' });
    expect(scheduleFieldError(gate)).toBeNull();
    expect(scheduleFormError(gate)).toBe('Como mucho 50 programaciones por compuerta.');
    expect(scheduleFieldError(new ApiError(403, 'FORBIDDEN', 'No autorizado'))).toBeNull();
    expect(scheduleFormError(new ApiError(403, 'FORBIDDEN', 'No autorizado'))).toBe('No autorizado');
  });
});
