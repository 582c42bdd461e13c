import { describe, expect, it } from 'vitest';
import { judgeInterlocks, type ConditionDevice, type ConditionFacts, type InterlockRule } from './interlocks';

const NOW = Date.parse('2026-11-29T10:00:00Z');
const tank: ConditionDevice = { name: 'Tanque', online: true, enabled: true, maxLevel: 5, offlineAfterS: 15, reading: { value: 4.62, status: 'normal', tsMs: NOW - 1000 }, gateState: null };
const facts = (over: Partial<ConditionDevice> = {}): ConditionFacts => ({ nowMs: NOW, device: (id) => (id === 't' ? { ...tank, ...over } : undefined), activeAlarms: () => [] });
const rule = (id: string, mode: InterlockRule['mode'], op: '<' | '<=' | '>' | '>=', valueM: number, extra: Partial<InterlockRule> = {}): InterlockRule => ({
  id,
  name: id,
  mode,
  version: 1,
  enabled: true,
  bypass: null,
  conditions: [{ kind: 'level', deviceId: 't', op, valueM }],
  ...extra,
});

describe('judgeInterlocks', () => {
  it('says each failed comparison with its negated sign, two decimals in Spanish', () => {
    const v = judgeInterlocks([rule('a', 'block', '<', 4.25), rule('b', 'block', '<=', 4.62), rule('c', 'block', '>', 4.62), rule('d', 'block', '>=', 5)], facts());
    expect(v.reasons.map((r) => r.message)).toEqual([
      'Bloqueado: Tanque en nivel alto (4,62 m ≥ 4,25 m)',
      'Bloqueado: Tanque en nivel bajo (4,62 m ≤ 4,62 m)',
      'Bloqueado: Tanque en nivel bajo (4,62 m < 5,00 m)',
    ]);
    expect(v.allowed).toBe(false);
  });

  it('adds every failed mode’s demand; the verdict’s mode is the strictest; reasons the strictest first', () => {
    const v = judgeInterlocks([rule('c', 'confirm', '<', 1), rule('r', 'reauth', '<', 1), rule('t', 'two_person', '<', 1), rule('ok', 'block', '<', 10)], facts());
    expect(v).toMatchObject({ allowed: true, mode: 'two_person', requires: { comment: true, password: true, approval: true } });
    expect(v.reasons.map((r) => r.mode)).toEqual(['two_person', 'reauth', 'confirm']);
    expect(v.overrides.map((o) => o.mode)).toEqual(['confirm', 'reauth', 'two_person']);
  });

  it('ignores a disabled interlock; a bypassed one holds (recorded as passed by bypass) until its time', () => {
    const until = new Date(NOW + 60_000).toISOString();
    const v = judgeInterlocks([rule('off', 'block', '<', 1, { enabled: false }), rule('by', 'block', '<', 1, { bypass: { until } })], facts());
    expect(v).toMatchObject({ allowed: true, mode: null, reasons: [], bypassed: [{ interlockId: 'by', until }], overrides: [{ interlockId: 'by', mode: 'bypass' }] });
    const late = judgeInterlocks([rule('by', 'block', '<', 1, { bypass: { until: new Date(NOW).toISOString() } })], facts());
    expect(late.allowed).toBe(false);
  });

  it('a percentage compares with maxLevel; no reading, a fault one or an old one never holds', () => {
    const pct: InterlockRule = { ...rule('p', 'block', '<', 0), conditions: [{ kind: 'level', deviceId: 't', op: '<', pct: 80 }] };
    expect(judgeInterlocks([pct], facts()).allowed).toBe(false); // 4.62 ≥ 4.00
    expect(judgeInterlocks([pct], facts({ reading: { value: 3.9, status: 'normal', tsMs: NOW } })).allowed).toBe(true);
    for (const reading of [null, { value: 1, status: 'fault', tsMs: NOW }, { value: 1, status: 'normal', tsMs: NOW - 16_000 }]) {
      expect(judgeInterlocks([pct], facts({ reading })).reasons[0]!.message).toBe('Bloqueado: Tanque sin lectura válida reciente');
    }
  });
});
