/** Bench devices: sign-in, registration and the readings they send (docs/protocol.md "Message"). */

export const ADMIN = { username: 'admin', password: 'admin123', masterPassword: 'maestra2024' } as const;
export const VIEWER = { username: 'viewer', password: 'viewer123' } as const;

export interface BenchDevice {
  id: string;
  key: string;
  /** A random per-start `boot` (docs/protocol.md dedupe), 8 hex digits like the simulator's. */
  boot: string;
  /** Next `seq` to send. */
  seq: number;
  /** For batches: the `ts` of the device's next buffered reading (epoch ms). */
  nextTs?: number;
}

/** Signs in and returns the `name=value` of the session cookie. */
export async function signIn(baseUrl: string, credentials: Record<string, string>): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${credentials.username} failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('agua_session='));
  if (!cookie) throw new Error('sign-in answered without a session cookie');
  return cookie.split(';')[0]!;
}

/**
 * A geometry for --geometry: a 20 m² tank (maxLevel 5) with a crest at 4.5 m and a weir, so that
 * every reading's water figures are computed. A level sensor, so that the same values cross the
 * same alarm bands as without (the storm scenarios).
 */
const BENCH_GEOMETRY = { sensor: 'level', shape: { kind: 'rectangular', areaM2: 20 }, crestLevelM: 4.5, weir: { widthM: 1 } };

/**
 * Registers `count` level sensors named `<prefix>_000…` (admin session) and returns their keys;
 * with `geometry`, each gets BENCH_GEOMETRY.
 */
export async function registerDevices(baseUrl: string, adminCookie: string, prefix: string, count: number, geometry = false): Promise<BenchDevice[]> {
  const out: BenchDevice[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${prefix}_${String(i).padStart(3, '0')}`;
    const res = await fetch(`${baseUrl}/api/v1/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: adminCookie },
      body: JSON.stringify({ id, name: `Bench ${id}`, location: 'bench', type: 'level_sensor', waterType: 'clean', config: { maxLevel: 5 } }),
    });
    if (res.status !== 201) throw new Error(`creating device ${id} failed: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { apiKey: string };
    if (geometry) await api(baseUrl, adminCookie, 'PUT', `/devices/${id}/geometry`, BENCH_GEOMETRY);
    out.push({ id, key: body.apiKey, boot: Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, '0'), seq: 0 });
  }
  return out;
}

/** One reading of a device: what the load sends and what the raw SQLite ceiling stores. */
export interface BenchReading {
  seq: number;
  value: number;
  tsMs: number;
}

function messageJson(d: BenchDevice, r: BenchReading): string {
  return `{"deviceId":"${d.id}","type":"level_sensor","data":{"value":${r.value},"unit":"m"},"ts":${r.tsMs},"seq":${r.seq},"boot":"${d.boot}"}`;
}

/**
 * One reading as firmware sends it: epoch-ms `ts`, `seq` and `boot` (so the dedupe path is
 * exercised, as with the simulator). Built as a string: the load generator shares the machine.
 */
export function readingJson(d: BenchDevice, value: number, tsMs: number): string {
  return messageJson(d, { seq: d.seq++, value, tsMs });
}

/** A level that moves a little, always inside 0…maxLevel (5 m). */
export function levelValue(seq: number): number {
  return Math.round((2 + Math.sin(seq / 50)) * 1000) / 1000;
}

/** How a device's level moves with its `seq`. */
export type LevelPattern = (seq: number) => number;

/**
 * An alarm storm on a device of maxLevel 5 m with its low, high and high-high rules on: every
 * batch holds readings below low (20 %), between the bands, above high (60 %) and above high-high
 * (85 %); with a period of 7 the newest reading of a batch of 100 lands in another band each
 * batch, so each batch moves the device's alarms.
 */
const STORM_LEVELS = [0.5, 2.0, 3.6, 4.6, 3.6, 2.0, 0.5];
export const stormLevel: LevelPattern = (seq) => STORM_LEVELS[seq % STORM_LEVELS.length]!;

/** Spacing of the buffered readings in a batch. */
export const BATCH_SPACING_MS = 10;

/**
 * The `n` buffered readings of a device's next batch, oldest first, `BATCH_SPACING_MS` apart, as
 * a device catching up sends them: each batch continues where the device's previous one ended
 * (history never overlaps), starting an hour back and never passing now.
 */
export function nextBatch(d: BenchDevice, n: number, nowMs: number, level: LevelPattern = levelValue): BenchReading[] {
  const out: BenchReading[] = new Array(n);
  let ts = d.nextTs ?? nowMs - 3600_000;
  for (let i = 0; i < n; i++) {
    const seq = d.seq++;
    out[i] = { seq, value: level(seq), tsMs: Math.min(ts, nowMs) };
    ts += BATCH_SPACING_MS;
  }
  d.nextTs = ts;
  return out;
}

/** The body of a batch request: `nextBatch` as a JSON array. */
export function batchJson(d: BenchDevice, n: number, nowMs: number, level: LevelPattern = levelValue): string {
  return `[${nextBatch(d, n, nowMs, level)
    .map((r) => messageJson(d, r))
    .join(',')}]`;
}

/** A call of the web API with a session cookie; throws on anything but 2xx. */
export async function api<T>(baseUrl: string, cookie: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { cookie, origin: baseUrl, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** One reading over HTTP, timed from send to answer. */
export async function postReading(srv: { httpUrl: string }, d: BenchDevice, value: number): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${srv.httpUrl}/api/v1/telemetry`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': d.key }, body: readingJson(d, value, Date.now()) });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
}
