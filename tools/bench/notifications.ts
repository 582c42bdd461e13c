/**
 * Notifications benchmark (npm run bench:notifications; issue 13, docs/alarms.md "Speed"). The server
 * runs in a child process, the webhook receiver and SMTP server in another; this process is the load.
 * Per run, on a fresh server: ingest load (single readings, 50 connections) while a flood of
 * sensors cross HH within one second — once with nothing configured, once with a webhook for
 * every alarm and e-mail for every alarm to the three demo users. Figures, medians of --runs:
 * 1. ingest during the flood with notifications vs without (within 10 % is the target);
 * 2. the flood's readings: none refused, none delayed more than 100 ms;
 * 3. reading sent → its HH alarm at the webhook receiver, p99 (under 1 s is the target).
 */
import { parseArgs } from 'node:util';
import { ADMIN, api, postReading, registerDevices, signIn, type BenchDevice } from './ingest/devices';
import { runHttpLoad } from './ingest/http-load';
import { NodeChild, disposeServer, freePort, startAguaServer, type RunningServer } from './ingest/server-process';
import { fmtInt, median, percentiles } from './ingest/stats';

const { values: argv } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '6' },
    'flood-devices': { type: 'string', default: '1000' },
    /** Only the webhook: no e-mail to anyone (to tell the channels' costs apart). */
    'webhook-only': { type: 'boolean', default: false },
    /** Write the server's CPU profiles (one per run) into this folder. */
    'cpu-prof': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (argv.help) {
  console.log('npm run bench:notifications -- [--runs N (3)] [--duration S of ingest per run (6)] [--flood-devices N (1000)] [--webhook-only] [--cpu-prof DIR]');
  process.exit(0);
}
const RUNS = Number(argv.runs);
const DURATION_S = Number(argv.duration);
const FLOOD_DEVICES = Number(argv['flood-devices']);
const say = (s: string) => console.log(s);
const DEMO_USERS = [ADMIN, { username: 'operator', password: 'operator123' }, { username: 'viewer', password: 'viewer123' }];

/** The receivers' process (notifications-receivers.ts): its webhook URL, SMTP URL and what it got. */
async function startReceivers() {
  const port = await freePort();
  const smtpPort = await freePort();
  const child = new NodeChild({ label: 'receivers', script: 'tools/bench/notifications-receivers.ts', env: { PORT: String(port), SMTP_PORT: String(smtpPort) } });
  const url = `http://127.0.0.1:${port}`;
  await child.waitReady(async () => (await fetch(`${url}/stats`)).ok);
  return {
    url,
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    stats: async () => (await (await fetch(`${url}/stats`)).json()) as { raisedAt: Record<string, number>; requests: number; mails: number },
    reset: async () => void (await fetch(`${url}/reset`, { method: 'POST' })),
    close: () => child.stop(),
  };
}
type Receivers = Awaited<ReturnType<typeof startReceivers>>;

interface RunResult {
  ingestPerS: number;
  floodP99: number;
  floodMax: number;
  refused: number;
  webhookP99: number | null;
  webhookGot: number;
  mails: number;
}

