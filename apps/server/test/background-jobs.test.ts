// The server's background work is one list, started when it is ready and stopped when it closes
// (docs/architecture.md "Background work has one list"), with a last lastSeen flush at shutdown.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoKey, startServer, tempDataDir } from './helpers/server';

describe('background jobs', () => {
  it('are the ones the docs name, and stopping flushes what was heard', async () => {
    const dataDir = tempDataDir();
    const s = await startServer({}, { dataDir });
    expect(s.jobs.names()).toEqual([
      'commands',
      'alarm engine',
      'notification sender',
      'notification escalation',
      'notification recipients',
      'command lifecycle (timeouts, re-delivery, approvals expired)',
      'interlock bypass expiry',
      'gate schedules',
      'device offline sweep',
      'lastSeen flush',
      'expired sessions',
      'expired seqs',
      'readings retention',
      'daily totals',
      'overflow events progress',
      'overflow events catch-up',
      'water hours',
      'report schedule',
      'report runs',
      'free disk space',
      'audit summaries',
    ]);
    // A poll without readings: the device is heard, and only memory knows it until a flush.
    const polled = await s.fetch('/api/v1/devices/esp32_compuerta_02/commands?wait=0', { headers: { 'x-api-key': demoKey('esp32_compuerta_02') } });
    expect(polled.status).toBe(200);
    const heard = s.modules.devices.service.get('esp32_compuerta_02')!.lastSeenMs;
    expect(heard).toBeGreaterThan(Date.now() - 5_000);
    await s.close();

    const again = await startServer({}, { dataDir });
    try {
      expect(again.modules.devices.service.get('esp32_compuerta_02')!.lastSeenMs).toBe(heard);
    } finally {
      await again.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
