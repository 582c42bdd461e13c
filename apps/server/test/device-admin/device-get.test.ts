// GET /api/v1/devices/{id} (docs/api.md "Devices"): one device in the list's shape, for anyone with
// `read`; a retired device only with ?include=retired, as in the list; unknown or purged 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '@agua/shared';
import { expectApiError, jsonOf } from '../helpers/api';
import { GATE_1, LEVEL_1, levelMsg, postTelemetry } from '../helpers/protocol';
import { startServer, type TestServer } from '../helpers/server';

describe('GET /api/v1/devices/{id}', () => {
  let s: TestServer;
  let viewer: string;
  let admin: string;

  const listed = async (query = '') => (await jsonOf<Device[]>(await s.fetch(`/api/v1/devices${query}`, { cookie: viewer }))).body;
  const one = (id: string, query = '', cookie = viewer) => s.fetch(`/api/v1/devices/${encodeURIComponent(id)}${query}`, { cookie });

  beforeAll(async () => {
    s = await startServer();
    viewer = await s.login('viewer');
    admin = await s.login('admin');
    expect((await postTelemetry(s, levelMsg(LEVEL_1, 3.25))).status).toBe(202);
  });
  afterAll(async () => s?.close());

  it('is the device exactly as the list shows it, to a viewer', async () => {
    for (const id of [LEVEL_1, GATE_1]) {
      const { status, body } = await jsonOf<Device>(await one(id));
      expect(status).toBe(200);
      expect(body).toEqual((await listed()).find((d) => d.id === id));
    }
    const { body } = await jsonOf<Device>(await one(LEVEL_1));
    expect(body).toMatchObject({ id: LEVEL_1, type: 'level_sensor', reading: { value: 3.25, unit: 'm' } });
  });

  it('unknown id: 404 DEVICE_NOT_FOUND; no session: 401; a bad include: 400', async () => {
    await expectApiError(await one('no_such_device'), 404, 'DEVICE_NOT_FOUND');
    await expectApiError(await s.fetch(`/api/v1/devices/${LEVEL_1}`), 401, 'UNAUTHENTICATED');
    await expectApiError(await one(LEVEL_1, '?include=all'), 400, 'VALIDATION_FAILED');
  });

  it('a retired device: 404 unless ?include=retired, as in the list; purged: 404 always', async () => {
    const created = await s.fetch('/api/v1/devices', {
      method: 'POST',
      cookie: admin,
      json: { id: 'retirado_get', name: 'Sensor Retirado', location: 'Pruebas', type: 'level_sensor', config: { maxLevel: 5 } },
    });
    expect(created.status).toBe(201);
    expect((await s.fetch('/api/v1/devices/retirado_get', { method: 'DELETE', cookie: admin })).status).toBe(204);

    expect((await listed()).some((d) => d.id === 'retirado_get')).toBe(false);
    await expectApiError(await one('retirado_get'), 404, 'DEVICE_NOT_FOUND');
    const { status, body } = await jsonOf<Device>(await one('retirado_get', '?include=retired'));
    expect(status).toBe(200);
    expect(body).toEqual((await listed('?include=retired')).find((d) => d.id === 'retirado_get'));

    expect((await s.fetch('/api/v1/devices/retirado_get?purge=true', { method: 'DELETE', cookie: admin })).status).toBe(204);
    await expectApiError(await one('retirado_get', '?include=retired'), 404, 'DEVICE_NOT_FOUND');
  });

  it('is in the OpenAPI document with the Device schema', async () => {
    const doc = (await (await s.fetch('/api/docs/json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { title?: string; $ref?: string; properties?: Record<string, unknown> } }> }> }>>;
    };
    const op = doc.paths['/api/v1/devices/{id}']?.get;
    expect(op).toBeDefined();
    expect(Object.keys(op!.responses).sort()).toEqual(['200', '400', '401', '403', '404']);
    const schema = op!.responses['200']!.content!['application/json']!.schema;
    expect(Object.keys(schema.properties ?? {})).toEqual(expect.arrayContaining(['id', 'name', 'status', 'enabled', 'lastSeen', 'config', 'reading']));
  });
});