async function run(notify: boolean, receivers: Receivers): Promise<RunResult> {
  const srv: RunningServer = await startAguaServer({
    ...(argv['cpu-prof'] ? { cpuProfDir: argv['cpu-prof'] } : {}),
    env: { MAX_CONNECTIONS_PER_ADDRESS: '0', ...(notify ? { SMTP_URL: receivers.smtpUrl, PUBLIC_URL: 'http://agua.bench/' } : {}) },
  });
  try {
    const admin = await signIn(srv.httpUrl, ADMIN);
    if (notify) {
      await api(srv.httpUrl, admin, 'POST', '/webhooks', { name: 'Banco', url: `${receivers.url}/hook`, minPriority: 4 });
      for (const user of DEMO_USERS) {
        const cookie = await signIn(srv.httpUrl, user);
        await api(srv.httpUrl, cookie, 'PUT', '/notifications/me', { email: { minPriority: argv['webhook-only'] ? null : 4 }, push: { minPriority: null } });
      }
    }
    const ingestDevices = await registerDevices(srv.httpUrl, admin, 'bench_ntf_load', 50);
    const flood: BenchDevice[] = await registerDevices(srv.httpUrl, admin, 'bench_ntf_flood', FLOOD_DEVICES);
    for (const d of flood) await postReading(srv, d, 1); // heard once at a normal level
    await receivers.reset();

    const load = runHttpLoad({ baseUrl: srv.httpUrl, connections: 50, durationS: DURATION_S, batchSize: 1, devices: ingestDevices });
    await new Promise((r) => setTimeout(r, 1000));
    const sentAt = new Map<string, number>();
    const answers = await Promise.all(
      flood.map(
        (d, i) =>
          new Promise<{ status: number; ms: number }>((resolve) =>
            setTimeout(() => {
              sentAt.set(d.id, Date.now());
              void postReading(srv, d, 4.9).then(resolve);
            }, (i * 1000) / flood.length),
          ),
      ),
    );
    const ingest = await load;
    let webhookP99: number | null = null;
    let stats = await receivers.stats();
    if (notify) {
      const deadline = Date.now() + 60_000;
      while (Object.keys(stats.raisedAt).length < flood.length && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        stats = await receivers.stats();
      }
      const latencies = flood.filter((d) => stats.raisedAt[d.id] !== undefined).map((d) => stats.raisedAt[d.id]! - sentAt.get(d.id)!);
      webhookP99 = percentiles(latencies, [99])[0]!;
      await new Promise((r) => setTimeout(r, 2000)); // let the e-mails drain
      stats = await receivers.stats();
    }
    const [p99, max] = percentiles(
      answers.map((a) => a.ms),
      [99, 100],
    );
    return {
      ingestPerS: ingest.readingsPerS,
      floodP99: p99!,
      floodMax: max!,
      refused: answers.filter((a) => a.status !== 202).length,
      webhookP99,
      webhookGot: Object.keys(stats.raisedAt).length,
      mails: stats.mails,
    };
  } finally {
    await disposeServer(srv);
  }
}

say(`[notifications] ${FLOOD_DEVICES} sensors cross HH within one second during ${DURATION_S} s of ingest (50 devices, single readings); ${RUNS} runs each, alternating`);
const receivers = await startReceivers();
try {
  const results: Record<'with' | 'without', RunResult[]> = { with: [], without: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const notify of [false, true]) {
      const r = await run(notify, receivers);
      results[notify ? 'with' : 'without'].push(r);
      say(
        `  run ${i + 1} ${notify ? 'with   ' : 'without'} notifications: ingest ${fmtInt(r.ingestPerS)} readings/s; flood POST→202 p99 ${r.floodP99.toFixed(1)} ms, max ${r.floodMax.toFixed(1)} ms, ${r.refused} refused` +
          (notify ? `; webhook got ${r.webhookGot}/${FLOOD_DEVICES} HH, p99 ${r.webhookP99!.toFixed(0)} ms; ${r.mails} e-mails` : ''),
      );
    }
  }
  const on = median(results.with.map((r) => r.ingestPerS));
  const off = median(results.without.map((r) => r.ingestPerS));
  say(`  ingest during the flood: with ${fmtInt(on)}/s vs without ${fmtInt(off)}/s = ${(on / off).toFixed(3)}× (target ≥ 0.90×) ${on / off >= 0.9 ? 'PASS' : 'MISS'}`);
  const maxDelay = median(results.with.map((r) => r.floodMax));
  const refused = results.with.reduce((n, r) => n + r.refused, 0);
  say(`  flood readings with notifications: max POST→202 ${maxDelay.toFixed(1)} ms (median of runs), ${refused} refused (target: none refused, none > 100 ms) ${refused === 0 && maxDelay <= 100 ? 'PASS' : 'MISS'}`);
  const hookP99 = median(results.with.map((r) => r.webhookP99!));
  say(`  reading → webhook (raised), p99 (median of runs): ${hookP99.toFixed(0)} ms during a ${FLOOD_DEVICES}-alarm flood (target < 1000 ms) ${hookP99 < 1000 ? 'PASS' : 'MISS'}`);
} finally {
  await receivers.close();
}
