/** One HTTP load shape measured as a figure: warm-up, then each measured run right after its ceilings. */
import { type Ceiling, measureCeilings, versus } from './ceilings';
import type { BenchDevice, LevelPattern } from './devices';
import { httpLine, recordHttp } from './figure-lines';
import { runHttpLoad } from './http-load';
import { CONNECTIONS, DURATION_S, RUNS, WARMUP_S } from './options';
import { measured, openProbes, say, subjectOf } from './bench-run';
import type { RunningServer } from './server-process';

/**
 * Warm-up + measured runs of one HTTP load shape, each measured run right after a run of each
 * ceiling. Returns the acknowledged readings (incl. warm-up).
 */
export async function httpFigure(
  srv: RunningServer,
  key: string,
  profileKey: string,
  devices: BenchDevice[],
  batch: number,
  opts: { rotateDevices?: boolean; ceilings?: Ceiling[]; level?: LevelPattern } = {},
): Promise<{ acknowledged: number; invocations: number }> {
  const base = { baseUrl: srv.httpUrl, connections: CONNECTIONS, batchSize: batch, devices, rotateDevices: opts.rotateDevices ?? false, ...(opts.level ? { level: opts.level } : {}) };
  const ceilings = opts.ceilings ?? [];
  const subject = subjectOf(srv);
  openProbes.add(subject);
  let acknowledged = 0;
  for (const c of ceilings) if (!c.after) await c.warmUp();
  const warm = await runHttpLoad({ ...base, durationS: WARMUP_S });
  acknowledged += warm.acceptedSum;
  for (const c of ceilings) if (c.after) await c.warmUp(warm.acceptedSum);
  for (let i = 0; i < RUNS; i++) {
    const bounds = await measureCeilings(ceilings, i);
    const { result: r, extra } = await measured(subject, profileKey, () => runHttpLoad({ ...base, durationS: DURATION_S }));
    acknowledged += r.acceptedSum;
    say(httpLine(key, i, r, extra, batch));
    for (const c of ceilings) if (c.after) bounds.set(c.key, await c.measure(i, r.acceptedSum));
    recordHttp(key, r, extra, versus(r.readingsPerS, r.p99, bounds));
  }
  return { acknowledged, invocations: RUNS + 1 };
}
