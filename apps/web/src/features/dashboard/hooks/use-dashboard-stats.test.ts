import { describe, expect, it } from 'vitest';
import type { Device } from '@agua/shared';
import { computeDashboardStats } from './use-dashboard-stats';

const level = (id: string, status: Device['status'], readingStatus: string | null) =>
  ({ id, name: id, type: 'level_sensor', status, reading: readingStatus ? { value: 1, unit: 'm', status: readingStatus, ts: '2026-11-28T10:00:00Z' } : null }) as unknown as Device;

describe('dashboard tiles', () => {
  it('names the online level sensors whose reading is critical, and counts the rest as the seed did', () => {
    const stats = computeDashboardStats([level('a', 'online', 'critical'), level('b', 'offline', 'critical'), level('c', 'online', 'normal'), level('d', 'online', null)]);
    expect(stats.critical.map((d) => d.id)).toEqual(['a']);
    expect(stats).toMatchObject({ total: 4, online: 3, activeSensors: 2 });
  });
});
