/**
 * Alarm benchmark (npm run bench:alarms; issue 12, docs/alarms.md "Speed"). The server runs in a child
 * process; this process is the load (autocannon for ingest, fetch for paced and flood readings,
 * ws for the live sockets). Three figures, medians of --runs:
 * 1. ingest with every default rule on for every device vs the same run with every rule off
 *    (single readings and batches of 100; within 10 % is the target);
 * 2. a reading that crosses a setpoint → `alarm.updated` on every open live socket, at
 *    1,000 readings/s with 100 sockets (p99 < 100 ms is the target);
 * 3. a flood: 1,000 sensors cross HH in the same second — every HH alarm raised, stored and
 *    pushed, and no reading refused or delayed by more than 100 ms.
 */
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { ADMIN, VIEWER, api, postReading as post, registerDevices, signIn, type BenchDevice } from './ingest/devices';
import { runHttpLoad } from './ingest/http-load';
import { disposeServer, startAguaServer, type RunningServer } from './ingest/server-process';
import { fmtInt, median, percentiles } from './ingest/stats';

const { values: argv } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    'flood-devices': { type: 'string', default: '1000' },
    help: { type: 'boolean', default: false },
  },
});
if (argv.help) {
  console.log('npm run bench:alarms -- [--runs N (3)] [--duration S per ingest run (5)] [--flood-devices N (1000)]');
  process.exit(0);
}
const RUNS = Number(argv.runs);
const DURATION_S = Number(argv.duration);
const FLOOD_DEVICES = Number(argv['flood-devices']);
const say = (s: string) => console.log(s);
/** The paced and flood readings come from one address over many connections (the default cap is 128). */
const MANY_CONNECTIONS = { MAX_CONNECTIONS_PER_ADDRESS: '0' };

/** Turns every rule of the devices on (their defaults) or off. */
async function setRules(srv: RunningServer, admin: string, devices: BenchDevice[], enabled: boolean, defaults: Map<string, boolean>): Promise<void> {
  for (const d of devices) {
    const rules = await api<Array<{ id: string; enabled: boolean }>>(srv.httpUrl, admin, 'GET', `/devices/${d.id}/alarm-rules`);
    for (const r of rules) {
      if (!defaults.has(r.id)) defaults.set(r.id, r.enabled);
      const want = enabled && defaults.get(r.id)!;
      if (r.enabled !== want) await api(srv.httpUrl, admin, 'PUT', `/devices/${d.id}/alarm-rules/${r.id}`, { enabled: want });
    }
  }
}

/** Figure 1: ingest with the default rules on vs off. */
async function ingestFigure(): Promise<void> {
  say(`\n[ingest] 50 devices, rules on (defaults) vs off, ${RUNS} runs of ${DURATION_S} s each, alternating`);
  const srv = await startAguaServer();
  try {
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_alarm', 50);
    const defaults = new Map<string, boolean>();
    const results: Record<string, number[]> = { 'single on': [], 'single off': [], 'batch on': [], 'batch off': [] };
    for (let i = 0; i < RUNS; i++) {
      for (const rules of ['off', 'on'] as const) {
        await setRules(srv, admin, devices, rules === 'on', defaults);
        for (const [kind, batchSize] of [['single', 1], ['batch', 100]] as const) {
          const r = await runHttpLoad({ baseUrl: srv.httpUrl, connections: 50, durationS: DURATION_S, batchSize, devices });
          results[`${kind} ${rules}`]!.push(r.readingsPerS);
          say(`  run ${i + 1} ${kind} rules ${rules}: ${fmtInt(r.readingsPerS)} readings/s, p99 ${r.p99} ms${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}`);
        }
      }
    }
    for (const kind of ['single', 'batch'] as const) {
      const on = median(results[`${kind} on`]!);
      const off = median(results[`${kind} off`]!);
      say(`  ${kind}: rules on ${fmtInt(on)}/s vs off ${fmtInt(off)}/s = ${(on / off).toFixed(3)}× (target ≥ 0.90×) ${on / off >= 0.9 ? 'PASS' : 'MISS'}`);
    }
  } finally {
    await disposeServer(srv);
  }
}

