import { describe, expect, it } from 'vitest';
import { formatBytes } from './format';

describe('formatBytes', () => {
  it.each([
    [0, '0 MB'],
    [312 * 2 ** 20 + 5, '312 MB'],
    [1023 * 2 ** 20, '1023 MB'],
    [1024 * 2 ** 20, '1 GB'],
    [79.46 * 2 ** 30, '79,4 GB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatBytes(bytes).replace(/\s/g, ' ')).toBe(text);
  });
});
