import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers/server';

describe('server smoke', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s.close());

  it('answers health with the MQTT port', async () => {
    const res = await s.fetch('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', mqtt: { port: s.mqttPort } });
  });

  it('signs in as operator and lists the four seed devices', async () => {
    const cookie = await s.login('operator');
    const res = await s.fetch('/api/v1/devices', { cookie });
    expect(res.status).toBe(200);
    const devices = (await res.json()) as Array<{ id: string }>;
    expect(devices.map((d) => d.id)).toEqual(['esp32_nivel_01', 'esp32_nivel_02', 'esp32_compuerta_01', 'esp32_compuerta_02']);
  });
});
