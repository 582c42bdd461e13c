import { describe, expect, it } from 'vitest';
import { DEFAULT_ESCALATION } from '@agua/shared';
import { toEscalationForm, validateEscalation, type EscalationFormValues } from './validate-escalation';

const base: EscalationFormValues = { maxPriority: '2', afterMin: '10', repeatMin: '', userIds: [], webhookIds: [] };

describe('validateEscalation', () => {
  it('round-trips the default policy', () => {
    expect(validateEscalation(toEscalationForm(DEFAULT_ESCALATION))).toEqual({ policy: DEFAULT_ESCALATION });
  });

  it('reads an empty repeat as no repeat, and a number as minutes', () => {
    expect(validateEscalation({ ...base, repeatMin: '  ' })).toEqual({ policy: { ...DEFAULT_ESCALATION } });
    expect(validateEscalation({ ...base, afterMin: ' 1 ', repeatMin: '1440', maxPriority: '4' })).toEqual({
      policy: { maxPriority: 4, afterMin: 1, repeatMin: 1440, userIds: [], webhookIds: [] },
    });
  });

  it.each(['0', '1441', '2.5', '-3', 'diez', '1e3'])('refuses %j minutes, in Spanish', (value) => {
    expect(validateEscalation({ ...base, afterMin: value })).toEqual({ errors: { afterMin: 'Los minutos sin reconocer deben ser un número entero entre 1 y 1440.' } });
    expect(validateEscalation({ ...base, repeatMin: value })).toHaveProperty('errors.repeatMin');
  });

  it('requires the minutes without acknowledgement', () => {
    expect(validateEscalation({ ...base, afterMin: '' })).toEqual({ errors: { afterMin: 'Indique los minutos sin reconocer.' } });
  });

  it('drops duplicate and unknown targets', () => {
    const known = { userIds: new Set(['u1']), webhookIds: new Set(['w1']) };
    expect(validateEscalation({ ...base, userIds: ['u1', 'u1', 'gone'], webhookIds: ['w1', 'deleted'] }, known)).toEqual({
      policy: { ...DEFAULT_ESCALATION, userIds: ['u1'], webhookIds: ['w1'] },
    });
  });

  it('refuses more than 50 targets', () => {
    const many = Array.from({ length: 51 }, (_, i) => `u${i}`);
    expect(validateEscalation({ ...base, userIds: many })).toHaveProperty('errors.userIds');
  });
});
