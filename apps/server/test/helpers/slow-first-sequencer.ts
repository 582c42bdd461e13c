import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that wait for real time (a whole minute, an instance's 10 s of silence, a process
 * killed and started again), longest first, as measured on the 2-core machine (BENCHMARKS.md
 * "npm test"). Without a cache of earlier runs — a clean clone, i.e. CI — vitest starts the
 * largest files first, and a short file that waits a minute (cluster/reports, ~60 s) started
 * last while the other worker had nothing left to do: ~40 s of one idle core at the end of the
 * pass. Started first, these run beside the many short files instead.
 */
export const SLOW_FILES = [
  'apps/server/test/cluster/failures.test.ts',
  'apps/server/test/postgres/postgres-faults.test.ts',
  'apps/server/test/cluster/reports.test.ts',
  'apps/server/test/external-broker/durability.test.ts',
  'apps/server/test/firmware/virtual-board.test.ts',
  'apps/server/test/commands/http-lifecycle.test.ts',
  'apps/server/test/reports/report-crash.sqlite.test.ts',
  'apps/server/test/users/hardening.test.ts',
  'apps/server/test/water/simulated-tank.test.ts',
  'apps/server/test/users/user-create-cli.test.ts',
  'apps/server/test/notifications/notifications.test.ts',
  'apps/server/test/notifications/outbox-crash.test.ts',
  'apps/server/test/reports/report-schedule.test.ts',
  'apps/server/test/commands/mqtt-lifecycle.test.ts',
];

/** vitest's own order (failed, then longest by its cache, else largest), with SLOW_FILES ahead of it. */
export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const path = spec.moduleId.replaceAll('\\', '/');
      const index = SLOW_FILES.findIndex((f) => path.endsWith(`/${f}`));
      return index === -1 ? SLOW_FILES.length : index;
    };
    // Array.prototype.sort is stable: the other files keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
