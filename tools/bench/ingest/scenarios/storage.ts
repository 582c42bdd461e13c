/** [storage] The server's SQLite readings writer alone, in this process: what storage costs without HTTP. */
import { processWriteBytes } from '../server-process';
import { DURATION_S, RUNS, WARMUP_S } from '../options';
import { record, say } from '../bench-run';
import { openStorageProbe } from '../storage-probe';
import { fmtInt, fmtMs } from '../stats';

export const STORAGE_GROUPS = [25, 5000];
export async function storage(): Promise<void> {
  say(`\n[storage] the server's SqliteReadingsWriter alone (real schema, WAL + synchronous=FULL), transactions of ${STORAGE_GROUPS.join(' and ')} readings, in this process`);
  const probe = await openStorageProbe({ synchronous: 'FULL' });
  try {
    for (const n of STORAGE_GROUPS) {
      probe.run(n, Math.min(WARMUP_S, 1));
      for (let i = 0; i < RUNS; i++) {
        const wb0 = processWriteBytes(process.pid);
        const r = probe.run(n, Math.min(DURATION_S, 2));
        const diskBytes = (processWriteBytes(process.pid) - wb0) / r.readings;
        say(
          `  storage-${n} run ${i + 1}: ${fmtInt(r.readingsPerS)} readings/s, ${fmtInt(r.commitsPerS)} commits/s, commit mean ${fmtMs(r.meanMs)}, p99 ${fmtMs(r.p99Ms)}, CPU ${r.cpuUsPerReading.toFixed(1)} µs/reading, disk ${fmtInt(diskBytes)} B/reading`,
        );
        record(`storage-${n}`, { readingsPerS: r.readingsPerS, p50: r.meanMs, p99: r.p99Ms, cpuUs: r.cpuUsPerReading, diskBytes });
      }
    }
  } finally {
    await probe.close();
  }
}
