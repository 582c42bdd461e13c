import mqtt, { type MqttClient } from 'mqtt';
import { type BenchDevice, levelValue, readingJson } from './devices';

export interface MqttLoadResult {
  durationS: number;
  /** PUBACKs received inside the measured window. */
  acked: number;
  msgsPerS: number;
  /** publish → PUBACK, ms. */
  p50: number;
  p99: number;
  /** PUBACKs received after the window while draining (stored too, not counted in the rate). */
  drained: number;
  publishErrors: number;
  /** Refusals the server published on agua/v1/{id}/errors (should be 0). */
  refusals: number;
}

interface Conn {
  device: BenchDevice;
  client: MqttClient;
  topic: string;
  inflight: number;
}

/**
 * Devices publishing telemetry at QoS 1 with a window of outstanding messages: each client keeps
 * `window` publishes in flight and sends the next one when a PUBACK comes back.
 */
export class MqttFleet {
  private conns: Conn[] = [];
  private refusals = 0;

  static async connect(port: number, devices: BenchDevice[], opts: { authenticate: boolean }): Promise<MqttFleet> {
    const fleet = new MqttFleet();
    fleet.conns = await Promise.all(
      devices.map(async (device) => {
        const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
          clientId: device.id,
          ...(opts.authenticate ? { username: device.id, password: device.key } : {}),
          protocolVersion: 4,
          clean: true,
          reconnectPeriod: 0,
          keepalive: 60,
          will: { topic: `agua/v1/${device.id}/status`, payload: Buffer.from('offline'), qos: 1, retain: true },
        });
        await client.subscribeAsync(`agua/v1/${device.id}/errors`, { qos: 1 });
        client.on('message', (topic) => {
          if (topic.endsWith('/errors')) fleet.refusals++;
        });
        return { device, client, topic: `agua/v1/${device.id}/telemetry`, inflight: 0 };
      }),
    );
    return fleet;
  }

  /** Publishes for `durationS` seconds, then waits for every outstanding PUBACK. */
  async run(durationS: number, window: number): Promise<MqttLoadResult> {
    const latencies: number[] = [];
    let acked = 0;
    let drained = 0;
    let publishErrors = 0;
    let running = true;
    const refusalsBefore = this.refusals;
    const start = performance.now();
    let end = Infinity;

    const pump = (c: Conn) => {
      while (running && c.inflight < window) {
        c.inflight++;
        const sentAt = performance.now();
        const payload = readingJson(c.device, levelValue(c.device.seq), Date.now());
        c.client.publish(c.topic, payload, { qos: 1 }, (err) => {
          c.inflight--;
          const now = performance.now();
          if (err) publishErrors++;
          else if (now <= end) {
            acked++;
            latencies.push(now - sentAt);
          } else drained++;
          pump(c);
        });
      }
    };
    for (const c of this.conns) pump(c);
    await new Promise((r) => setTimeout(r, durationS * 1000));
    running = false;
    end = performance.now();
    const deadline = Date.now() + 30_000;
    while (this.conns.some((c) => c.inflight > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const sorted = Float64Array.from(latencies).sort();
    const pct = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);
    const seconds = (end - start) / 1000;
    return {
      durationS: seconds,
      acked,
      msgsPerS: acked / seconds,
      p50: pct(50),
      p99: pct(99),
      drained,
      publishErrors,
      refusals: this.refusals - refusalsBefore,
    };
  }

  /** Messages still without a PUBACK (should be 0 after run()). */
  outstanding(): number {
    return this.conns.reduce((n, c) => n + c.inflight, 0);
  }

  async close(): Promise<void> {
    await Promise.all(this.conns.map((c) => c.client.endAsync()));
  }
}
