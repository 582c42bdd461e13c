import { describe, expect, it } from 'vitest';
import { mayShelveAlarm } from './alarm-shelving';

describe('mayShelveAlarm', () => {
  it('write (the default): anyone with write shelves any priority; a viewer none', () => {
    for (const priority of [1, 2, 3, 4]) {
      expect(mayShelveAlarm({ role: 'operator' }, priority, 'write')).toBe(true);
      expect(mayShelveAlarm({ role: 'admin' }, priority, 'write')).toBe(true);
      expect(mayShelveAlarm({ role: 'viewer' }, priority, 'write')).toBe(false);
    }
    expect(mayShelveAlarm(null, 4, 'write')).toBe(false);
  });

  it('admin: only an administrator shelves a Crítica alarm; the others keep priorities 2–4', () => {
    expect(mayShelveAlarm({ role: 'operator' }, 1, 'admin')).toBe(false);
    expect(mayShelveAlarm({ role: 'admin' }, 1, 'admin')).toBe(true);
    expect(mayShelveAlarm({ role: 'viewer' }, 1, 'admin')).toBe(false);
    for (const priority of [2, 3, 4]) expect(mayShelveAlarm({ role: 'operator' }, priority, 'admin')).toBe(true);
  });
});
