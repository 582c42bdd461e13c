/** [ceiling] Every ceiling measured on its own (`--only ceiling` without any figure). */
import { fakeDevices, fastifyCeiling, mosquittoCeiling, mqttCeiling, pgCopyCeiling, rawSqliteCeiling, standalone } from '../ceilings';
import { MqttFleet } from '../mqtt-load';
import { BATCH, MQTT_CLIENTS, PG } from '../options';
import { collectProfile, profDirFor, say, startServer } from '../bench-run';
import { disposeServer, startCeilingServer } from '../server-process';

export async function ceilingsAlone(): Promise<void> {
  say(
    `\n[ceiling] bare Fastify 5 route (202 {}), bare Aedes broker, ${PG ? 'psql \\copy into a server\'s readings table' : 'raw better-sqlite3'}, Mosquitto; same load generator settings as the figures`,
  );
  const srv = await startCeilingServer({ cpuProfDir: profDirFor('ceiling') });
  try {
    await standalone(fastifyCeiling(srv, 1));
    await standalone(fastifyCeiling(srv, BATCH));
    const aedes = mqttCeiling('ceiling-mqtt', 'ceiling', srv.child, await MqttFleet.connect(srv.mqttPort, fakeDevices('ceilmq', MQTT_CLIENTS), { authenticate: false }));
    await standalone(aedes).finally(() => aedes.close());
  } finally {
    await srv.child.stop();
    collectProfile(srv, 'ceiling');
  }
  if (PG) {
    // The readings table of a server's database (its migrations make it), the server idling.
    const server = await startServer({});
    try {
      await standalone(pgCopyCeiling(server));
    } finally {
      await disposeServer(server);
    }
  } else {
    const raw = rawSqliteCeiling();
    await standalone(raw).finally(() => raw.close());
  }
  const mosquitto = await mosquittoCeiling();
  if (mosquitto) await standalone(mosquitto).finally(() => mosquitto.close());
}
