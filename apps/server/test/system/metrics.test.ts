// docs/operations.md "Operations": GET /metrics in Prometheus' text format, on METRICS_PORT, or on PORT with
// `Authorization: Bearer <METRICS_TOKEN>`; never the figures without the token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topics } from '@agua/shared';
import { expectApiError } from '../helpers/api';
import { LEVEL_1, LEVEL_2, connectDevice, endClient, levelMsg, postTelemetry, publishQos1, waitFor } from '../helpers/protocol';
import { startServer, type TestServer } from '../helpers/server';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample line, e.g. `agua_readings_total{…,transport="http",result="accepted"}`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('/metrics on PORT with METRICS_TOKEN', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ METRICS_TOKEN: TOKEN, INSTANCE_ID: 'agua-test-1' });
  });
  afterAll(async () => s?.close());

  const scrape = (authorization?: string) => s.fetch('/metrics', authorization ? { headers: { authorization } } : {});

  it('without the token, or with a wrong one, is 401 JSON and never the figures', async () => {
    for (const auth of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const res = await scrape(auth);
      const body = await expectApiError(res, 401, 'UNAUTHENTICATED');
      expect(JSON.stringify(body)).not.toContain('agua_');
    }
  });

  it('with the token: the figures, labelled with the instance, counting what happens', async () => {
    expect((await postTelemetry(s, levelMsg(LEVEL_1, 3.2))).status).toBe(202);
    expect((await postTelemetry(s, [levelMsg(LEVEL_1, 3.3, { boot: 'm', seq: 1 }), levelMsg(LEVEL_1, 3.3, { boot: 'm', seq: 1 })])).status).toBe(202);
    const refused = await postTelemetry(s, levelMsg(LEVEL_1, 'alto'));
    expect(refused.status).toBe(422);
    const refusedCode = ((await refused.json()) as { code: string }).code;
    const device = await connectDevice(s, LEVEL_2);
    try {
      await publishQos1(device, topics.telemetry(LEVEL_2), levelMsg(LEVEL_2, 1.1));
      const res = await scrape(`Bearer ${TOKEN}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      expect(sample(text, 'agua_readings_total', { instance_id: 'agua-test-1', transport: 'http', result: 'accepted' })).toBe(2);
      expect(sample(text, 'agua_readings_total', { transport: 'http', result: 'duplicate' })).toBe(1);
      expect(sample(text, 'agua_readings_total', { transport: 'mqtt', result: 'accepted' })).toBe(1);
      expect(sample(text, 'agua_telemetry_refused_total', { transport: 'http', code: refusedCode })).toBe(1);
      expect(sample(text, 'agua_mqtt_sessions')).toBe(1);
      expect(sample(text, 'agua_group_commit_readings_count')).toBeGreaterThanOrEqual(3);
      expect(sample(text, 'agua_group_commit_seconds_count')).toBeGreaterThanOrEqual(3);
      expect(sample(text, 'agua_live_sockets')).toBe(0);
      expect(sample(text, 'agua_alarms_open', { priority: '1' })).toBe(0);
      // prom-client's process and Node.js figures under their standard names (what stock Node.js
      // dashboards query), ours under agua_; every one labelled with the instance.
      expect(text).toMatch(/^process_cpu_seconds_total\{instance_id="agua-test-1"\} [\d.e-]+$/m);
      expect(text).toMatch(/^process_resident_memory_bytes\{instance_id="agua-test-1"\} \d+$/m);
      expect(text).toMatch(/^nodejs_heap_size_used_bytes\{instance_id="agua-test-1"\} \d+$/m);
      expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds\{instance_id="agua-test-1"\} [\d.e-]+$/m);
      const series = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
      expect(series.filter((line) => !/^(agua_|process_|nodejs_)/.test(line))).toEqual([]);
      expect(series.filter((line) => /^agua_(process|nodejs)_/.test(line))).toEqual([]);
      expect(series.filter((line) => !line.includes('instance_id="agua-test-1"'))).toEqual([]);
    } finally {
      await endClient(device);
    }
    // The session's end shows at the next scrape.
    await waitFor(async () => sample(await (await scrape(`Bearer ${TOKEN}`)).text(), 'agua_mqtt_sessions') === 0);
  });

  it('an open alarm shows by its priority', async () => {
    expect((await postTelemetry(s, levelMsg(LEVEL_2, 4.9))).status).toBe(202);
    await waitFor(async () => (sample(await (await scrape(`Bearer ${TOKEN}`)).text(), 'agua_alarms_open', { priority: '1' }) ?? 0) >= 1, 5000);
  });
});

describe('/metrics on METRICS_PORT', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ METRICS_PORT: '0' });
  });
  afterAll(async () => s?.close());

  it('is served there without a token, and nothing else is; on PORT without METRICS_TOKEN it is 404', async () => {
    const port = s.metricsServer!.port();
    expect(port).toBeGreaterThan(0);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('agua_readings_total');
    await expectApiError(await fetch(`http://127.0.0.1:${port}/api/v1/devices`), 404);
    await expectApiError(await s.fetch('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }), 404, 'ROUTE_NOT_FOUND');
  });
});
