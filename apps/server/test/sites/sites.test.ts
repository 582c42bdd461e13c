// docs/sites.md: sites (a tree of places on the map), the site of a device, `?siteId=` on the
// lists and exports, the audit trail and the live frames — against a real server over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { GATE_1, GATE_2, LEVEL_1, LEVEL_2, levelMsg, openLive, postTelemetry, type LiveSocket } from '../helpers/protocol';
import { auditPage, expectApiError, ISO_Z, jsonOf } from '../helpers/api';

interface Site {
  id: string;
  name: string;
  parentId: string | null;
  lat: number | null;
  lon: number | null;
  address: string | null;
  createdAt: string;
  updatedAt: string;
}

const WASTE = 'site_desbordamiento';
const CLEAN = 'site_reserva_limpia';

describe('sites', () => {
  let s: TestServer;
  let admin: string;
  let operator: string;
  let viewer: string;
  let socket: LiveSocket;

  const create = async (body: Record<string, unknown>, cookie = admin) => s.fetch('/api/v1/sites', { method: 'POST', cookie, json: body });
  const created = async (body: Record<string, unknown>): Promise<Site> => {
    const { status, body: out } = await jsonOf<Site>(await create(body));
    if (status !== 201) throw new Error(`POST /sites: ${status} ${JSON.stringify(out)}`);
    return out;
  };
  const patch = (id: string, body: Record<string, unknown>, cookie = admin) => s.fetch(`/api/v1/sites/${id}`, { method: 'PATCH', cookie, json: body });
  const remove = (id: string, cookie = admin) => s.fetch(`/api/v1/sites/${id}`, { method: 'DELETE', cookie });
  const device = async (id: string) => (await jsonOf<{ siteId: string | null }>(await s.fetch(`/api/v1/devices/${id}`, { cookie: viewer }))).body;
  const moveDevice = (id: string, siteId: string | null, cookie = admin) => s.fetch(`/api/v1/devices/${id}`, { method: 'PATCH', cookie, json: { siteId } });

  beforeAll(async () => {
    s = await startServer({ DEVICE_RATE_LIMIT: '0' });
    [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
    const opened = await openLive(s, { cookie: viewer, origin: s.url });
    if (!opened.live) throw new Error(`live socket refused: ${opened.status}`);
    socket = opened.live;
  });
  afterAll(async () => {
    socket.close();
    await s.close();
  });

  describe('the demo seed', () => {
    it('has the two sites, by name, near each other in Madrid', async () => {
      const { status, body } = await jsonOf<Site[]>(await s.fetch('/api/v1/sites', { cookie: viewer }));
      expect(status).toBe(200);
      expect(body.map((x) => [x.id, x.name])).toEqual([
        [WASTE, 'Desbordamiento Aguas Residuales'],
        [CLEAN, 'Reserva Agua Limpia'],
      ]);
      for (const site of body) {
        expect(site).toMatchObject({ parentId: null });
        expect(Math.abs(site.lat! - 40.4168)).toBeLessThan(0.05);
        expect(Math.abs(site.lon! + 3.7038)).toBeLessThan(0.05);
        expect(site.createdAt).toMatch(ISO_Z);
      }
    });

    it('puts the wastewater sensor and its gate in one, the clean-water sensor and its gate in the other', async () => {
      expect((await device(LEVEL_1)).siteId).toBe(WASTE);
      expect((await device(GATE_1)).siteId).toBe(WASTE);
      expect((await device(LEVEL_2)).siteId).toBe(CLEAN);
      expect((await device(GATE_2)).siteId).toBe(CLEAN);
    });
  });

  describe('who may do what', () => {
    it('a viewer reads the list and one site', async () => {
      expect((await s.fetch('/api/v1/sites', { cookie: viewer })).status).toBe(200);
      expect((await jsonOf<Site>(await s.fetch(`/api/v1/sites/${WASTE}`, { cookie: viewer }))).body.name).toBe('Desbordamiento Aguas Residuales');
    });

    it('nobody signed in reads nothing', async () => {
      await expectApiError(await s.fetch('/api/v1/sites'), 401);
    });

    for (const role of ['viewer', 'operator'] as const) {
      it(`a ${role} (without manage_devices) may not create, change, delete or move a device between sites`, async () => {
        const cookie = role === 'viewer' ? viewer : operator;
        await expectApiError(await create({ name: `De ${role}` }, cookie), 403, 'FORBIDDEN');
        await expectApiError(await patch(WASTE, { name: 'Otro' }, cookie), 403, 'FORBIDDEN');
        await expectApiError(await remove(WASTE, cookie), 403, 'FORBIDDEN');
        await expectApiError(await moveDevice(LEVEL_1, null, cookie), 403, 'FORBIDDEN');
        expect((await device(LEVEL_1)).siteId).toBe(WASTE);
      });
    }
  });

  describe('create, read, change, delete', () => {
    it('creates a site (201), trimmed, audited, told live', async () => {
      const from = socket.frames.length;
      const res = await create({ name: '  Planta Norte ', lat: 40.45, lon: -3.69, address: 'Calle del Agua 1' });
      const { status, body } = await jsonOf<Site>(res);
      expect(status).toBe(201);
      expect(body).toMatchObject({ name: 'Planta Norte', parentId: null, lat: 40.45, lon: -3.69, address: 'Calle del Agua 1' });
      expect(body.id).toMatch(/^site_/);
      expect(body.updatedAt).toBe(body.createdAt);
      expect(Object.keys(body).sort()).toEqual(['address', 'createdAt', 'id', 'lat', 'lon', 'name', 'parentId', 'updatedAt']);
      const frame = await socket.next((f) => f.type === 'site.updated' && f.data.id === body.id, 2000, from);
      expect(frame.data).toEqual(body);
      const audit = await auditPage(s, admin, { action: 'site.created' });
      expect(audit.find((e) => e.target === `site:${body.id}`)).toMatchObject({ username: 'admin', result: 'ok', details: { name: 'Planta Norte' } });
      expect((await jsonOf<Site>(await s.fetch(`/api/v1/sites/${body.id}`, { cookie: viewer }))).body).toEqual(body);
    });

    it('lists by name regardless of case', async () => {
      await created({ name: 'agua baja' });
      const { body } = await jsonOf<Site[]>(await s.fetch('/api/v1/sites', { cookie: viewer }));
      const names = body.map((x) => x.name);
      expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(names).toContain('agua baja');
    });

    it('an unknown site is 404 SITE_NOT_FOUND', async () => {
      await expectApiError(await s.fetch('/api/v1/sites/site_nope', { cookie: viewer }), 404, 'SITE_NOT_FOUND');
      await expectApiError(await patch('site_nope', { name: 'X' }), 404, 'SITE_NOT_FOUND');
      await expectApiError(await remove('site_nope'), 404, 'SITE_NOT_FOUND');
    });

    it('changes only the fields given; null clears; audited with the fields changed', async () => {
      const site = await created({ name: 'Parcial', lat: 40.1, lon: -3.1, address: 'Uno' });
      const from = socket.frames.length;
      const { status, body } = await jsonOf<Site>(await patch(site.id, { address: 'Dos' }));
      expect(status).toBe(200);
      expect(body).toMatchObject({ name: 'Parcial', lat: 40.1, lon: -3.1, address: 'Dos' });
      await socket.next((f) => f.type === 'site.updated' && f.data.id === site.id && f.data.address === 'Dos', 2000, from);
      const cleared = (await jsonOf<Site>(await patch(site.id, { lat: null, lon: null, address: null }))).body;
      expect(cleared).toMatchObject({ lat: null, lon: null, address: null, name: 'Parcial' });
      const audit = await auditPage(s, admin, { action: 'site.updated' });
      expect(audit.find((e) => e.target === `site:${site.id}` && JSON.stringify(e.details?.changes) === JSON.stringify(['lat', 'lon', 'address']))).toBeDefined();
    });

    it('deletes a site (204): its devices stay without a site, told live as devices; audited', async () => {
      const site = await created({ name: 'Temporal' });
      expect((await moveDevice(GATE_2, site.id)).status).toBe(200);
      const from = socket.frames.length;
      const res = await remove(site.id);
      expect(res.status).toBe(204);
      expect((await device(GATE_2)).siteId).toBeNull();
      const moved = await socket.next((f) => f.type === 'device.updated' && f.data.id === GATE_2 && f.data.siteId === null, 2000, from);
      const removed = await socket.next((f) => f.type === 'site.removed' && f.data.id === site.id, 2000, from);
      expect(socket.frames.indexOf(moved)).toBeLessThan(socket.frames.indexOf(removed));
      expect(removed.data).toEqual({ id: site.id });
      await expectApiError(await s.fetch(`/api/v1/sites/${site.id}`, { cookie: viewer }), 404, 'SITE_NOT_FOUND');
      expect((await auditPage(s, admin, { action: 'site.deleted' })).find((e) => e.target === `site:${site.id}`)).toBeDefined();
      const changed = await auditPage(s, admin, { action: 'device.site_changed' });
      expect(changed.find((e) => e.target === `device:${GATE_2}` && e.details?.reason === 'site_deleted')).toMatchObject({ details: { from: site.id, to: null } });
      expect((await moveDevice(GATE_2, CLEAN)).status).toBe(200);
    });

    it('a site with sites inside is 409 SITE_HAS_CHILDREN until they go', async () => {
      const parent = await created({ name: 'Cuenca' });
      const child = await created({ name: 'Subcuenca', parentId: parent.id });
      expect(child.parentId).toBe(parent.id);
      await expectApiError(await remove(parent.id), 409, 'SITE_HAS_CHILDREN');
      expect((await remove(child.id)).status).toBe(204);
      expect((await remove(parent.id)).status).toBe(204);
    });
  });

  describe('values (422 SITE_INVALID {field, reason}) and names (409 SITE_NAME_TAKEN)', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['an empty name', { name: '   ' }, 'name'],
      ['a name of 101 characters', { name: 'x'.repeat(101) }, 'name'],
      ['lat without lon', { name: 'Solo lat', lat: 40 }, 'lon'],
      ['lon without lat', { name: 'Solo lon', lon: -3 }, 'lat'],
      ['lat 90.5', { name: 'Polo', lat: 90.5, lon: 0 }, 'lat'],
      ['lon -180.5', { name: 'Antimeridiano', lat: 0, lon: -180.5 }, 'lon'],
      ['an address of 301 characters', { name: 'Larga', address: 'a'.repeat(301) }, 'address'],
      ['an unknown parent', { name: 'Huérfano', parentId: 'site_nope' }, 'parentId'],
    ];
    for (const [what, body, field] of cases) {
      it(`refuses ${what}`, async () => {
        const out = await expectApiError(await create(body), 422, 'SITE_INVALID');
        expect(out.details).toMatchObject({ field });
        expect(typeof (out.details as { reason: string }).reason).toBe('string');
      });
    }

    it('takes a name of exactly 100 characters and the extremes of lat/lon', async () => {
      expect((await create({ name: 'y'.repeat(100), lat: -90, lon: 180 })).status).toBe(201);
    });

    it('a shape the schema refuses is 400 (a string for lat, an unknown field)', async () => {
      await expectApiError(await create({ name: 'Forma', lat: '40', lon: -3 }), 400);
      await expectApiError(await create({ name: 'Forma', color: 'red' }), 400);
    });

    it('a name taken regardless of case and spaces is 409, on create and on change', async () => {
      await expectApiError(await create({ name: ' reserva agua limpia ' }), 409, 'SITE_NAME_TAKEN');
      const other = await created({ name: 'Otro Nombre' });
      await expectApiError(await patch(other.id, { name: 'RESERVA AGUA LIMPIA' }), 409, 'SITE_NAME_TAKEN');
      // Its own name in another case is no clash.
      expect((await jsonOf<Site>(await patch(other.id, { name: 'OTRO nombre' }))).body.name).toBe('OTRO nombre');
    });

    it('never itself nor one of its descendants as parent (no cycles)', async () => {
      const a = await created({ name: 'Nivel A' });
      const b = await created({ name: 'Nivel B', parentId: a.id });
      const c = await created({ name: 'Nivel C', parentId: b.id });
      expect((await expectApiError(await patch(a.id, { parentId: a.id }), 422, 'SITE_INVALID')).details).toMatchObject({ field: 'parentId' });
      expect((await expectApiError(await patch(a.id, { parentId: c.id }), 422, 'SITE_INVALID')).details).toMatchObject({ field: 'parentId' });
      expect((await expectApiError(await patch(a.id, { parentId: b.id }), 422, 'SITE_INVALID')).details).toMatchObject({ field: 'parentId' });
      // Moving a branch elsewhere, or to the top, is fine.
      expect((await jsonOf<Site>(await patch(c.id, { parentId: a.id }))).body.parentId).toBe(a.id);
      expect((await jsonOf<Site>(await patch(b.id, { parentId: null }))).body.parentId).toBeNull();
    });

    it('a change that leaves lat without lon is refused', async () => {
      const site = await created({ name: 'Con posición', lat: 1, lon: 2 });
      expect((await expectApiError(await patch(site.id, { lat: null }), 422, 'SITE_INVALID')).details).toMatchObject({ field: 'lat' });
    });
  });

  describe('the site of a device', () => {
    it('PATCH /devices/{id} {siteId} moves it: audited device.site_changed, sent as device.updated', async () => {
      const site = await created({ name: 'Destino' });
      const from = socket.frames.length;
      const { status, body } = await jsonOf<{ siteId: string | null }>(await moveDevice(LEVEL_2, site.id));
      expect(status).toBe(200);
      expect(body.siteId).toBe(site.id);
      await socket.next((f) => f.type === 'device.updated' && f.data.id === LEVEL_2 && f.data.siteId === site.id, 2000, from);
      const audit = await auditPage(s, admin, { action: 'device.site_changed' });
      expect(audit.find((e) => e.target === `device:${LEVEL_2}` && e.details?.to === site.id)).toMatchObject({ username: 'admin', details: { from: CLEAN } });
      expect((await jsonOf(await moveDevice(LEVEL_2, null))).body.siteId).toBeNull();
      expect((await jsonOf(await moveDevice(LEVEL_2, CLEAN))).body.siteId).toBe(CLEAN);
    });

    it('an unknown site is 422 SITE_INVALID {field: siteId}, and nothing changes', async () => {
      const out = await expectApiError(await moveDevice(LEVEL_2, 'site_nope'), 422, 'SITE_INVALID');
      expect(out.details).toMatchObject({ field: 'siteId' });
      expect((await device(LEVEL_2)).siteId).toBe(CLEAN);
    });
  });

  describe('?siteId= filters', () => {
    beforeAll(async () => {
      // A critical reading on the wastewater sensor (maxLevel 10): an alarm there, none at the reserve.
      expect((await postTelemetry(s, levelMsg(LEVEL_1, 9.6))).status).toBe(202);
      expect((await postTelemetry(s, levelMsg(LEVEL_2, 1.2))).status).toBe(202);
    });

    it('GET /devices?siteId= lists the site’s devices; an unknown site is 404', async () => {
      const { body } = await jsonOf<Array<{ id: string }>>(await s.fetch(`/api/v1/devices?siteId=${WASTE}`, { cookie: viewer }));
      expect(body.map((d) => d.id).sort()).toEqual([GATE_1, LEVEL_1].sort());
      await expectApiError(await s.fetch('/api/v1/devices?siteId=site_nope', { cookie: viewer }), 404, 'SITE_NOT_FOUND');
    });

    it('GET /alarms?siteId= (open and paged) and /alarms/stats?siteId=', async () => {
      const open = async (site: string) => (await jsonOf<{ items: Array<{ deviceId: string }> }>(await s.fetch(`/api/v1/alarms?state=open&siteId=${site}`, { cookie: viewer }))).body.items;
      const waste = await open(WASTE);
      expect(waste.length).toBeGreaterThan(0);
      expect(new Set(waste.map((a) => a.deviceId))).toEqual(new Set([LEVEL_1]));
      // The reserve's gate was last heard before the start (the seed): its offline alarm is the reserve's.
      expect((await open(CLEAN)).every((a) => a.deviceId === LEVEL_2 || a.deviceId === GATE_2)).toBe(true);
      const paged = async (site: string) => (await jsonOf<{ items: Array<{ deviceId: string }> }>(await s.fetch(`/api/v1/alarms?siteId=${site}&limit=200`, { cookie: viewer }))).body.items;
      const wastePage = await paged(WASTE);
      expect(wastePage.length).toBeGreaterThan(0);
      expect(wastePage.every((a) => a.deviceId === LEVEL_1 || a.deviceId === GATE_1)).toBe(true);
      expect((await paged(CLEAN)).every((a) => a.deviceId === LEVEL_2 || a.deviceId === GATE_2)).toBe(true);
      // A site without devices has no alarms.
      const empty = await created({ name: 'Sin equipos' });
      expect(await paged(empty.id)).toEqual([]);
      expect(await open(empty.id)).toEqual([]);
      const stats = async (site?: string) => (await jsonOf<{ total: number }>(await s.fetch(`/api/v1/alarms/stats${site ? `?siteId=${site}` : ''}`, { cookie: viewer }))).body.total;
      expect(await stats(WASTE)).toBeGreaterThan(0);
      expect((await stats(WASTE)) + (await stats(CLEAN))).toBe(await stats());
      expect(await stats(empty.id)).toBe(0);
      await expectApiError(await s.fetch('/api/v1/alarms?siteId=site_nope', { cookie: viewer }), 404, 'SITE_NOT_FOUND');
      await expectApiError(await s.fetch('/api/v1/alarms/stats?siteId=site_nope', { cookie: viewer }), 404, 'SITE_NOT_FOUND');
    });

    it('the reading exports take only the site’s devices', async () => {
      const res = await s.fetch(`/api/v1/export.csv?siteId=${CLEAN}`, { cookie: viewer });
      expect(res.status).toBe(200);
      const rows = (await res.text()).replace(/^\uFEFF/, '').trim().split('\r\n').slice(1);
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.split(',')[0]))).toEqual(new Set([LEVEL_2]));
      const xlsx = await s.fetch(`/api/v1/export.xlsx?siteId=${WASTE}`, { cookie: viewer });
      expect(xlsx.status).toBe(200);
      expect((await xlsx.arrayBuffer()).byteLength).toBeGreaterThan(0);
      // deviceIds outside the site: nothing to export.
      await expectApiError(await s.fetch(`/api/v1/export.csv?siteId=${CLEAN}&deviceIds=${LEVEL_1}`, { cookie: viewer }), 404, 'NO_DATA');
      await expectApiError(await s.fetch('/api/v1/export.csv?siteId=site_nope', { cookie: viewer }), 404, 'SITE_NOT_FOUND');
      await expectApiError(await s.fetch('/api/v1/export.xlsx?siteId=site_nope', { cookie: viewer }), 404, 'SITE_NOT_FOUND');
    });

    it('the alarm exports take only the site’s devices', async () => {
      const res = await s.fetch(`/api/v1/export-alarms.csv?siteId=${WASTE}`, { cookie: viewer });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain('Sensor Nivel Agua Residual');
      expect(text).not.toContain('Sensor Nivel Agua Limpia');
      expect(text).not.toContain('Compuerta Tanque Limpio');
      const empty = await created({ name: 'Sin alarmas' });
      await expectApiError(await s.fetch(`/api/v1/export-alarms.csv?siteId=${empty.id}`, { cookie: viewer }), 404, 'NO_DATA');
      await expectApiError(await s.fetch('/api/v1/export-alarms.xlsx?siteId=site_nope', { cookie: viewer }), 404, 'SITE_NOT_FOUND');
      expect((await s.fetch(`/api/v1/export-alarms.xlsx?siteId=${WASTE}`, { cookie: viewer })).status).toBe(200);
    });
  });
});
