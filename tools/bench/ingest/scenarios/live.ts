/** [live] Device → browser: a reading's way from the device's POST to the frame on a browser's live socket. */
import { ADMIN, VIEWER, registerDevices, signIn } from '../devices';
import { LiveLatencyBench } from '../live-latency';
import { LIVE_DEVICES,
  LIVE_DURATION_S,
  LIVE_POST_CONNECTIONS,
  LIVE_PROBES,
  LIVE_RATE,
  LIVE_RECEIVERS,
  LIVE_SENDERS,
  LIVE_SOCKETS,
  LIVE_SOCKETS_PER_SESSION,
  LIVE_TRANSPORT,
  RUNS,
  WARMUP_S, GEOMETRY } from '../options';
import { cpuText, measured, openProbes, profDirFor, record, say, startServer, stopAndCheck, subjectOf } from '../bench-run';
import { disposeServer } from '../server-process';
import { fmtInt, fmtMs, fmtPct } from '../stats';

export async function live(): Promise<void> {
  const hz = LIVE_RATE / LIVE_DEVICES;
  say(
    `\n[live] device → browser: ${fmtInt(LIVE_RATE)} readings/s over ${LIVE_TRANSPORT === 'mqtt' ? 'MQTT QoS 1' : 'HTTP'} (${LIVE_DEVICES} devices × ${fmtInt(hz)}/s) from ${LIVE_SENDERS} sender thread(s), ` +
      `${fmtInt(LIVE_SOCKETS)} live sockets (${fmtInt(LIVE_PROBES)} timing probes) in ${LIVE_RECEIVERS} receiver thread(s), ` +
      `sessions of ${LIVE_SOCKETS_PER_SESSION} sockets each from its own address (127.0.0.x), DEVICE_RATE_LIMIT=0, the default per-address connection cap`,
  );
  const srv = await startServer({ cpuProfDir: profDirFor('live') });
  try {
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_live', LIVE_DEVICES, GEOMETRY);
    const bench = await LiveLatencyBench.open({
      baseUrl: srv.httpUrl,
      devices,
      newSession: () => signIn(srv.httpUrl, VIEWER),
      socketsPerSession: LIVE_SOCKETS_PER_SESSION,
      sockets: LIVE_SOCKETS,
      probes: LIVE_PROBES,
      receivers: LIVE_RECEIVERS,
      senders: LIVE_SENDERS,
      postConnections: LIVE_POST_CONNECTIONS,
      ...(LIVE_TRANSPORT === 'mqtt' ? { mqttUrl: `mqtt://127.0.0.1:${srv.mqttPort}` } : {}),
    });
    const subject = subjectOf(srv);
    openProbes.add(subject);
    let acknowledged = 0;
    const warm = await bench.run(WARMUP_S, LIVE_RATE);
    acknowledged += warm.ok;
    for (let i = 0; i < RUNS; i++) {
      const { result: r, extra } = await measured(subject, 'live', () => bench.run(LIVE_DURATION_S, LIVE_RATE));
      acknowledged += r.ok;
      const deliveredShare = r.delivered / r.expected;
      say(
        `  live run ${i + 1}: offered ${fmtInt(r.sendRate)} readings/s, answered ${fmtInt(r.answerRate)}/s (${r.failed} failed), ${fmtInt(r.sockets)} sockets (${fmtInt(r.probes)} probes)` +
          (r.socketsClosed > 0 ? ` (${fmtInt(r.socketsClosed)} CLOSED by the server as too slow)` : '') +
          `, frames delivered ${fmtPct(deliveredShare)} of reading×probe, latency p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}, max ${fmtMs(r.max)} (POST→202 p99 ${fmtMs(r.postP99)}), ${cpuText(extra)}`,
      );
      record('live', {
        sendRate: r.sendRate,
        answerRate: r.answerRate,
        sockets: r.sockets,
        socketsClosed: r.socketsClosed,
        p50: r.p50,
        p99: r.p99,
        max: r.max,
        postP99: r.postP99,
        delivered: deliveredShare,
        failed: r.failed,
        cpuUs: (extra.serverCpu! / r.answerRate) * 1e6,
        ...extra,
      });
    }
    await bench.close();
    await stopAndCheck(srv, 'live', 'bench_live', acknowledged, 0);
  } finally {
    await disposeServer(srv);
  }
}