/** Opens `n` live sockets (16 per session, the server's limit) that record when each frame arrives. */
async function openSockets(
  srv: RunningServer,
  n: number,
  onFrame: (frame: { type: string; data: { deviceId?: string; kind?: string; state?: string } }, at: number) => void,
  /** Sockets that time frames; the others receive everything and drop it (the server's work is the same). */
  probes = n,
): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  let cookie = '';
  for (let i = 0; i < n; i++) {
    if (i % 16 === 0) cookie = await signIn(srv.httpUrl, VIEWER);
    const ws = new WebSocket(`${srv.httpUrl.replace('http', 'ws')}/api/v1/live`, { headers: { cookie, origin: srv.httpUrl } });
    const probe = i < probes;
    ws.on('message', (data: Buffer) => {
      if (!probe) return;
      const at = performance.now();
      // Readings and device frames go by untouched: parsing 100 sockets' worth of them would make
      // the load generator, not the server, the thing measured.
      if (data.indexOf('"alarm.updated"') < 0) return;
      onFrame(JSON.parse(data.toString()) as Parameters<typeof onFrame>[0], at);
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    sockets.push(ws);
  }
  return sockets;
}

/** Figure 2: setpoint crossings at 1,000 readings/s → alarm.updated on 100 sockets. */
async function latencyFigure(): Promise<void> {
  const SOCKETS = 100;
  const PROBES = 10;
  const RATE = 1000;
  const DEVICES = 50;
  say(`\n[latency] ${RATE} readings/s from ${DEVICES} devices, each reading crossing HH up or down, ${SOCKETS} live sockets (${PROBES} timing every alarm frame)`);
  const srv = await startAguaServer({ env: MANY_CONNECTIONS });
  try {
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_cross', DEVICES);
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    const sockets = await openSockets(
      srv,
      SOCKETS,
      (f, at) => {
        if (f.type !== 'alarm.updated' || f.data.kind !== 'level_high_high') return;
        const t = sentAt.get(`${f.data.deviceId}:${f.data.state}`);
        if (t !== undefined) latencies.push(at - t);
      },
      PROBES,
    );
    const perRun: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      latencies.length = 0;
      const end = performance.now() + DURATION_S * 1000;
      let n = 0;
      const pending: Array<Promise<unknown>> = [];
      while (performance.now() < end) {
        const d = devices[n % DEVICES]!;
        // Up over HH (4.9 of 5 m: unack), then down (1 m: rtn_unack), device after device.
        const up = Math.floor(n / DEVICES) % 2 === 0;
        sentAt.set(`${d.id}:${up ? 'unack' : 'rtn_unack'}`, performance.now());
        pending.push(post(srv, d, up ? 4.9 : 1));
        n++;
        const due = (n / RATE) * 1000;
        const wait = due - (performance.now() - (end - DURATION_S * 1000));
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      await Promise.all(pending);
      await new Promise((r) => setTimeout(r, 500));
      const [p50, p99] = percentiles(latencies, [50, 99]);
      perRun.push(p99!);
      say(`  run ${run + 1}: ${fmtInt(n / DURATION_S)} readings/s sent, ${fmtInt(latencies.length)} alarm frames timed, p50 ${p50!.toFixed(1)} ms, p99 ${p99!.toFixed(1)} ms`);
    }
    const p99 = median(perRun);
    say(`  alarm.updated p99 (median of runs): ${p99.toFixed(1)} ms (target < 100 ms) ${p99 < 100 ? 'PASS' : 'MISS'}`);
    for (const ws of sockets) ws.terminate();
  } finally {
    await disposeServer(srv);
  }
}

/** Figure 3: every sensor crosses HH in the same second. */
async function floodFigure(): Promise<void> {
  say(`\n[flood] ${FLOOD_DEVICES} sensors cross HH within one second, 10 live sockets watching`);
  const srv = await startAguaServer({ env: MANY_CONNECTIONS });
  try {
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_flood', FLOOD_DEVICES);
    // Each sensor is heard once at a normal level first (the flood is about alarms, not first contact).
    for (const d of devices) await post(srv, d, 1);
    const raisedAt: number[] = [];
    const sockets = await openSockets(srv, 10, (f, at) => {
      if (f.type === 'alarm.updated' && f.data.kind === 'level_high_high' && f.data.state === 'unack') raisedAt.push(at);
    });
    const t0 = performance.now();
    const answers = await Promise.all(devices.map((d, i) => new Promise<{ status: number; ms: number }>((resolve) => setTimeout(() => void post(srv, d, 4.9).then(resolve), (i * 1000) / devices.length))));
    const expected = devices.length * sockets.length;
    const deadline = performance.now() + 30_000;
    while (raisedAt.length < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const [p50, p99, max] = percentiles(answers.map((a) => a.ms), [50, 99, 100]);
    const refused = answers.filter((a) => a.status !== 202).length;
    const allPushedS = (Math.max(...raisedAt) - t0) / 1000;
    say(`  readings: ${answers.length} answered, ${refused} refused, POST→202 p50 ${p50!.toFixed(1)} ms, p99 ${p99!.toFixed(1)} ms, max ${max!.toFixed(1)} ms (target: none refused, none delayed > 100 ms) ${refused === 0 && max! <= 100 ? 'PASS' : 'MISS'}`);
    say(`  alarms: ${fmtInt(raisedAt.length / sockets.length)} of ${devices.length} HH alarms reached every socket; the last ${allPushedS.toFixed(2)} s after the first reading was sent`);
    for (const ws of sockets) ws.terminate();
  } finally {
    await disposeServer(srv);
  }
}

await ingestFigure();
await latencyFigure();
await floodFigure();
