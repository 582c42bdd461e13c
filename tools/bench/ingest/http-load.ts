import autocannon from 'autocannon';
import { type BenchDevice, type LevelPattern, batchJson, levelValue, readingJson } from './devices';

export interface HttpLoadOptions {
  baseUrl: string;
  connections: number;
  durationS: number;
  /** Readings per request: 1 = a single message, n > 1 = a batch (array) of n. */
  batchSize: number;
  /** One device per connection (cycled when fewer devices than connections)… */
  devices: BenchDevice[];
  /** …or, when true, every request from the next device of the pool, round robin. */
  rotateDevices?: boolean;
  /** How the batches' levels move (default: a slow wave inside the normal band). */
  level?: LevelPattern;
}

export interface HttpLoadResult {
  durationS: number;
  requests2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Requests per second answered 2xx. */
  reqPerS: number;
  /** Readings per second acknowledged (2xx × batch size). */
  readingsPerS: number;
  p50: number;
  p99: number;
  /** Sum of `accepted` / `duplicates` in the 202 bodies (0 for the ceiling, which answers {}). */
  acceptedSum: number;
  duplicatesSum: number;
  statusCodes: Record<string, number>;
}

/**
 * POST /api/v1/telemetry with autocannon: `connections` keep-alive connections, pipelining 1
 * (each connection waits for its answer, as a device does), a fresh body per request (new seq,
 * ts now), the device's key in X-API-Key.
 */
export async function runHttpLoad(opts: HttpLoadOptions): Promise<HttpLoadResult> {
  const byKey = new Map(opts.devices.map((d) => [d.key, d]));
  let nextClient = 0;
  let nextDevice = 0;
  let acceptedSum = 0;
  let duplicatesSum = 0;
  const makeBody = (d: BenchDevice) =>
    opts.batchSize > 1 ? batchJson(d, opts.batchSize, Date.now(), opts.level) : readingJson(d, levelValue(d.seq), Date.now());

  const result = await autocannon({
    url: `${opts.baseUrl}/api/v1/telemetry`,
    connections: opts.connections,
    pipelining: 1,
    duration: opts.durationS,
    timeout: 10,
    headers: { 'content-type': 'application/json' },
    setupClient: (client) => {
      const d = opts.devices[nextClient++ % opts.devices.length]!;
      client.setHeaders({ 'x-api-key': d.key });
    },
    requests: [
      {
        method: 'POST',
        path: '/api/v1/telemetry',
        setupRequest: (req: { headers: Record<string, string>; body?: string | Buffer }) => {
          let d: BenchDevice;
          if (opts.rotateDevices) {
            d = opts.devices[nextDevice++ % opts.devices.length]!;
            req.headers['x-api-key'] = d.key;
          } else {
            d = byKey.get(req.headers['x-api-key']!) ?? opts.devices[0]!;
          }
          req.body = makeBody(d);
          return req;
        },
        onResponse: (status: number, body: string) => {
          if (status !== 202) return;
          // The real route answers {accepted, duplicates, commands}; the ceiling {}.
          const i = body.indexOf('"accepted":');
          if (i < 0) return;
          const b = JSON.parse(body) as { accepted: number; duplicates: number };
          acceptedSum += b.accepted;
          duplicatesSum += b.duplicates;
        },
      },
    ],
  });

  const r = result as unknown as {
    duration: number;
    '2xx': number;
    non2xx: number;
    errors: number;
    timeouts: number;
    latency: { p50: number; p99: number };
    statusCodeStats: Record<string, { count: number }>;
  };
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = s.count;
  return {
    durationS: r.duration,
    requests2xx: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    reqPerS: r['2xx'] / r.duration,
    readingsPerS: (r['2xx'] * opts.batchSize) / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    acceptedSum,
    duplicatesSum,
    statusCodes,
  };
}
