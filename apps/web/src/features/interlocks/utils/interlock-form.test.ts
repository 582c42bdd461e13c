import { describe, expect, it } from 'vitest';
import type { Interlock } from '@agua/shared';
import { changeKind, formFieldOf, fromInterlock, guardableCommands, newCondition, newInterlockValues, parseDecimal, toPatch, validateInterlock } from './interlock-form';

const base = () => ({ ...newInterlockValues('compuerta', 'abrir'), name: 'Tanque no lleno' });

describe('the interlock form', () => {
  it('sends a level condition in m or in %, with a comma decimal', () => {
    const values = base();
    values.conditions = [{ ...newCondition('level', 'tanque'), op: '<=', value: '4,25' }, { ...newCondition('level', 'tanque'), unit: 'pct', value: '85', maxAgeS: '60' }];
    const checked = validateInterlock(values);
    expect(checked).toEqual({
      input: {
        deviceId: 'compuerta',
        command: 'abrir',
        name: 'Tanque no lleno',
        mode: 'block',
        enabled: true,
        conditions: [
          { kind: 'level', deviceId: 'tanque', op: '<=', valueM: 4.25 },
          { kind: 'level', deviceId: 'tanque', op: '<', pct: 85, maxAgeS: 60 },
        ],
      },
    });
  });

  it('sends alarm, gate state and presence conditions', () => {
    const values = base();
    values.conditions = [
      { ...newCondition('alarm', 'tanque'), alarmKind: 'level_high', priorityAtMost: '2' },
      { ...newCondition('alarm', 'tanque') },
      { ...newCondition('gate_state', 'otra'), states: ['cerrada', 'abierta'] },
      newCondition('online', 'otra'),
    ];
    const checked = validateInterlock(values);
    expect('input' in checked && checked.input.conditions).toEqual([
      { kind: 'alarm', deviceId: 'tanque', active: false, alarmKind: 'level_high', priorityAtMost: 2 },
      { kind: 'alarm', deviceId: 'tanque', active: false },
      { kind: 'gate_state', deviceId: 'otra', in: ['cerrada', 'abierta'] },
      { kind: 'online', deviceId: 'otra' },
    ]);
  });

  it('says what is missing at each field, leaving value limits to the server', () => {
    const values = { ...base(), name: '  ', conditions: [newCondition('level'), newCondition('gate_state', 'otra'), { ...newCondition('level', 't'), value: '1500', maxAgeS: '1,5' }] };
    const checked = validateInterlock(values);
    expect('errors' in checked && Object.keys(checked.errors).sort()).toEqual(['conditions.0.deviceId', 'conditions.0.value', 'conditions.1.in', 'conditions.2.maxAgeS', 'name']);
  });

  it('reads an interlock back into the form and patches it on its version', () => {
    const interlock: Interlock = {
      id: 'ilk_1',
      deviceId: 'compuerta',
      command: 'cerrar',
      name: 'Aguas abajo',
      conditions: [{ kind: 'level', deviceId: 'tanque', op: '>', pct: 10 }],
      mode: 'confirm',
      enabled: false,
      version: 7,
      bypass: null,
      updatedAt: '2026-11-24T10:00:00.000Z',
    };
    const values = fromInterlock(interlock);
    expect(values.conditions[0]).toMatchObject({ kind: 'level', unit: 'pct', value: '10', op: '>' });
    const checked = validateInterlock(values);
    if (!('input' in checked)) throw new Error('expected a valid form');
    expect(toPatch(checked.input, interlock.version)).toEqual({ version: 7, command: 'cerrar', name: 'Aguas abajo', mode: 'confirm', enabled: false, conditions: interlock.conditions });
  });

  it("keeps a row's device only when it fits the new kind", () => {
    const types: Record<string, 'level_sensor' | 'motorized_gate'> = { tanque: 'level_sensor', otra: 'motorized_gate' };
    const row = { ...newCondition('level', 'tanque'), value: '3' };
    expect(changeKind(row, 'alarm', (id) => types[id])).toMatchObject({ kind: 'alarm', deviceId: 'tanque', value: '', key: row.key });
    expect(changeKind(row, 'gate_state', (id) => types[id]).deviceId).toBe('');
  });

  it("puts the server's 422 at its field", () => {
    expect(formFieldOf('conditions[2].valueM')).toBe('conditions.2.value');
    expect(formFieldOf('conditions[0].pct')).toBe('conditions.0.value');
    expect(formFieldOf('conditions[1].in')).toBe('conditions.1.in');
    expect(formFieldOf('name')).toBe('name');
    expect(formFieldOf('something')).toBeNull();
    expect(formFieldOf(undefined)).toBeNull();
  });

  it('never offers detener, and parses decimals as typed here', () => {
    expect(guardableCommands('motorized_gate')).toEqual(['abrir', 'cerrar']);
    expect(parseDecimal(' 4,5 ')).toBe(4.5);
    expect(parseDecimal('4.5')).toBe(4.5);
    expect(parseDecimal('cuatro')).toBeNull();
    expect(parseDecimal('')).toBeNull();
  });
});
