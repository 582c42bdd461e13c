// deploy/haproxy.cfg, the documented load balancer, run as it is (Debian's HAProxy, ports of the
// test's own) in front of a server: HTTP with the client's address forwarded, the live WebSocket,
// and devices' MQTT over TCP all work through it.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topics } from '@agua/shared';
import { jsonOf } from '../helpers/api';
import { freePort, waitForPort } from '../helpers/net';
import { LEVEL_1, LEVEL_2, countReadings, levelMsg, postTelemetry, publishQos1, waitFor } from '../helpers/protocol';
import { demoKey, startServer, type TestServer } from '../helpers/server';
import { signIn } from '../helpers/child-server';

const CONFIG = fileURLToPath(new URL('../../../../deploy/haproxy.cfg', import.meta.url));
const CLIENT = '127.0.0.2';

describe('behind deploy/haproxy.cfg', () => {
  let s: TestServer;
  let haproxy: ChildProcess;
  let httpPort: number;
  let mqttPort: number;
  let out = '';

  beforeAll(async () => {
    s = await startServer({ TRUST_PROXY: '127.0.0.1', DEVICE_RATE_LIMIT: '0' });
    [httpPort, mqttPort] = [await freePort(), await freePort()];
    haproxy = spawn('/usr/sbin/haproxy', ['-db', '-f', CONFIG], {
      env: {
        ...process.env,
        AGUA_LB_HTTP_BIND: `127.0.0.1:${httpPort}`,
        AGUA_HTTP_SERVER: s.url.replace('http://', ''),
        AGUA_LB_MQTT_BIND: `127.0.0.1:${mqttPort}`,
        AGUA_MQTT_SERVER: `127.0.0.1:${s.mqttPort}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    haproxy.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    haproxy.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const ready = { exited: () => haproxy.exitCode !== null, output: () => out };
    await waitForPort(httpPort, 'haproxy', ready);
    await waitForPort(mqttPort, 'haproxy', ready);
  });
  afterAll(async () => {
    if (haproxy && haproxy.exitCode === null) {
      const gone = new Promise((r) => haproxy.once('exit', r));
      haproxy.kill('SIGTERM');
      await gone;
    }
    await s?.close();
  });

  it('HTTP: the health check, a sign-in whose audit names the client (not the balancer), and device telemetry', async () => {
    expect((await fetch(`http://127.0.0.1:${httpPort}/api/health`)).status).toBe(200);
    const failed = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ username: 'tras-el-balanceador', password: 'equivocada-123' });
      const req = http.request(
        { host: '127.0.0.1', port: httpPort, path: '/api/v1/auth/login', method: 'POST', localAddress: CLIENT, headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.once('error', reject);
      req.end(body);
    });
    expect(failed).toBe(401);
    const cookie = await signIn({ url: `http://127.0.0.1:${httpPort}` }, 'admin');
    const audit = await jsonOf<{ items: { username: string | null; ip: string | null }[] }>(
      await fetch(`http://127.0.0.1:${httpPort}/api/v1/audit?action=auth.login_failed&limit=50`, { headers: { cookie } }),
    );
    expect(audit.body.items.find((e) => e.username === 'tras-el-balanceador')?.ip).toBe(CLIENT);
    const sent = await postTelemetry({ ...s, url: `http://127.0.0.1:${httpPort}` }, levelMsg(LEVEL_1, 2.5));
    expect(sent.status).toBe(202);
  });

  it('the live socket works through the balancer and gets a reading sent through it', async () => {
    const cookie = await signIn({ url: `http://127.0.0.1:${httpPort}` }, 'viewer');
    const ws = new WebSocket(`ws://127.0.0.1:${httpPort}/api/v1/live`, { headers: { cookie, origin: `http://127.0.0.1:${httpPort}` } });
    const frames: { type: string; data: { deviceId?: string; reading?: { value: number } } }[] = [];
    ws.on('message', (m) => frames.push(JSON.parse(m.toString())));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    await waitFor(() => frames.some((f) => f.type === 'hello'));
    await postTelemetry({ ...s, url: `http://127.0.0.1:${httpPort}` }, levelMsg(LEVEL_1, 6.25));
    await waitFor(() => frames.some((f) => f.type === 'reading.created' && f.data.deviceId === LEVEL_1 && f.data.reading?.value === 6.25));
    ws.close();
  });

  it('MQTT over TCP through the balancer: a device connects and its QoS 1 reading is stored', async () => {
    const before = await countReadings(s, LEVEL_2);
    const device = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      protocolVersion: 4,
      clientId: LEVEL_2,
      username: LEVEL_2,
      password: demoKey(LEVEL_2),
      reconnectPeriod: 0,
    });
    try {
      await publishQos1(device, topics.telemetry(LEVEL_2), levelMsg(LEVEL_2, 1.75));
      // PUBACK means stored, through the balancer too.
      expect(await countReadings(s, LEVEL_2)).toBe(before + 1);
    } finally {
      await device.endAsync();
    }
  });
});
