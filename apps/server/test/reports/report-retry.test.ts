// docs/reports.md "Exactly once": an attempt that fails (here: a source that throws, as a database
// that went away does) is made again after the retry delay; the third failure ends the run as
// failed with the error's own words. The runner on the real storage, its sources made to fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { ReportRunner } from '../../src/features/reports/report-runner';
import type { ReportSources } from '../../src/features/reports/report-content';
import { ReportsRepository, type ReportRecord } from '../../src/features/reports/reports.repository';
import { waitFor } from '../helpers/protocol';
import { startServer, type TestServer } from '../helpers/server';

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger;

describe('a report attempt that fails', () => {
  let s: TestServer;
  let repo: ReportsRepository;
  beforeAll(async () => {
    s = await startServer();
    // The server's own runner would take these runs too: it is stopped, and this one is the test's.
    await s.modules.reports.runner.stop();
    repo = new ReportsRepository(s.modules.storage.db);
  });
  afterAll(async () => s?.close());

  const definition: ReportRecord = { id: 'rpt_t', name: 'Prueba', kind: 'daily', deviceIds: null, formats: ['xlsx'], recipients: [], schedule: null, enabled: true, createdAtMs: 0, enabledAtMs: 0, updatedAtMs: 0 };
  const sources = (failures: number): ReportSources => {
    let left = failures;
    return {
      devices: () => [{ id: 'esp32_compuerta_01', name: 'Compuerta', location: 'x', type: 'motorized_gate' }],
      dailyTotals: async () => [],
      alarmsRaised: async () => [],
      gateOperations: async () => [],
      overflowEvents: async () => {
        if (left-- > 0) throw new Error('la base de datos no responde');
        return [];
      },
      readingGaps: async () => [],
    };
  };
  const queue = async (id: string) => {
    await repo.insertRun({ id, reportId: 'rpt_t', definition, from: '2026-11-20', to: '2026-11-20', requestedBy: null, send: false, scheduleKey: null, createdAtMs: Date.now() });
  };

  it('is made again after the delay, and done', async () => {
    await queue('rrn_retry1');
    const runner = new ReportRunner({ repo, sources: sources(1), mail: async () => undefined, changed: () => undefined, log: silent, single: false, retryMs: 200 });
    await runner.tick();
    const waiting = (await repo.findRun('rrn_retry1'))!;
    expect(waiting).toMatchObject({ status: 'running', attempts: 1, error: 'la base de datos no responde' });
    expect(waiting.leaseUntilMs).toBeGreaterThan(Date.now());
    const done = await waitFor(async () => {
      await runner.tick();
      const run = (await repo.findRun('rrn_retry1'))!;
      return run.status === 'done' ? run : null;
    }, 5000, 100);
    expect(done).toMatchObject({ attempts: 2, error: null });
    expect(done!.files.map((f) => f.format)).toEqual(['xlsx']);
    await runner.stop();
  });

  it('fails with its error after the third attempt', async () => {
    await queue('rrn_retry2');
    const runner = new ReportRunner({ repo, sources: sources(10), mail: async () => undefined, changed: () => undefined, log: silent, single: false, retryMs: 100 });
    const failed = await waitFor(async () => {
      await runner.tick();
      const run = (await repo.findRun('rrn_retry2'))!;
      return run.status === 'failed' ? run : null;
    }, 5000, 50);
    expect(failed).toMatchObject({ attempts: 3, error: 'la base de datos no responde' });
    await runner.stop();
  });
});
