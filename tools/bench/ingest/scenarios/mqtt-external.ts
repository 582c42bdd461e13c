/** [mqtt-external] MQTT QoS 1 through an external Mosquitto (MQTT_URL) into storage, against Mosquitto relaying the same load. */
import { type Ceiling, measureCeilings, mosquittoCeiling, versus } from '../ceilings';
import { ADMIN, registerDevices, signIn } from '../devices';
import { dynsecAvailable, startDynsecMosquitto } from '../mosquitto';
import { MqttFleet } from '../mqtt-load';
import { BUNDLE, DURATION_S, MQTT_CLIENTS, MQTT_WINDOW, RUNS, SERVER_DIR, WARMUP_S, GEOMETRY } from '../options';
import { cpuText, measured, notes, profDirFor, record, say, stopAndCheck, storedReadings } from '../bench-run';
import { type RunningServer, disposeServer, startAguaServer } from '../server-process';
import { fmtInt, fmtMs, sleep } from '../stats';

/**
 * External broker mode (issue 15): devices publish QoS 1 to Mosquitto with its dynamic security
 * plugin; the server (MQTT_URL) takes the messages through its shared-subscription sessions and
 * stores them. Mosquitto acknowledges the devices at once, so the figure is readings *stored* per
 * second: from the start of a run until the last message published in it is in the database.
 * Beside it, run for run, the same load relayed by a plain Mosquitto to one plain subscriber.
 */
export async function mqttExternal(): Promise<void> {
  say(`\n[mqtt-external] MQTT QoS 1 through Mosquitto (dynamic security) into storage: ${MQTT_CLIENTS} devices × ${MQTT_WINDOW} in flight, the server on MQTT_URL`);
  if (!dynsecAvailable()) {
    notes.push('mqtt-external: Mosquitto with its dynamic security plugin and mosquitto_ctrl are needed (Debian packages mosquitto, mosquitto-clients): no figure');
    return;
  }
  const broker = await startDynsecMosquitto();
  const bounds: Ceiling[] = [];
  let srv: RunningServer | null = null;
  try {
    srv = await startAguaServer({ cpuProfDir: profDirFor('mqtt-external'), env: { MQTT_URL: broker.adminUrl }, serverDir: SERVER_DIR, bundle: BUNDLE });
    const running = srv;
    const mosquitto = await mosquittoCeiling();
    if (mosquitto) bounds.push(mosquitto);
    const admin = await signIn(running.httpUrl, ADMIN);
    // Created through the API: the server makes each device's account on the broker.
    const devices = await registerDevices(running.httpUrl, admin, 'bench_ext', MQTT_CLIENTS, GEOMETRY);
    const fleet = await MqttFleet.connect(broker.port, devices, { authenticate: true });
    let published = 0;
    const stored = () => storedReadings(running.dataDir!, 'bench_ext');
    const intoStorage = async (durationS: number) => {
      const before = stored();
      const startedAt = performance.now();
      const r = await fleet.run(durationS, MQTT_WINDOW);
      const sent = r.acked + r.drained;
      published += sent;
      const deadline = Date.now() + 60_000;
      while (stored() < before + sent && Date.now() < deadline) await sleep(10);
      const seconds = (performance.now() - startedAt) / 1000;
      const inRun = stored() - before;
      return { r, inRun, sent, seconds, rate: inRun / seconds };
    };
    for (const c of bounds) await c.warmUp();
    await intoStorage(WARMUP_S);
    for (let i = 0; i < RUNS; i++) {
      const b = await measureCeilings(bounds, i);
      const { result, extra } = await measured(running.child, 'mqtt-external', () => intoStorage(DURATION_S));
      say(
        `  mqtt-external run ${i + 1}: ${fmtInt(result.rate)} readings/s stored (${fmtInt(result.inRun)} of ${fmtInt(result.sent)} published in ${result.seconds.toFixed(1)} s; ` +
          `broker PUBACKs ${fmtInt(result.r.msgsPerS)}/s, p99 ${fmtMs(result.r.p99)}), ${cpuText(extra)}` +
          (result.inRun < result.sent ? ', NOT ALL STORED after 60 s' : '') +
          (result.r.refusals + result.r.publishErrors > 0 ? `, REFUSED ${result.r.refusals}, publish errors ${result.r.publishErrors}` : ''),
      );
      record('mqtt-external', {
        msgsPerS: result.rate,
        p50: NaN,
        p99: NaN,
        refused: result.r.refusals + result.r.publishErrors,
        cpuUs: (extra.serverCpu! / result.rate) * 1e6,
        ...extra,
        ...versus(result.rate, NaN, b),
      });
    }
    await fleet.close();
    await stopAndCheck(running, 'mqtt-external', 'bench_ext', published, 0);
  } finally {
    for (const c of bounds) await c.close();
    if (srv) await disposeServer(srv);
    await broker.stop();
  }
}
