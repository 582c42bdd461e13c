/**
 * Ingest benchmark of the server (npm run bench:ingest [-- scenario…]; see tools/bench/README.md).
 *
 * The server under test runs in a child process (its own event loop); this process is the load
 * generator (autocannon for HTTP, mqtt.js for MQTT, worker threads for the live devices and
 * sockets) on the same machine. Every figure is the median of --runs measured runs, after one
 * warm-up run, each measured run right after a run of each ceiling its target is measured against.
 * The scenarios are in ingest/scenarios/, one file each; what they share is in ingest/.
 */
import fs from 'node:fs';
import os from 'node:os';
import { batchJson, readingJson } from './ingest/devices';
import { BATCH, CONNECTIONS, PG, PG_ADMIN_URL, PROFILE_DIR, USE_PERF, argv, skippedOnPg, want } from './ingest/options';
import { PgCluster, describeServer, dropAllBenchDatabases, pgCommitProbe } from './ingest/postgres';
import { checks, codeVersion, collectProfile, diskProbe, figures, loadText, notes, openProbes, profDirFor, say, servers } from './ingest/bench-run';
import { report } from './ingest/report';
import { batch } from './ingest/scenarios/batch';
import { ceilingsAlone } from './ingest/scenarios/ceilings';
import { http1 } from './ingest/scenarios/http-single';
import { live } from './ingest/scenarios/live';
import { mqttScenario } from './ingest/scenarios/mqtt';
import { mqttExternal } from './ingest/scenarios/mqtt-external';
import { storage } from './ingest/scenarios/storage';
import { filesystemOf, startCeilingServer, stopAllChildren } from './ingest/server-process';
import { fmtInt, fmtMs } from './ingest/stats';
async function main(): Promise<void> {
  const started = Date.now();
  const tmp = os.tmpdir();
  const sample = readingJson({ id: 'bench_http_000', key: '', boot: 'c0ffee00', seq: 1234 }, 2.345, Date.now());
  say(`Ingest bench — ${new Date().toISOString()}`);
  say(`machine: ${os.cpus()[0]?.model ?? '?'} × ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, ${os.platform()} ${os.release()}`);
  say(`code: ${codeVersion()}`);
  say(`server data folder: ${tmp} on ${filesystemOf(tmp)}`);
  say(loadText());
  say(await diskProbe('before'));
  if (PG) {
    const server = await describeServer(PG_ADMIN_URL);
    servers.pgCluster = await PgCluster.locate(PG_ADMIN_URL);
    const commits = await pgCommitProbe(PG_ADMIN_URL);
    say(`database: PostgreSQL (--database postgres): ${server.text}`);
    say(`  data directory ${server.dataDirectory} on ${filesystemOf(server.dataDirectory)}; postmaster pid ${servers.pgCluster?.pid ?? '? (its CPU is not counted)'}`);
    say(`  one-row INSERT commits back to back: ${fmtInt(commits.commitsPerS)}/s, p50 ${fmtMs(commits.p50)}, p99 ${fmtMs(commits.p99)}`);
    say(`  each server on a fresh database agua_bench_<random> (DATABASE_URL, DEMO=true), dropped with it`);
    for (const s of skippedOnPg) say(`  skipped on PostgreSQL: ${s}`);
  }
  say(
    `load: autocannon ${CONNECTIONS} connections, pipelining 1; body ${Buffer.byteLength(sample)} B (1 reading), ` +
      `${Buffer.byteLength(batchJson({ id: 'bench_batch_000', key: '', boot: 'c0ffee00', seq: 1234 }, BATCH, Date.now()))} B (batch of ${BATCH}); ` +
      `fsync counting ${USE_PERF ? 'on (perf stat)' : 'off'}${PROFILE_DIR ? `; CPU profiles in ${PROFILE_DIR}` : ''}`,
  );
  say(`sample reading: ${sample}`);

  if (want('storage')) await storage();
  const paired = (['http1', 'http1-limited', 'batch', 'batch-one-device', 'batch-storm', 'batch-one-device-storm', 'mqtt'] as const).some(want);
  if (want('ceiling') && !paired) await ceilingsAlone();
  if (paired) {
    servers.ceiling = await startCeilingServer({ cpuProfDir: profDirFor('ceiling') });
    say(
      `\n[ceiling] bare Fastify 5 route (202 {}) and bare Aedes broker (child process), ${PG ? 'psql \\copy (after each batch run)' : 'raw better-sqlite3 (this process)'} and Mosquitto: ` +
        `measured run for run alongside each figure below`,
    );
  }
  if (want('http1')) await http1(false);
  if (want('http1-limited')) await http1(true);
  for (const scenario of ['batch', 'batch-one-device', 'batch-storm', 'batch-one-device-storm'] as const) if (want(scenario)) await batch(scenario);
  if (want('mqtt')) await mqttScenario();
  if (want('mqtt-external')) await mqttExternal();
  if (servers.ceiling) {
    await servers.ceiling.child.stop();
    collectProfile(servers.ceiling, 'ceiling');
  }
  if (want('live')) await live();
  for (const s of openProbes) await s.probe?.close();

  report();
  say(await diskProbe('after'));
  say(`\nbench took ${Math.round((Date.now() - started) / 1000)} s`);
  if (argv.json) {
    fs.writeFileSync(argv.json, JSON.stringify({ at: new Date().toISOString(), database: argv.database, figures: Object.fromEntries(figures), checks, notes }, null, 2));
    say(`runs written to ${argv.json}`);
  }
  if (checks.some((c) => !c.ok)) process.exitCode = 1;
}

/** Drops the databases still there (a failed or interrupted run); their servers are stopped first. */
async function cleanUpPostgres(): Promise<void> {
  if (!PG) return;
  await stopAllChildren();
  const failed = await dropAllBenchDatabases();
  if (failed.length > 0) console.error(`could not drop: ${failed.join(', ')}`);
}

if (PG) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the servers and dropping the bench databases…`);
      void cleanUpPostgres().finally(() => process.exit(130));
    });
  }
}

main().catch(async (err: unknown) => {
  console.error(err);
  await cleanUpPostgres().catch((e: unknown) => console.error(e));
  process.exit(1);
});
