import { describe, expect, it } from 'vitest';
import type { Reading } from '@agua/shared';
import type { GateChanges } from '../api/get-device-readings';
import { buildGateSegments, segmentAt } from './gate-segments';

// Values are typed loosely on purpose: the builder must also survive a state it does not know.
const r = (ms: number, value: string): Reading => ({ ts: new Date(ms).toISOString(), value: value as Reading['value'], unit: null, status: value === 'falla' ? 'fault' : 'normal' });
const changes = (items: Reading[], toMs: number): GateChanges => ({ mode: 'changes', from: new Date(0).toISOString(), to: new Date(toMs).toISOString(), items, truncated: false });

describe('buildGateSegments', () => {
  it('turns changes into contiguous periods ending at `until`', () => {
    const s = buildGateSegments(changes([r(0, 'cerrada'), r(100, 'abriendo'), r(200, 'abierta')], 250), [], 1000);
    expect(s).toEqual([
      { startMs: 0, endMs: 100, state: 'cerrada' },
      { startMs: 100, endMs: 200, state: 'abriendo' },
      { startMs: 200, endMs: 1000, state: 'abierta' },
    ]);
  });

  it('continues with live readings after the answer, skipping repeats and unknown values', () => {
    const live = [r(100, 'cerrada'), r(300, 'abierta'), r(303, 'abierta'), r(306, 'nonsense'), r(400, 'falla')];
    const s = buildGateSegments(changes([r(0, 'abierta')], 250), live, 500);
    expect(s.map((x) => x.state)).toEqual(['abierta', 'falla']);
    expect(segmentAt(s, 420)?.state).toBe('falla');
    expect(segmentAt(s, 600)).toBeNull();
  });
});
