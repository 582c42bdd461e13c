// /api/health with an external broker (MQTT_URL): it names the broker's state, so monitoring sees
// when MQTT devices cannot reach the server; it stays 200 (degraded), because browsers and HTTP
// devices are still served and a load balancer must keep the instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMosquitto, type TestMosquitto } from '../helpers/mosquitto';
import { LEVEL_1, levelMsg, postTelemetry, waitFor } from '../helpers/protocol';
import { startServer, type TestServer } from '../helpers/server';

let broker: TestMosquitto;
let s: TestServer;

beforeAll(async () => {
  broker = await startMosquitto();
  s = await startServer({ MQTT_URL: broker.adminUrl });
});

afterAll(async () => {
  await s?.close();
  await broker?.stop();
});

async function health(): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${s.url}/api/health`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('health with an external broker', () => {
  it('says ok with the broker connected, degraded while it is away, and ok again when it is back', async () => {
    expect(await health()).toEqual({ status: 200, body: { status: 'ok', broker: { connected: true } } });

    const { port, adminPassword } = broker;
    await broker.stop();
    await waitFor(async () => (await health()).body.status === 'degraded', 10_000);
    expect(await health()).toEqual({ status: 200, body: { status: 'degraded', broker: { connected: false } } });
    // An HTTP device still reaches the server.
    expect((await postTelemetry(s, levelMsg(LEVEL_1, 1.5))).status).toBe(202);

    broker = await startMosquitto({ port, adminPassword });
    const back = await waitFor(async () => {
      const h = await health();
      return h.body.status === 'ok' && h;
    }, 20_000);
    expect(back).toEqual({ status: 200, body: { status: 'ok', broker: { connected: true } } });
  });
});
