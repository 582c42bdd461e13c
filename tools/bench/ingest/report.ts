/** The results table at the end of the ingest bench: each figure, its ceiling, the ratio and the target. */
import { RAW_SQLITE, PG_COPY } from './ceilings';
import { BATCH, CONNECTIONS, DURATION_S, LIMITED_DEVICES, LIVE_DURATION_S, LIVE_RATE, LIVE_SOCKETS, MQTT_CLIENTS, MQTT_WINDOW, NCPU, PG, RUNS, TARGET, WARMUP_S } from './options';
import { QUIET_CORES, checks, figures, loadText, notes, profileReports, say } from './bench-run';
import { STORAGE_GROUPS } from './scenarios/storage';
import { type BatchScenario, batchKeys } from './scenarios/batch';
import { fmtInt, fmtMs, fmtPct, fmtRatio, median, table } from './stats';

export function med(key: string, metric: string): number {
  const f = figures.get(key);
  return f ? median(f.runs.map((r) => r[metric]!)) : NaN;
}

export function mark(ok: boolean | null): string {
  return ok === null ? '' : ok ? 'PASS' : 'MISS';
}

/** On PostgreSQL: docs/operations.md's two targets, and the CPU of the server child against PostgreSQL's. */
export function pgReport(): void {
  const bk = `batch-${BATCH}`;
  if ([bk, 'http1', 'http1-limited'].some((k) => figures.has(k))) say(`\nScale targets (docs/operations.md) on PostgreSQL (medians of ${RUNS} runs):`);
  if (figures.has(bk)) {
    const ratio = med(bk, `vs ${PG_COPY}`);
    say(
      `  batch of ${BATCH}: ${fmtInt(med(bk, 'readingsPerS'))} readings/s vs psql COPY of the same rows ${fmtInt(med(PG_COPY, 'readingsPerS'))} readings/s = ${fmtRatio(ratio)} ` +
        `(median of the run-by-run ratios; target ≥ ${TARGET.batchVsPgCopy}×): ${mark(Number.isFinite(ratio) ? ratio >= TARGET.batchVsPgCopy : null) || 'no verdict'}`,
    );
  }
  for (const key of ['http1', 'http1-limited']) {
    if (!figures.has(key)) continue;
    const rate = med(key, 'readingsPerS');
    say(`  ${key}: ${fmtInt(rate)} readings/s, p99 ${fmtMs(med(key, 'p99'))} (target ≥ ${fmtInt(TARGET.http1PgRate)}/s): ${mark(Number.isFinite(rate) ? rate >= TARGET.http1PgRate : null) || 'no verdict'}`);
  }
  const rows: string[][] = [];
  for (const key of ['http1', 'http1-limited', bk, 'mqtt', 'live', PG_COPY]) {
    const f = figures.get(key);
    if (!f) continue;
    const rate = med(key, key === 'mqtt' ? 'msgsPerS' : key === 'live' ? 'answerRate' : 'readingsPerS');
    const part = (name: string) => {
      const c = med(key, `cpu ${name}`);
      return Number.isFinite(c) ? `${fmtPct(c)} = ${((c / rate) * 1e6).toFixed(1)} µs` : '—';
    };
    rows.push([key, `${fmtInt(rate)}/s`, part('node'), part('postgres'), part('psql'), Number.isFinite(med(key, 'diskBytes')) ? `${fmtInt(med(key, 'diskBytes'))} B` : '—']);
  }
  if (rows.length > 0) {
    say(`\nWhere the CPU goes (medians; share of one core, and per reading):`);
    say(table(['Figure', 'Throughput', 'server (node)', 'PostgreSQL', 'psql', 'WAL/reading'], rows));
  }
}

