/**
 * Worker thread of the live-latency bench: some of the devices sending single readings at a
 * fixed rate — POSTed over HTTP, or published over MQTT at QoS 1 (answered by the PUBACK, which
 * the server sends once the reading is stored). The schedule is open loop (a reading is sent when it is due, whether or not the
 * earlier ones were answered), so a server that falls behind shows as latency, not as a lower
 * offered rate. Each send time goes to every receiver, which match the frames to it.
 */
import http from 'node:http';
import mqtt, { type MqttClient } from 'mqtt';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { type BenchDevice, readingJson } from './devices';
import type { SentNote } from './live-receiver';
import { histogramAdd, newHistogram } from './stats';

export interface SenderInit {
  baseUrl: string;
  devices: BenchDevice[];
  /** Source addresses of the POSTs: the devices take turns, each its own address. */
  addresses: string[];
  /** Keep-alive connections this sender may open (HTTP) from each address. */
  maxSockets: number;
  /** Publish over MQTT to this broker instead of POSTing (each device its own session). */
  mqttUrl?: string;
  /** One port to each receiver. */
  receivers: MessagePort[];
}
export type ToSender = { type: 'run'; durationS: number; rate: number } | { type: 'close' };
export type FromSender =
  | {
      type: 'done';
      sent: number;
      ok: number;
      failed: number;
      /** From the first send to the last one due / to the last answer. */
      sendSeconds: number;
      answerSeconds: number;
      /** POST sent → answer (or publish → PUBACK), ms (stats.ts histogram). */
      post: Uint32Array;
    }
  | { type: 'closed' };

const init = workerData as SenderInit;
const port = parentPort!;
const agent = new http.Agent({ keepAlive: true, maxSockets: init.maxSockets });
const url = `${init.baseUrl}/api/v1/telemetry`;
const now = () => performance.timeOrigin + performance.now();

/** Each device's MQTT session, when the readings go over MQTT. */
const sessions: Promise<Map<string, MqttClient>> | null = init.mqttUrl
  ? Promise.all(
      init.devices.map(async (d) => {
        const client = await mqtt.connectAsync(init.mqttUrl!, { clientId: d.id, username: d.id, password: d.key, protocolVersion: 4, clean: true, reconnectPeriod: 0, keepalive: 60 });
        return [d.id, client] as const;
      }),
    ).then((entries) => new Map(entries))
  : null;

/** Publishes one reading at QoS 1; 202 stands for its PUBACK, as for a POST. */
function publish(client: MqttClient, d: BenchDevice, body: string): Promise<number> {
  return new Promise((resolve) => client.publish(`agua/v1/${d.id}/telemetry`, body, { qos: 1 }, (err) => resolve(err ? 0 : 202)));
}

/** Each device's source address (the agent keeps a pool per address). */
const addressOf = new Map(init.devices.map((d, i) => [d.id, init.addresses[i % init.addresses.length]!]));

function post(d: BenchDevice, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: 'POST', agent, localAddress: addressOf.get(d.id)!, headers: { 'content-type': 'application/json', 'x-api-key': d.key, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** Send times not yet posted to the receivers: one message per event-loop turn, not per reading. */
let note: SentNote = { keys: [], times: [] };
let flushScheduled = false;
function flushNote(): void {
  flushScheduled = false;
  for (const r of init.receivers) r.postMessage(note);
  note = { keys: [], times: [] };
}

/**
 * Reading k is due at start + k / rate and comes from device k mod n: each device sends
 * rate / n per second, phases spread evenly. A late timer catches up instead of lowering the rate.
 */
async function run(durationS: number, rate: number): Promise<Extract<FromSender, { type: 'done' }>> {
  const devices = init.devices;
  const clients = await sessions;
  const send = (d: BenchDevice, body: string) => (clients ? publish(clients.get(d.id)!, d, body) : post(d, body));
  const postLatencies = newHistogram();
  const pending = new Set<Promise<unknown>>();
  let sent = 0;
  let ok = 0;
  let failed = 0;
  let lastAnswer = 0;
  const start = performance.now();
  const total = Math.floor(durationS * rate);
  await new Promise<void>((resolve) => {
    const tick = () => {
      const t = performance.now();
      while (sent < total && start + (sent * 1000) / rate <= t) {
        const d = devices[sent % devices.length]!;
        // A value unique per device within a run (100,000 readings): frames are matched by deviceId + value.
        const value = 1 + (d.seq % 100_000) / 100_000;
        const body = readingJson(d, value, Date.now());
        const sentAt = now();
        note.keys.push(`${d.id}|${value}`);
        note.times.push(sentAt);
        sent++;
        const p = send(d, body).then((status) => {
          const answeredAt = now();
          histogramAdd(postLatencies, answeredAt - sentAt);
          lastAnswer = performance.now();
          if (status === 202) ok++;
          else failed++;
        });
        pending.add(p);
        void p.finally(() => pending.delete(p));
      }
      if (!flushScheduled && note.keys.length > 0) {
        flushScheduled = true;
        setImmediate(flushNote);
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + (sent * 1000) / rate - performance.now()));
      else resolve();
    };
    tick();
  });
  const sendSeconds = (performance.now() - start) / 1000;
  await Promise.all(pending);
  return { type: 'done', sent, ok, failed, sendSeconds, answerSeconds: (lastAnswer - start) / 1000, post: postLatencies };
}

port.on('message', (msg: ToSender) => {
  if (msg.type === 'run') {
    void run(msg.durationS, msg.rate).then((result) => port.postMessage(result, [result.post.buffer as ArrayBuffer]));
  } else {
    agent.destroy();
    void (async () => {
      const clients = await sessions;
      if (clients) await Promise.all([...clients.values()].map((c) => c.endAsync()));
      for (const r of init.receivers) r.close();
      port.postMessage({ type: 'closed' } satisfies FromSender);
    })();
  }
});
