// docs/water.md "Geometry and calibration": versioned per level sensor, read with read, changed
// with manage_devices as a new version (audited), checked field by field, and kept across a restart.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceGeometry } from '@agua/shared';
import { auditPage, createDevice, expectApiError, ISO_Z, jsonOf } from '../helpers/api';
import { GATE_1, LEVEL_1, LEVEL_2 } from '../helpers/protocol';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

const path = (deviceId: string) => `/api/v1/devices/${deviceId}/geometry`;

describe('geometry and calibration of level sensors', () => {
  const dataDir = tempDataDir();
  let s: TestServer;
  let admin: string;
  let operator: string;
  let viewer: string;

  const get = async (deviceId: string, cookie = viewer) => {
    const { status, body } = await jsonOf<DeviceGeometry>(await s.fetch(path(deviceId), { cookie }));
    expect(status).toBe(200);
    return body;
  };
  const put = (deviceId: string, body: unknown, cookie = admin) => s.fetch(path(deviceId), { method: 'PUT', cookie, json: body });

  beforeAll(async () => {
    s = await startServer({}, { dataDir });
    [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the demo sensors come with their tanks as version 1, by nobody', async () => {
    const wetWell = await get(LEVEL_1);
    expect(wetWell).toMatchObject({
      version: 1,
      sensor: 'level',
      mountHeightM: null,
      zeroOffsetM: 0,
      crestLevelM: 9,
      shape: { kind: 'rectangular', areaM2: 24 },
      weir: { widthM: 1.5, coefficient: 0.62 },
      flowWindowS: 300,
      spill: { onDelayS: 30, offDelayS: 120, deadbandM: 0.02 },
      by: null,
    });
    expect(wetWell.validFrom).toMatch(ISO_Z);
    expect(wetWell.versions).toHaveLength(1);
    expect(await get(LEVEL_2)).toMatchObject({ version: 1, shape: { kind: 'vertical_cylinder', diameterM: 16 }, crestLevelM: null, weir: null });
  });

  it('a sensor never configured is version 0 with the defaults; gates and unknown devices are 404', async () => {
    await createDevice(s, admin, { id: 'esp32_geo_nuevo', name: 'Nuevo', location: 'Prueba', type: 'level_sensor', waterType: 'clean', config: { maxLevel: 4 } });
    expect(await get('esp32_geo_nuevo')).toEqual({
      version: 0,
      sensor: 'level',
      mountHeightM: null,
      zeroOffsetM: 0,
      crestLevelM: null,
      shape: null,
      weir: null,
      flowWindowS: 300,
      spill: { onDelayS: 30, offDelayS: 120, deadbandM: 0.02 },
      validFrom: null,
      by: null,
      versions: [],
    });
    await expectApiError(await s.fetch(path(GATE_1), { cookie: viewer }), 404, 'DEVICE_NOT_FOUND');
    await expectApiError(await s.fetch(path('esp32_no_existe'), { cookie: viewer }), 404, 'DEVICE_NOT_FOUND');
    await expectApiError(await put(GATE_1, {}), 404, 'DEVICE_NOT_FOUND');
  });

  it('only manage_devices changes it; a change is a new version with its author, audited', async () => {
    await expectApiError(await put(LEVEL_2, { shape: { kind: 'rectangular', areaM2: 10 } }, operator), 403);
    await expectApiError(await s.fetch(path(LEVEL_2), { method: 'PUT', json: {} }), 401);
    const res = await put(LEVEL_2, { sensor: 'distance', mountHeightM: 5.5, zeroOffsetM: -0.02, shape: { kind: 'horizontal_cylinder', diameterM: 3, lengthM: 12 }, spill: { onDelayS: 10 } });
    const { status, body } = await jsonOf<DeviceGeometry>(res);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      version: 2,
      sensor: 'distance',
      mountHeightM: 5.5,
      zeroOffsetM: -0.02,
      shape: { kind: 'horizontal_cylinder', diameterM: 3, lengthM: 12 },
      crestLevelM: null,
      spill: { onDelayS: 10, offDelayS: 120, deadbandM: 0.02 },
      by: { username: 'admin', name: 'María González' },
    });
    expect(body.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(body.versions[1]).toMatchObject({ shape: { kind: 'vertical_cylinder', diameterM: 16 } });
    const audit = await auditPage(s, admin, { action: 'device.geometry_changed' });
    expect(audit[0]).toMatchObject({ action: 'device.geometry_changed', target: `device:${LEVEL_2}`, username: 'admin', result: 'ok', details: { version: 2 } });
  });

  it('what a GET answered can be sent back as it is', async () => {
    const current = await get(LEVEL_1, admin);
    const { status, body } = await jsonOf<DeviceGeometry>(await put(LEVEL_1, current));
    expect(status).toBe(200);
    const { version, validFrom, by, versions, ...fields } = body;
    const { version: _v, validFrom: _f, by: _b, versions: _vs, ...before } = current;
    expect(fields).toEqual(before);
    expect(version).toBe(current.version + 1);
    expect(by).toMatchObject({ username: 'admin' });
    expect(Date.parse(validFrom!)).toBeGreaterThanOrEqual(Date.parse(current.validFrom!));
    expect(versions).toHaveLength(current.versions.length + 1);
  });

  it.each([
    ['a distance sensor without a mounting height', { sensor: 'distance' }, 'mountHeightM'],
    ['a crest above maxLevel (10 m)', { crestLevelM: 10.5 }, 'crestLevelM'],
    ['an offset beyond maxLevel', { zeroOffsetM: 11 }, 'zeroOffsetM'],
    ['a weir without a crest', { weir: { widthM: 1 } }, 'weir'],
    ['a table whose volumes go down', { shape: { kind: 'table', points: [{ levelM: 0, volumeM3: 5 }, { levelM: 1, volumeM3: 4 }] } }, 'shape.points'],
    ['a table of 501 points', { shape: { kind: 'table', points: Array.from({ length: 501 }, (_, i) => ({ levelM: i / 100, volumeM3: i })) } }, 'shape.points'],
    ['a flow window of a day', { flowWindowS: 86_400 }, 'flowWindowS'],
    ['a spill deadband at the crest', { crestLevelM: 1, spill: { deadbandM: 1 } }, 'spill.deadbandM'],
  ])('refuses %s with 422 GEOMETRY_INVALID naming the field, and stores nothing', async (_name, body, field) => {
    const before = (await get(LEVEL_1)).version;
    const error = await expectApiError(await put(LEVEL_1, body), 422, 'GEOMETRY_INVALID');
    expect(error.details).toMatchObject({ field });
    expect((await get(LEVEL_1)).version).toBe(before);
  });

  it.each([
    ['an unknown key', { crest: 9 }],
    ['a wrong type', { crestLevelM: '9' }],
    ['an unknown shape', { shape: { kind: 'sphere', diameterM: 3 } }],
    ['a shape with a stray field', { shape: { kind: 'rectangular', areaM2: 3, depth: 2 } }],
  ])('refuses %s with 400', async (_name, body) => {
    await expectApiError(await put(LEVEL_1, body), 400);
  });

  it('admins saving at once each get their own version', async () => {
    const before = (await get(LEVEL_1)).version;
    const answers = await Promise.all([1, 2, 3, 4].map((i) => put(LEVEL_1, { shape: { kind: 'rectangular', areaM2: 20 + i } }).then((r) => jsonOf<DeviceGeometry>(r))));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const after = await get(LEVEL_1);
    expect(after.version).toBe(before + 4);
    expect(new Set(after.versions.map((v) => v.version)).size).toBe(after.versions.length);
  });

  it('a retired sensor still answers GET; PUT is 404; versions survive a restart', async () => {
    await createDevice(s, admin, { id: 'esp32_geo_retiro', name: 'Retiro', location: 'Prueba', type: 'level_sensor', waterType: 'residual', config: { maxLevel: 6 } });
    expect((await put('esp32_geo_retiro', { shape: { kind: 'rectangular', areaM2: 8 }, crestLevelM: 5 })).status).toBe(200);
    expect((await s.fetch('/api/v1/devices/esp32_geo_retiro', { method: 'DELETE', cookie: admin })).status).toBe(204);
    expect(await get('esp32_geo_retiro')).toMatchObject({ version: 1, crestLevelM: 5 });
    await expectApiError(await put('esp32_geo_retiro', {}), 404, 'DEVICE_NOT_FOUND');
    const before = await get(LEVEL_2);
    await s.close();
    s = await startServer({}, { dataDir });
    viewer = await s.login('viewer');
    admin = await s.login('admin');
    expect(await get(LEVEL_2)).toEqual(before);
    expect(await get('esp32_geo_retiro')).toMatchObject({ version: 1, crestLevelM: 5 });
  });
});
