/**
 * Ceilings: what the same load gets from bare parts (an empty Fastify route, raw better-sqlite3,
 * psql COPY, bare Aedes, Mosquitto). Each one is measured right before each measured run of the
 * figure it bounds, so that both see the same machine; the figure records its ratio to each
 * (`vs <key>`, `p99 vs <key>`).
 */
import { type BenchDevice, type LevelPattern } from './devices';
import { httpLine, mqttLine, recordHttp, recordMqtt } from './figure-lines';
import { runHttpLoad } from './http-load';
import { RelaySubscriber, mosquittoAvailable, mosquittoVersion, startMosquitto } from './mosquitto';
import { MqttFleet } from './mqtt-load';
import { BATCH, CONNECTIONS, DURATION_S, MQTT_CLIENTS, MQTT_WINDOW, RUNS, WARMUP_S } from './options';
import { PG_ADMIN_URL } from './options';
import { Composite, PgCopyWriter, REAPED_CHILDREN, walProbe } from './postgres';
import { RawSqliteWriter } from './raw-sqlite';
import { type Metrics, QUIET_CORES, cpuText, measured, notes, openProbes, record, say, servers } from './bench-run';
import { type Measurable, type RunningServer, SELF } from './server-process';
import { fmtInt, fmtMs, fmtPct } from './stats';

export interface Bound {
  /** Readings (or messages) per second, and p99 latency, of the ceiling's run. */
  rate: number;
  p99: number;
}
export interface Ceiling {
  key: string;
  /**
   * Measured right after each run of its figure instead of before, given the readings that run
   * stored (`rows`), so that it handles the same number of rows (pg-copy).
   */
  after?: boolean;
  warmUp(rows?: number): Promise<unknown>;
  /** One measured run, printed and recorded. */
  measure(i: number, rows?: number): Promise<Bound>;
  close(): Promise<void>;
}

export const RAW_SQLITE = `raw-sqlite-${BATCH}`;
export const PG_COPY = 'pg-copy';

export async function measureCeilings(ceilings: Ceiling[], i: number): Promise<Map<string, Bound>> {
  const bounds = new Map<string, Bound>();
  for (const c of ceilings) if (!c.after) bounds.set(c.key, await c.measure(i));
  return bounds;
}

export function versus(rate: number, p99: number, bounds: Map<string, Bound>): Metrics {
  const out: Metrics = {};
  for (const [key, b] of bounds) {
    out[`vs ${key}`] = rate / b.rate;
    out[`p99 vs ${key}`] = p99 / b.p99;
  }
  return out;
}

/** A ceiling measured on its own (`--only ceiling`): warm-up, then --runs measured runs. */
export async function standalone(c: Ceiling): Promise<void> {
  await c.warmUp();
  for (let i = 0; i < RUNS; i++) await c.measure(i);
}

export function fakeDevices(prefix: string, n: number): BenchDevice[] {
  return Array.from({ length: n }, (_, i) => ({ id: `${prefix}_${String(i).padStart(3, '0')}`, key: `k${i}`, boot: 'c0ffee00', seq: 0 }));
}

/** The bare Fastify route, loaded exactly like the HTTP figure of the same batch size. */
export function fastifyCeiling(srv: RunningServer, batch: number): Ceiling {
  const key = `ceiling-${batch}`;
  const load = { baseUrl: srv.httpUrl, connections: CONNECTIONS, batchSize: batch, devices: fakeDevices('ceil', CONNECTIONS) };
  return {
    key,
    warmUp: () => runHttpLoad({ ...load, durationS: WARMUP_S }),
    async measure(i) {
      const { result: r, extra } = await measured(srv.child, 'ceiling', () => runHttpLoad({ ...load, durationS: DURATION_S }));
      say(httpLine(key, i, r, extra, batch));
      recordHttp(key, r, extra);
      return { rate: r.readingsPerS, p99: r.p99 };
    },
    close: async () => undefined,
  };
}

/** Plain better-sqlite3 writing the batch load's rows, one transaction per batch (in this process). */
export function rawSqliteCeiling(shape: { key?: string; devices?: number; level?: LevelPattern } = {}): Ceiling {
  const key = shape.key ?? RAW_SQLITE;
  const writer = new RawSqliteWriter(fakeDevices('raw', shape.devices ?? CONNECTIONS), BATCH, shape.level);
  return {
    key,
    warmUp: async () => writer.run(WARMUP_S),
    async measure(i) {
      const { result: r, extra } = await measured(SELF, key, async () => writer.run(DURATION_S));
      say(
        `  ${key} run ${i + 1}: ${fmtInt(r.readingsPerS)} readings/s, transaction p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}, CPU ${fmtPct(extra.serverCpu!)}, others ${extra.otherCores!.toFixed(2)} cores` +
          (extra.otherCores! >= QUIET_CORES ? ' [CONTENDED]' : '') +
          (Number.isFinite(extra.fsyncsPerS) ? `, ${fmtInt(extra.fsyncsPerS!)} fsync/s` : '') +
          (extra.diskBytesPerS! > 0 ? `, disk ${fmtInt(extra.diskBytesPerS! / r.readingsPerS)} B/reading` : ''),
      );
      record(key, {
        readingsPerS: r.readingsPerS,
        p50: r.p50,
        p99: r.p99,
        readingsPerFsync: r.readingsPerS / extra.fsyncsPerS!,
        cpuUs: (extra.serverCpu! / r.readingsPerS) * 1e6,
        diskBytes: extra.diskBytesPerS! / r.readingsPerS,
        ...extra,
      });
      return { rate: r.readingsPerS, p99: r.p99 };
    },
    close: async () => writer.close(),
  };
}


