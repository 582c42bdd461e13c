/**
 * [batch…] HTTP batches of --batch readings from --connections connections, each against raw
 * better-sqlite3 (WAL, synchronous=FULL, one transaction per batch) writing the same rows, run for
 * run (target ≥ 1.0×). Four shapes (issue 27):
 * - batch: spread over devices, one device per connection;
 * - batch-one-device: ONE device from every connection (a device emptying its offline buffer over
 *   several connections, or a gateway forwarding one site's readings);
 * - batch-storm, batch-one-device-storm: the same under an alarm storm, every batch crossing the
 *   low, high and high-high bands (target within 10 % of the same shape without the storm).
 */
import { type Ceiling, PG_COPY, fastifyCeiling, pgCopyCeiling, rawSqliteCeiling } from '../ceilings';
import { ADMIN, type BenchDevice, type LevelPattern, api, levelValue, registerDevices, signIn, stormLevel } from '../devices';
import { httpFigure } from '../http-figure';
import { BATCH, CONNECTIONS, PG, GEOMETRY } from '../options';
import { COPY_COMMAND } from '../postgres';
import { profDirFor, say, servers, startServer, stopAndCheck } from '../bench-run';
import { type RunningServer, disposeServer } from '../server-process';

export type BatchScenario = 'batch' | 'batch-one-device' | 'batch-storm' | 'batch-one-device-storm';

interface BatchShape {
  /** Of the device ids (`<prefix>_000`…), which the check after the run counts. */
  prefix: string;
  oneDevice: boolean;
  storm: boolean;
}

const SHAPES: Record<BatchScenario, BatchShape> = {
  batch: { prefix: 'bench_batch', oneDevice: false, storm: false },
  'batch-one-device': { prefix: 'bench_one', oneDevice: true, storm: false },
  'batch-storm': { prefix: 'bench_storm', oneDevice: false, storm: true },
  'batch-one-device-storm': { prefix: 'bench_onestorm', oneDevice: true, storm: true },
};

/** The figure's key (`batch-100`, `batch-one-device-100`, …) and its raw SQLite ceiling's. */
export function batchKeys(scenario: BatchScenario): { figure: string; raw: string } {
  const suffix = scenario.slice('batch'.length);
  return { figure: `batch${suffix}-${BATCH}`, raw: `raw-sqlite${suffix}-${BATCH}` };
}

/** A device emptying its buffer starts far back, so its readings keep distinct times however long the run. */
const ONE_DEVICE_HISTORY_MS = 30 * 86_400_000;

/** The rules of a level sensor's storm: low, high and high-high on (low is off by default). */
const STORM_RULES = new Set(['level_low', 'level_high', 'level_high_high']);

export async function batch(scenario: BatchScenario): Promise<void> {
  const shape = SHAPES[scenario];
  const { figure, raw: rawKey } = batchKeys(scenario);
  const nDevices = shape.oneDevice ? 1 : CONNECTIONS;
  say(
    `\n[${scenario}] HTTP batches of ${BATCH} readings, ${CONNECTIONS} connections, ` +
      (shape.oneDevice ? 'all for ONE device' : 'one device each') +
      (shape.storm ? ', ALARM STORM (every batch crosses low, high and high-high; those rules on)' : '') +
      ', DEVICE_RATE_LIMIT=0',
  );
  const srv = await startServer({ cpuProfDir: profDirFor(scenario) });
  const level: LevelPattern = shape.storm ? stormLevel : levelValue;
  // SQLite: raw better-sqlite3 writing the same rows before each run; PostgreSQL: psql \copy of as many rows after it.
  const raw = PG ? null : rawSqliteCeiling({ key: rawKey, devices: nDevices, level });
  try {
    if (PG) say(`  ${PG_COPY}: psql -c "${COPY_COMMAND}" into this server's database, after each batch run, as many rows as it stored`);
    const admin = await signIn(srv.httpUrl, ADMIN);
    const { prefix } = shape;
    const devices = await registerDevices(srv.httpUrl, admin, prefix, nDevices, GEOMETRY);
    if (shape.oneDevice) devices[0]!.nextTs = Date.now() - ONE_DEVICE_HISTORY_MS;
    if (shape.storm) await enableStormRules(srv, admin, devices);
    const ceilings: Ceiling[] = [fastifyCeiling(servers.ceiling!, BATCH), raw ?? pgCopyCeiling(srv)];
    const { acknowledged, invocations } = await httpFigure(srv, figure, scenario, devices, BATCH, { ceilings, level });
    await stopAndCheck(srv, scenario, prefix, acknowledged, invocations * CONNECTIONS * BATCH);
  } finally {
    await raw?.close();
    await disposeServer(srv);
  }
}

async function enableStormRules(srv: RunningServer, admin: string, devices: BenchDevice[]): Promise<void> {
  for (const d of devices) {
    const rules = await api<Array<{ id: string; kind: string; enabled: boolean }>>(srv.httpUrl, admin, 'GET', `/devices/${d.id}/alarm-rules`);
    for (const r of rules) {
      if (STORM_RULES.has(r.kind) && !r.enabled) await api(srv.httpUrl, admin, 'PUT', `/devices/${d.id}/alarm-rules/${r.id}`, { enabled: true });
    }
  }
}