export function report(): void {
  const rows: string[][] = [];
  const n = (key: string) => {
    const runs = figures.get(key)?.runs ?? [];
    const contended = runs.filter((r) => (r.otherCores ?? 0) >= QUIET_CORES).length;
    return contended > 0 ? `${runs.length} (${contended} contended)` : `${runs.length}`;
  };
  // Ratio to a ceiling: the median of the run-by-run ratios (each figure run against the ceiling run just before it).
  const vs = (key: string, ceiling: string) => med(key, `vs ${ceiling}`);
  const atLeast = (ratio: number, min: number) => (Number.isFinite(ratio) ? ratio >= min : null);
  const cpu = (key: string) =>
    Number.isFinite(med(key, 'serverCpu')) ? `${fmtPct(med(key, 'serverCpu'))} / ${fmtPct(med(key, 'benchCpu'))} / ${med(key, 'otherCores').toFixed(2)}` : '—';
  const us = (key: string) => (Number.isFinite(med(key, 'cpuUs')) ? `${med(key, 'cpuUs').toFixed(1)} µs` : '—');
  const perFsync = (key: string) => (Number.isFinite(med(key, 'readingsPerFsync')) ? fmtInt(med(key, 'readingsPerFsync')) : '—');
  const disk = (key: string) => (Number.isFinite(med(key, 'diskBytes')) ? `${fmtInt(med(key, 'diskBytes'))} B` : '—');
  const row = (key: string, label: string, throughput: string, vs: string, target: string, ok: boolean | null) =>
    rows.push([label, throughput, fmtMs(med(key, 'p50')), fmtMs(med(key, 'p99')), vs, target, mark(ok), us(key), cpu(key), perFsync(key), disk(key), n(key)]);
  const ceilingRow = (key: string, label: string, unit: string, metric: string) => {
    if (figures.has(key)) row(key, `Ceiling: ${label}`, `${fmtInt(med(key, metric))} ${unit}`, '1.00×', '', null);
  };

  const batchRow = (scenario: BatchScenario) => {
    const { figure, raw } = batchKeys(scenario);
    if (!figures.has(figure)) return;
    const ratio = vs(figure, raw);
    const storm = scenario.endsWith('-storm');
    const calm = batchKeys(scenario.replace('-storm', '') as BatchScenario).figure;
    const stormRatio = storm ? med(figure, 'readingsPerS') / med(calm, 'readingsPerS') : NaN;
    const rawOk = atLeast(ratio, TARGET.batchVsRawSqlite);
    const stormOk = storm ? atLeast(stormRatio, TARGET.stormVsCalm) : true;
    row(
      figure,
      `HTTP batch of ${BATCH}, ${CONNECTIONS} conn, ${scenario.includes('one-device') ? 'ONE device' : `${CONNECTIONS} devices`}${storm ? ', alarm storm' : ''}, limit 0`,
      `${fmtInt(med(figure, 'readingsPerS'))} readings/s`,
      `${fmtRatio(ratio)} raw SQLite (${fmtRatio(vs(figure, `ceiling-${BATCH}`))} Fastify)` + (storm ? `; ${fmtRatio(stormRatio)} without the storm` : ''),
      `≥ ${TARGET.batchVsRawSqlite.toFixed(1)}× raw SQLite` + (storm ? `, ≥ ${TARGET.stormVsCalm}× without` : ''),
      rawOk === null || stormOk === null ? null : rawOk && stormOk,
    );
  };

  for (const g of STORAGE_GROUPS) {
    const key = `storage-${g}`;
    if (figures.has(key)) row(key, `Storage alone: ${g} readings/commit (latency = commit)`, `${fmtInt(med(key, 'readingsPerS'))} readings/s`, '', '', null);
  }
  ceilingRow('ceiling-1', 'bare Fastify, 1-reading body', 'req/s', 'reqPerS');
  ceilingRow(`ceiling-${BATCH}`, `bare Fastify, ${BATCH}-reading body`, 'req/s', 'reqPerS');
  ceilingRow(RAW_SQLITE, `raw better-sqlite3, ${BATCH}-row WAL transactions (latency = transaction)`, 'readings/s', 'readingsPerS');
  for (const scenario of ['batch-one-device', 'batch-storm', 'batch-one-device-storm'] as BatchScenario[]) {
    ceilingRow(batchKeys(scenario).raw, `raw better-sqlite3, the rows of ${scenario}`, 'readings/s', 'readingsPerS');
  }
  ceilingRow(PG_COPY, `psql \\copy of the same rows into the same readings table (PostgreSQL)`, 'readings/s', 'readingsPerS');
  ceilingRow('ceiling-mqtt', 'bare Aedes, QoS 1', 'msg/s', 'msgsPerS');
  ceilingRow('mosquitto', 'Mosquitto relaying QoS 1 to 1 subscriber', 'msg/s', 'msgsPerS');
  for (const key of ['http1', 'http1-limited']) {
    if (!figures.has(key)) continue;
    const ratio = vs(key, 'ceiling-1');
    const p99 = med(key, 'p99');
    const label =
      key === 'http1'
        ? `HTTP 1 reading/req, ${CONNECTIONS} conn, ${CONNECTIONS} devices, limit 0`
        : `HTTP 1 reading/req, ${CONNECTIONS} conn, ${LIMITED_DEVICES} devices, limit 50/s`;
    const rate = med(key, 'readingsPerS');
    const ok = atLeast(ratio, TARGET.http1VsFastify);
    row(
      key,
      label + (PG ? ', PostgreSQL' : ''),
      `${fmtInt(rate)} readings/s`,
      `${fmtRatio(ratio)} Fastify (p99 ${fmtRatio(med(key, 'p99 vs ceiling-1'))})`,
      // On PostgreSQL the target is docs/operations.md's: a rate, whatever the bare route does.
      PG ? `≥ ${fmtInt(TARGET.http1PgRate)} readings/s` : `≥ ${TARGET.http1VsFastify}× Fastify, p99 < ${TARGET.http1P99Ms} ms`,
      PG ? (Number.isFinite(rate) ? rate >= TARGET.http1PgRate : null) : ok === null ? null : ok && p99 < TARGET.http1P99Ms,
    );
  }
  const bk = `batch-${BATCH}`;
  if (figures.has(bk) && PG) {
    const ratio = vs(bk, PG_COPY);
    row(
      bk,
      `HTTP batch of ${BATCH}, ${CONNECTIONS} conn, limit 0, PostgreSQL`,
      `${fmtInt(med(bk, 'readingsPerS'))} readings/s`,
      `${fmtRatio(ratio)} psql COPY (${fmtRatio(vs(bk, `ceiling-${BATCH}`))} Fastify)`,
      `≥ ${TARGET.batchVsPgCopy}× COPY`,
      atLeast(ratio, TARGET.batchVsPgCopy),
    );
  } else {
    for (const scenario of ['batch', 'batch-one-device', 'batch-storm', 'batch-one-device-storm'] as BatchScenario[]) batchRow(scenario);
  }
  if (figures.has('mqtt')) {
    const ratio = vs('mqtt', 'mosquitto');
    row(
      'mqtt',
      `MQTT QoS 1, ${MQTT_CLIENTS} clients × ${MQTT_WINDOW} in flight`,
      `${fmtInt(med('mqtt', 'msgsPerS'))} msg/s`,
      `${fmtRatio(ratio)} Mosquitto (${fmtRatio(vs('mqtt', 'ceiling-mqtt'))} Aedes)`,
      `≥ ${TARGET.mqttVsMosquitto}× Mosquitto`,
      atLeast(ratio, TARGET.mqttVsMosquitto),
    );
  }
  if (figures.has('mqtt-external')) {
    const ratio = vs('mqtt-external', 'mosquitto');
    row(
      'mqtt-external',
      `MQTT QoS 1 via Mosquitto (MQTT_URL) into storage, ${MQTT_CLIENTS} clients × ${MQTT_WINDOW} in flight`,
      `${fmtInt(med('mqtt-external', 'msgsPerS'))} readings/s`,
      `${fmtRatio(ratio)} Mosquitto relaying`,
      `≥ ${TARGET.externalVsMosquitto}× Mosquitto relaying`,
      atLeast(ratio, TARGET.externalVsMosquitto),
    );
  }
  if (figures.has('live')) {
    const answered = med('live', 'answerRate');
    const sockets = med('live', 'sockets');
    const closed = med('live', 'socketsClosed');
    // Only a run at the target's load can meet it; a lighter run (options) gets no verdict.
    const atTargetLoad = LIVE_RATE >= TARGET.liveRate && LIVE_SOCKETS >= TARGET.liveSockets;
    row(
      'live',
      `Live: POST → WS frame, ${fmtInt(med('live', 'sendRate'))}/s offered, ${fmtInt(sockets)} sockets` +
        (closed > 0 ? ` (${fmtInt(closed)} closed as too slow)` : '') +
        `, ${fmtPct(med('live', 'delivered'))} of frames delivered`,
      `${fmtInt(answered)} readings/s`,
      '',
      `p99 < ${TARGET.liveP99Ms} ms at ${fmtInt(TARGET.liveRate)}/s, ${fmtInt(TARGET.liveSockets)} sockets` + (atTargetLoad ? '' : ' (lighter load: no verdict)'),
      atTargetLoad
        ? med('live', 'p99') < TARGET.liveP99Ms && answered >= 0.99 * TARGET.liveRate && sockets >= TARGET.liveSockets && closed === 0
        : null,
    );
  }
  say(`\n=== Results: medians of ${RUNS} runs (${DURATION_S} s each; live ${LIVE_DURATION_S} s; storage 2 s), each after a ${WARMUP_S} s warm-up ===`);
  say(table(['Figure', 'Throughput', 'p50', 'p99', 'vs ceiling', 'Target', '', 'srv CPU/reading', 'CPU srv/bench/others', 'items/fsync', 'disk/item', 'runs'], rows));
  say(`srv CPU/reading: CPU time (user + system, all threads) the server child spent per reading (per request for the ceiling with 1 reading, per message for MQTT): less sensitive than throughput to fsync waits and to other processes, not immune to them.`);
  say(
    `CPU srv/bench/others: share of one core used by the server child / by this load generator, and cores used by other processes on this ${NCPU}-core machine, during the runs (others ≥ ${QUIET_CORES} = contended run).`,
  );
  say(`items/fsync: acknowledged readings per fsync of the server (perf stat), ≈ readings per group commit (checkpoints add fsyncs).`);
  say(`disk/item: bytes the server wrote to storage per reading (/proc/<pid>/io write_bytes: WAL + checkpoints).`);
  if (PG) {
    say(
      `On PostgreSQL: "srv" is the server child plus the whole PostgreSQL cluster (postmaster, backends, WAL writer, checkpointer, and the backends that ended within the run); ` +
        `for ${PG_COPY} it is the cluster plus psql. items/fsync counts the fsyncs of the server child and of the PostgreSQL processes that existed when the run started. ` +
        `disk/item is the WAL PostgreSQL generated per reading (pg_current_wal_insert_lsn, whole cluster).`,
    );
    pgReport();
  }
  const loads = [...figures.values()].flatMap((f) => f.runs.map((r) => r.load1!)).filter(Number.isFinite);
  if (loads.length > 0) say(`Load average (1 min) at the start of the measured runs: median ${median(loads).toFixed(2)}, ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}; now ${loadText()}.`);
  if (checks.length > 0) {
    say(`\nVerification (readings table, read-only, after the server stopped):`);
    for (const c of checks) say(`  ${c.ok ? 'OK  ' : 'FAIL'} ${c.name}: ${c.detail}`);
  }
  const bad = [...figures.values()].reduce((s, f) => s + f.runs.reduce((a, r) => a + (r.duplicates ?? 0) + (r.not2xx ?? 0) + (r.refused ?? 0) + (r.failed ?? 0), 0), 0);
  say(bad > 0 ? `  NOTE: ${bad} answers were not plain successes (non-2xx, duplicates, refusals): see the run lines above.` : `  every answer in the measured runs was a success (2xx / PUBACK without refusal, no duplicates).`);
  for (const note of notes) say(`\nNOTE ${note}`);
  if (profileReports.length > 0) {
    say(`\n=== CPU profiles of the server child (--cpu-prof, samples inside the measured runs only) ===`);
    for (const p of profileReports) say(p + '\n');
  }
}