/**
 * The ceiling of the batch figure on PostgreSQL: psql \copy of the rows the batch load sends
 * into the same readings table of the batch server's database (which idles meanwhile), as many
 * rows as the batch run just before stored (standalone: --duration × 100,000), from as many
 * devices (`pgcopy_ceil_NNN`, ids as long as the figure's, kept apart from its count). Rows/s
 * over psql's whole run (start, connection, COPY, commit, exit); the stream is made beforehand.
 */
export function pgCopyCeiling(srv: RunningServer): Ceiling {
  const writer = new PgCopyWriter(srv.database!.url, fakeDevices('pgcopy_ceil', CONNECTIONS), BATCH);
  const subject = new Composite({ ...(servers.pgCluster ? { postgres: servers.pgCluster } : {}), psql: REAPED_CHILDREN }, walProbe(PG_ADMIN_URL));
  openProbes.add(subject);
  const rowsOf = (rows: number | undefined) => (rows && rows > 0 ? rows : Math.round(DURATION_S * 100_000));
  return {
    key: PG_COPY,
    after: true,
    warmUp: async (rows) => {
      const n = rowsOf(rows);
      return writer.copy(writer.rows(n), n);
    },
    async measure(i, rows) {
      const n = rowsOf(rows);
      const data = writer.rows(n);
      const { result: r, extra } = await measured(subject, PG_COPY, () => writer.copy(data, n));
      say(
        `  ${PG_COPY} run ${i + 1}: ${fmtInt(r.rowsPerS)} readings/s (${fmtInt(r.rows)} rows, ${fmtInt(data.length / 1024)} KiB of COPY text, in ${r.seconds.toFixed(2)} s), ` +
          `${cpuText(extra)}, WAL ${fmtInt(extra.diskBytesPerS! / r.rowsPerS)} B/reading`,
      );
      record(PG_COPY, {
        readingsPerS: r.rowsPerS,
        p50: NaN,
        p99: NaN,
        rows: r.rows,
        seconds: r.seconds,
        cpuUs: (extra.serverCpu! / r.rowsPerS) * 1e6,
        diskBytes: extra.diskBytesPerS! / r.rowsPerS,
        ...extra,
      });
      return { rate: r.rowsPerS, p99: NaN };
    },
    close: async () => undefined,
  };
}

/** A broker without storage, loaded exactly like the MQTT figure: bare Aedes, or Mosquitto. */
export function mqttCeiling(key: string, profileKey: string, subject: Measurable, fleet: MqttFleet, relay?: RelaySubscriber): Ceiling {
  let published = 0;
  const run = async (durationS: number) => {
    const r = await fleet.run(durationS, MQTT_WINDOW);
    published += r.acked + r.drained;
    return r;
  };
  return {
    key,
    warmUp: () => run(WARMUP_S),
    async measure(i) {
      const before = (await relay?.received()) ?? 0;
      const { result: r, extra } = await measured(subject, profileKey, () => run(DURATION_S));
      let relayed = '';
      if (relay) {
        const inRun = (await relay.received()) - before;
        // Let the subscriber catch up, so that the next run does not start on a backlog.
        const all = await relay.drain(published);
        relayed = `, relayed to the subscriber by the end of the run ${fmtPct(inRun / (r.acked + r.drained))}${all < published ? `, NOT ALL after 30 s (${fmtInt(published - all)} missing)` : ''}`;
      }
      say(mqttLine(key, i, r, extra) + relayed);
      recordMqtt(key, r, extra);
      return { rate: r.msgsPerS, p99: r.p99 };
    },
    async close() {
      await fleet.close();
      await relay?.close();
    },
  };
}

/** Mosquitto relaying to one subscriber; null (and a note) when the Debian package is missing. */
export async function mosquittoCeiling(): Promise<Ceiling | null> {
  if (!mosquittoAvailable()) {
    notes.push('mqtt: /usr/sbin/mosquitto is not installed (Debian package mosquitto): no Mosquitto ceiling, no verdict');
    return null;
  }
  const broker = await startMosquitto();
  try {
    const topic = 'agua/v1/+/telemetry';
    const relay = await RelaySubscriber.start(broker.port, topic);
    const fleet = await MqttFleet.connect(broker.port, fakeDevices('mosq', MQTT_CLIENTS), { authenticate: false });
    say(`  mosquitto: ${mosquittoVersion()} on port ${broker.port}, one mqtt.js subscriber on ${topic} (QoS 1)`);
    const ceiling = mqttCeiling('mosquitto', 'mosquitto', broker.child, fleet, relay);
    return { ...ceiling, close: () => ceiling.close().finally(() => broker.stop()) };
  } catch (err) {
    await broker.stop();
    throw err;
  }
}
