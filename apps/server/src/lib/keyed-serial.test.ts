import { describe, expect, it } from 'vitest';
import { KeyedSerial } from './keyed-serial';

const tick = () => new Promise((r) => setImmediate(r));

describe('KeyedSerial', () => {
  it('runs one key’s work one at a time in order, other keys beside it, and goes on after a failure', async () => {
    const serial = new KeyedSerial();
    const log: string[] = [];
    const job = (name: string, fail = false) => async () => {
      log.push(`${name} start`);
      await tick();
      await tick();
      log.push(`${name} end`);
      if (fail) throw new Error(name);
      return name;
    };
    const a1 = serial.run('a', job('a1', true));
    const a2 = serial.run('a', job('a2'));
    const b1 = serial.run('b', job('b1'));
    await expect(a1).rejects.toThrow('a1');
    expect(await a2).toBe('a2');
    expect(await b1).toBe('b1');
    // a2 starts only after a1 ended (its failure included); b1 runs while a1 does.
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
  });
});
