import { describe, expect, it } from 'vitest';
import type { SynopticItem } from '@agua/shared';
import { clampItem, draftProblems, moveItem, placeNew, resizeItem, snap, svgBytes, symbolsFor, type Draft } from './synoptic-edit';

const item = (over: Partial<SynopticItem> = {}): SynopticItem => ({ id: 'i1', symbol: 'tank', deviceId: 'dev', x: 40, y: 40, w: 160, h: 200, label: '', rotation: 0, ...over });
const draft = (items: SynopticItem[] = []): Draft => ({ width: 1200, height: 800, background: { kind: 'grid' }, items });

describe('the editor grid', () => {
  it('snaps to 20 units', () => {
    expect(snap(29)).toBe(20);
    expect(snap(31)).toBe(40);
    expect(snap(-9)).toBe(-0);
  });

  it('moves by a step and stays inside the drawing', () => {
    expect(moveItem(item(), 20, 0, draft())).toMatchObject({ x: 60, y: 40 });
    expect(moveItem(item({ x: 0 }), -20, 0, draft())).toMatchObject({ x: 0 });
    expect(moveItem(item({ x: 1040 }), 20, 0, draft())).toMatchObject({ x: 1040 });
  });

  it('resizes, never below one step nor past the edge', () => {
    expect(resizeItem(item(), 0, 20, draft())).toMatchObject({ w: 160, h: 220 });
    expect(resizeItem(item({ h: 20 }), 0, -20, draft())).toMatchObject({ h: 20 });
    expect(clampItem(item({ x: 1100, w: 200 }), 1200, 800)).toMatchObject({ x: 1000, w: 200 });
  });

  it('places a new item in a free place', () => {
    const first = placeNew('tank', 'a', '', draft());
    const second = placeNew('gate', 'b', '', draft([first]));
    expect(first).toMatchObject({ x: 40, y: 40 });
    expect(second.x).toBeGreaterThanOrEqual(first.x + first.w);
  });
});

describe('draftProblems', () => {
  const devices = [
    { id: 'tank1', type: 'level_sensor' as const },
    { id: 'gate1', type: 'motorized_gate' as const },
  ];
  it('asks a tank or a gate for a device of its kind', () => {
    expect(draftProblems(draft([item({ deviceId: 'tank1' })]), devices)).toEqual([]);
    expect(draftProblems(draft([item({ deviceId: null })]), devices)).toHaveLength(1);
    expect(draftProblems(draft([item({ deviceId: 'gate1' })]), devices)[0]).toMatch(/no puede mostrar/);
  });
  it('knows which symbols show a device', () => {
    expect(symbolsFor({ type: 'level_sensor' })).toEqual(['tank', 'channel']);
    expect(symbolsFor(null)).toEqual(['channel', 'label']);
  });
  it('counts an SVG in UTF-8 bytes', () => {
    expect(svgBytes('ñ')).toBe(2);
  });
});
