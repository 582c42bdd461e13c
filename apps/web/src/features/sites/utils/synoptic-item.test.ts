import { describe, expect, it } from 'vitest';
import type { Alarm, Device, SynopticItem } from '@agua/shared';
import { describeItem, readingOrder } from './synoptic-item';

const NOW = Date.parse('2026-11-29T10:00:00.000Z');
const item = (over: Partial<SynopticItem> = {}): SynopticItem => ({ id: 'i1', symbol: 'tank', deviceId: 'tank1', x: 0, y: 0, w: 100, h: 200, label: '', rotation: 0, ...over });

function tank(value: number, secondsAgo: number, over: Partial<Device> = {}): Device {
  return {
    id: 'tank1',
    name: 'Sensor Nivel Agua Limpia',
    type: 'level_sensor',
    status: 'online',
    config: { maxLevel: 5, warningPct: 60, criticalPct: 85 },
    reading: { ts: new Date(NOW - secondsAgo * 1000).toISOString(), value, unit: 'm', status: 'normal' },
    analytics: null,
    siteId: 's1',
    ...over,
  } as unknown as Device;
}

describe('describeItem', () => {
  it('names a tank by what it shows: value, fill and age', () => {
    const view = describeItem(item(), tank(3.42, 5), [], NOW);
    expect(view.level?.percent).toBeCloseTo(68.4);
    expect(view.stale).toBe(false);
    expect(view.accessibleName).toMatch(/^Sensor Nivel Agua Limpia: 3[,.]42 m · 68 %, hace 5 s$/);
  });

  it('greys an old value and says so, without a fill', () => {
    const view = describeItem(item(), tank(3.42, 600), [], NOW);
    expect(view.stale).toBe(true);
    expect(view.level?.percent).toBeNull();
    expect(view.staleText).toBe('Dato antiguo');
    expect(view.lines[0]).toMatch(/^Último valor 3[,.]42 m$/);
  });

  it('adds the worst active alarm and the count', () => {
    const alarms = [
      { deviceId: 'tank1', priority: 2, state: 'unack' },
      { deviceId: 'tank1', priority: 1, state: 'ack' },
      { deviceId: 'other', priority: 1, state: 'unack' },
    ] as Alarm[];
    expect(describeItem(item(), tank(4.9, 1), alarms, NOW).alarm).toEqual({ priority: 1, text: 'Crítica · 2 alarmas' });
  });

  it("says 'Dispositivo eliminado' for a device that is gone", () => {
    const view = describeItem(item({ label: 'Depósito' }), null, [], NOW);
    expect(view.deleted).toBe(true);
    expect(view.accessibleName).toBe('Depósito: Dispositivo eliminado');
  });

  it('orders the phone list top to bottom, then left to right', () => {
    const order = readingOrder([item({ id: 'b', y: 100, x: 0 }), item({ id: 'c', y: 100, x: 50 }), item({ id: 'a', y: 0, x: 300 })]);
    expect(order.map((i) => i.id)).toEqual(['a', 'b', 'c']);
  });
});
