/** [mqtt] MQTT QoS 1 into the server's own broker, against bare Aedes and Mosquitto (target ≥ 0.7× Mosquitto). */
import { type Ceiling, fakeDevices, measureCeilings, mosquittoCeiling, mqttCeiling, versus } from '../ceilings';
import { ADMIN, registerDevices, signIn } from '../devices';
import { mqttLine, recordMqtt } from '../figure-lines';
import { MqttFleet } from '../mqtt-load';
import { DURATION_S, MQTT_CLIENTS, MQTT_WINDOW, RUNS, WARMUP_S, GEOMETRY } from '../options';
import { measured, notes, openProbes, profDirFor, say, servers, startServer, stopAndCheck, subjectOf } from '../bench-run';
import { disposeServer } from '../server-process';

export async function mqttScenario(): Promise<void> {
  say(`\n[mqtt] MQTT QoS 1, ${MQTT_CLIENTS} devices (mqtt.js), ${MQTT_WINDOW} messages in flight each, DEVICE_RATE_LIMIT=0`);
  const srv = await startServer({ cpuProfDir: profDirFor('mqtt') });
  const bounds: Ceiling[] = [];
  try {
    const aedesFleet = await MqttFleet.connect(servers.ceiling!.mqttPort, fakeDevices('ceilmq', MQTT_CLIENTS), { authenticate: false });
    bounds.push(mqttCeiling('ceiling-mqtt', 'ceiling', servers.ceiling!.child, aedesFleet));
    const mosquitto = await mosquittoCeiling();
    if (mosquitto) bounds.push(mosquitto);
    const admin = await signIn(srv.httpUrl, ADMIN);
    const devices = await registerDevices(srv.httpUrl, admin, 'bench_mqtt', MQTT_CLIENTS, GEOMETRY);
    const fleet = await MqttFleet.connect(srv.mqttPort, devices, { authenticate: true });
    const subject = subjectOf(srv);
    openProbes.add(subject);
    let acknowledged = 0;
    for (const c of bounds) await c.warmUp();
    const warm = await fleet.run(WARMUP_S, MQTT_WINDOW);
    acknowledged += warm.acked + warm.drained;
    for (let i = 0; i < RUNS; i++) {
      const b = await measureCeilings(bounds, i);
      const { result: r, extra } = await measured(subject, 'mqtt', () => fleet.run(DURATION_S, MQTT_WINDOW));
      acknowledged += r.acked + r.drained;
      say(mqttLine('mqtt', i, r, extra));
      recordMqtt('mqtt', r, extra, versus(r.msgsPerS, r.p99, b));
    }
    if (fleet.outstanding() > 0) notes.push(`mqtt: ${fleet.outstanding()} publishes still without PUBACK after 30 s`);
    await fleet.close();
    await stopAndCheck(srv, 'mqtt', 'bench_mqtt', acknowledged, 0);
  } finally {
    for (const c of bounds) await c.close();
    await disposeServer(srv);
  }
}
