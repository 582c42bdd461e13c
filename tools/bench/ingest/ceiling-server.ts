/**
 * The ceiling of the ingest bench: what this machine and load generator reach against servers
 * that do (almost) nothing — a bare Fastify 5 instance with one POST route answering 202 {}, and a
 * bare Aedes broker (no authentication, no storage; QoS 1 PUBACK at once). Run as a child process
 * by ingest.ts with PORT and MQTT_PORT.
 */
import net from 'node:net';
import { Aedes } from 'aedes';
import Fastify from 'fastify';

const port = Number(process.env.PORT ?? 0);
const mqttPort = Number(process.env.MQTT_PORT ?? 0);

const app = Fastify({ bodyLimit: 256 * 1024 });
// Same path and body as the real route; the body is parsed as JSON by Fastify's default parser.
app.post('/api/v1/telemetry', async (_req, reply) => reply.status(202).send({}));
app.get('/health', async () => ({ status: 'ok' }));

const aedes = new Aedes();
const broker = net.createServer(aedes.handle);

async function main(): Promise<void> {
  await aedes.listen();
  await new Promise<void>((resolve) => broker.listen(mqttPort, '127.0.0.1', resolve));
  await app.listen({ port, host: '127.0.0.1' });
}

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  const force = setTimeout(() => process.exit(1), 5000);
  force.unref();
  void app
    .close()
    .then(() => new Promise<void>((r) => aedes.close(() => r())))
    .then(() => new Promise<void>((r) => broker.close(() => r())))
    .then(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
