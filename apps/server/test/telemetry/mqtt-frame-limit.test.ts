import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';

describe('MQTT: hostile packet sizes', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s.close());

  it('closes a connection whose first packet announces 200 MB, without waiting for it, and keeps serving', async () => {
    const socket = net.connect(s.mqttPort, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // CONNECT with a remaining length of 200,000,000 bytes (varint 0x80 0x84 0xAF 0x5F).
    socket.write(Buffer.from([0x10, 0x80, 0x84, 0xaf, 0x5f, 0x00, 0x04]));
    const closed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 3000);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    expect(closed).toBe(true);
    const health = await s.fetch('/api/health');
    expect(health.status).toBe(200);
  });
});
