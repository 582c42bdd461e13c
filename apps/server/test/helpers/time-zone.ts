import { afterAll } from 'vitest';

/**
 * Runs this test file in a time zone (the server's local days and the exports' local times follow
 * TZ), and gives the zone back after it: the test passes share their worker processes between
 * files (vitest `isolate: false`, docs/testing.md), so a zone left behind would reach the next file.
 */
export function useTimeZone(zone: string): void {
  const previous = process.env.TZ;
  process.env.TZ = zone;
  afterAll(() => {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  });
}
