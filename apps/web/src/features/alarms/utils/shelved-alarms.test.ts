import { describe, expect, it } from 'vitest';
import type { Alarm } from '@agua/shared';
import { shelvingLeft, splitShelved } from './shelved-alarms';

const a = (id: string, state: Alarm['state'], shelvedUntil: string | null = null) => ({ id, state, shelvedUntil }) as Alarm;

describe('splitShelved', () => {
  it('keeps the active ones in their order and lists the shelved apart, ending soonest first', () => {
    const { active, shelved } = splitShelved([
      a('1', 'unack'),
      a('2', 'shelved', '2026-11-24T12:30:00Z'),
      a('3', 'ack'),
      a('4', 'shelved', '2026-11-24T12:05:00Z'),
      a('5', 'rtn_unack'),
    ]);
    expect(active.map((x) => x.id)).toEqual(['1', '3', '5']);
    expect(shelved.map((x) => x.id)).toEqual(['4', '2']);
  });
});

describe('shelvingLeft', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  it('minutes, then hours and minutes, rounded up; past its end it says so', () => {
    expect(shelvingLeft('2026-11-24T12:29:10Z', now)).toBe('quedan 30 min');
    expect(shelvingLeft('2026-11-24T14:05:00Z', now)).toBe('quedan 2 h 5 min');
    expect(shelvingLeft('2026-11-24T13:00:00Z', now)).toBe('quedan 1 h');
    expect(shelvingLeft('2026-11-24T11:59:00Z', now)).toBe('vence ahora');
  });
});
