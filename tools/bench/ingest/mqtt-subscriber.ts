/**
 * Worker thread of the Mosquitto ceiling: one mqtt.js client subscribed at QoS 1 (mqtt.js answers
 * each message with its PUBACK), counting what the broker relays.
 */
import { parentPort, workerData } from 'node:worker_threads';
import mqtt from 'mqtt';

export interface SubscriberInit {
  port: number;
  topic: string;
}
export type ToSubscriber = { type: 'count' } | { type: 'close' };
export type FromSubscriber = { type: 'ready' } | { type: 'error'; message: string } | { type: 'count'; received: number } | { type: 'closed' };

const init = workerData as SubscriberInit;
const port = parentPort!;
let received = 0;

const client = mqtt.connect(`mqtt://127.0.0.1:${init.port}`, { clientId: 'bench_relay_sink', protocolVersion: 4, clean: true, reconnectPeriod: 0 });
client.on('message', () => received++);
client.once('error', (err) => port.postMessage({ type: 'error', message: err.message } satisfies FromSubscriber));
client.once('connect', () => {
  client.subscribe(init.topic, { qos: 1 }, (err) => {
    port.postMessage((err ? { type: 'error', message: err.message } : { type: 'ready' }) satisfies FromSubscriber);
  });
});

port.on('message', (msg: ToSubscriber) => {
  if (msg.type === 'count') port.postMessage({ type: 'count', received } satisfies FromSubscriber);
  else client.end(false, {}, () => port.postMessage({ type: 'closed' } satisfies FromSubscriber));
});
