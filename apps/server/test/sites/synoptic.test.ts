// docs/sites.md "Synoptic": versions, conflicts, values, and SVG backgrounds cleaned on the
// server (one test per attack) — against a real server over HTTP.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { GATE_1, GATE_2, LEVEL_1, LEVEL_2, openLive, type LiveSocket } from '../helpers/protocol';
import { auditPage, expectApiError, ISO_Z, jsonOf } from '../helpers/api';

interface Synoptic {
  siteId: string;
  version: number;
  width: number;
  height: number;
  background: { kind: 'grid' } | { kind: 'svg'; svg: string };
  items: Array<Record<string, unknown>>;
  createdAt: string | null;
  createdBy: { id: string; username: string; name: string } | null;
  sanitized?: string[];
}

const WASTE = 'site_desbordamiento';
const CLEAN = 'site_reserva_limpia';
const SVG_NS = 'xmlns="http://www.w3.org/2000/svg"';

const tank = (id: string, extra: Record<string, unknown> = {}) => ({ id, symbol: 'tank', deviceId: LEVEL_1, x: 100, y: 100, w: 120, h: 200, label: 'Pozo', rotation: 0, ...extra });
const gate = (id: string, extra: Record<string, unknown> = {}) => ({ id, symbol: 'gate', deviceId: GATE_1, x: 300, y: 150, w: 60, h: 60, label: 'Compuerta A', rotation: 90, ...extra });

describe('synoptic', () => {
  let s: TestServer;
  let admin: string;
  let operator: string;
  let viewer: string;
  let socket: LiveSocket;

  const get = async (siteId: string) => jsonOf<Synoptic>(await s.fetch(`/api/v1/sites/${siteId}/synoptic`, { cookie: viewer }));
  const put = (siteId: string, body: Record<string, unknown>, cookie = admin) => s.fetch(`/api/v1/sites/${siteId}/synoptic`, { method: 'PUT', cookie, json: body });
  const body = (baseVersion: number, extra: Record<string, unknown> = {}) => ({ baseVersion, width: 1200, height: 800, background: { kind: 'grid' }, items: [tank('t1'), gate('g1')], ...extra });
  /** Saves on top of whatever is there now; returns the answer. */
  const saveNow = async (siteId: string, extra: Record<string, unknown> = {}) => {
    const { body: now } = await get(siteId);
    return jsonOf<Synoptic>(await put(siteId, body(now.version, extra)));
  };
  const svgOf = (inner: string, attrs = '') => `<svg ${SVG_NS} xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1200 800"${attrs}>${inner}</svg>`;
  const withSvg = (svg: string) => saveNow(CLEAN, { background: { kind: 'svg', svg }, items: [] });

  beforeAll(async () => {
    s = await startServer();
    [admin, operator, viewer] = await Promise.all([s.login('admin'), s.login('operator'), s.login('viewer')]);
    const opened = await openLive(s, { cookie: viewer, origin: s.url });
    if (!opened.live) throw new Error(`live socket refused: ${opened.status}`);
    socket = opened.live;
  });
  afterAll(async () => {
    socket.close();
    await s.close();
  });

  describe('versions', () => {
    // A site of the test's own: the demo's two come drawn (version 1, by the system).
    let FRESH = '';
    beforeAll(async () => {
      const created = await jsonOf<{ id: string }>(await s.fetch('/api/v1/sites', { method: 'POST', cookie: admin, json: { name: 'Sitio sin dibujar' } }));
      expect(created.status).toBe(201);
      FRESH = created.body.id;
    });

    it('the demo sites come drawn with their devices, by the system; the drawing saves back as it is', async () => {
      for (const [siteId, devices] of [
        [WASTE, [LEVEL_1, GATE_1]],
        [CLEAN, [LEVEL_2, GATE_2]],
      ] as const) {
        const { body: drawn } = await get(siteId);
        expect(drawn).toMatchObject({ version: 1, width: 1200, height: 800, background: { kind: 'grid' }, createdBy: null });
        expect(drawn.createdAt).toMatch(ISO_Z);
        expect(drawn.items.map((i) => i.deviceId).filter(Boolean).sort()).toEqual([...devices].sort());
        expect(drawn.items.find((i) => i.deviceId === devices[0])?.symbol).toBe('tank');
        expect(drawn.items.find((i) => i.deviceId === devices[1])?.symbol).toBe('gate');
      }
      // Valid by the save's own rules.
      const { body: waste } = await get(WASTE);
      const again = await jsonOf<Synoptic>(await put(WASTE, { baseVersion: 1, width: waste.width, height: waste.height, background: waste.background, items: waste.items }));
      expect(again.status).toBe(201);
      expect(again.body.sanitized).toEqual([]);
    });

    it('a site never drawn answers version 0: a 1200×800 grid, nothing on it', async () => {
      const { status, body: syn } = await get(FRESH);
      expect(status).toBe(200);
      expect(syn).toEqual({ siteId: FRESH, version: 0, width: 1200, height: 800, background: { kind: 'grid' }, items: [], createdAt: null, createdBy: null });
      expect((await jsonOf(await s.fetch(`/api/v1/sites/${FRESH}/synoptic/versions`, { cookie: viewer }))).body).toEqual([]);
    });

    it('saves version 1 (201), audited, told live; GET answers it', async () => {
      const from = socket.frames.length;
      const { status, body: saved } = await jsonOf<Synoptic>(await put(FRESH, body(0)));
      expect(status).toBe(201);
      expect(saved).toMatchObject({ siteId: FRESH, version: 1, width: 1200, height: 800, background: { kind: 'grid' }, sanitized: [], createdBy: { username: 'admin', name: 'María González' } });
      expect(saved.createdAt).toMatch(ISO_Z);
      expect(saved.items).toEqual([tank('t1'), gate('g1')]);
      const frame = await socket.next((f) => f.type === 'synoptic.updated' && f.data.siteId === FRESH, 2000, from);
      expect(frame.data).toEqual({ siteId: FRESH, version: 1 });
      const { sanitized: _s, ...stored } = saved;
      expect((await get(FRESH)).body).toEqual(stored);
      const audit = await auditPage(s, admin, { action: 'synoptic.saved' });
      expect(audit.find((e) => e.target === `site:${FRESH}`)).toMatchObject({ username: 'admin', result: 'ok', details: { version: 1 } });
    });

    it('a channel may name a device or none; a label none; deviceId may be left out of a channel', async () => {
      const items = [
        { id: 'c1', symbol: 'channel', deviceId: null, x: 0, y: 0, w: 1200, h: 20, label: '', rotation: 0 },
        { id: 'c2', symbol: 'channel', deviceId: LEVEL_1, x: 0, y: 30, w: 100, h: 20, label: 'Canal', rotation: 180 },
        { id: 'c3', symbol: 'channel', x: 0, y: 60, w: 100, h: 20, label: 'Canal 3', rotation: 270 },
        { id: 'l1', symbol: 'label', deviceId: null, x: 10, y: 700, w: 200, h: 40, label: 'Entrada', rotation: 0 },
      ];
      const { status, body: saved } = await jsonOf<Synoptic>(await put(FRESH, body(1, { items, width: 1200, height: 800 })));
      expect(status).toBe(201);
      expect(saved.version).toBe(2);
      expect(saved.items[2]).toMatchObject({ id: 'c3', deviceId: null });
    });

    it('lists versions newest first; an old version is still there; an unknown one is 404', async () => {
      const { body: list } = await jsonOf<Array<{ version: number; createdAt: string; createdBy: { username: string } }>>(await s.fetch(`/api/v1/sites/${FRESH}/synoptic/versions`, { cookie: viewer }));
      expect(list.map((v) => v.version)).toEqual([2, 1]);
      expect(list[0]).toMatchObject({ createdBy: { username: 'admin' } });
      expect(Object.keys(list[0]!).sort()).toEqual(['createdAt', 'createdBy', 'version']);
      const { status, body: v1 } = await jsonOf<Synoptic>(await s.fetch(`/api/v1/sites/${FRESH}/synoptic/versions/1`, { cookie: viewer }));
      expect(status).toBe(200);
      expect(v1.items).toEqual([tank('t1'), gate('g1')]);
      await expectApiError(await s.fetch(`/api/v1/sites/${FRESH}/synoptic/versions/9`, { cookie: viewer }), 404, 'SYNOPTIC_VERSION_NOT_FOUND');
      await expectApiError(await s.fetch(`/api/v1/sites/${FRESH}/synoptic/versions/0`, { cookie: viewer }), 400);
    });

    it('a stale baseVersion is 409 VERSION_CONFLICT naming the current one; nothing stored', async () => {
      const out = await expectApiError(await put(FRESH, body(1)), 409, 'VERSION_CONFLICT');
      expect(out.details).toEqual({ version: 2 });
      await expectApiError(await put(FRESH, body(5)), 409, 'VERSION_CONFLICT');
      expect((await get(FRESH)).body.version).toBe(2);
    });

    it('two saves on the same version at once: one 201, the other 409', async () => {
      const [a, b] = await Promise.all([put(FRESH, body(2)), put(FRESH, body(2))]);
      expect([a.status, b.status].sort()).toEqual([201, 409]);
      expect((await get(FRESH)).body.version).toBe(3);
    });

    it('an unknown site is 404 SITE_NOT_FOUND everywhere', async () => {
      await expectApiError(await s.fetch('/api/v1/sites/site_nope/synoptic', { cookie: viewer }), 404, 'SITE_NOT_FOUND');
      await expectApiError(await s.fetch('/api/v1/sites/site_nope/synoptic/versions', { cookie: viewer }), 404, 'SITE_NOT_FOUND');
      await expectApiError(await s.fetch('/api/v1/sites/site_nope/synoptic/versions/1', { cookie: viewer }), 404, 'SITE_NOT_FOUND');
      await expectApiError(await put('site_nope', body(0)), 404, 'SITE_NOT_FOUND');
    });

    it('viewers and operators read, never save', async () => {
      expect((await s.fetch(`/api/v1/sites/${FRESH}/synoptic`, { cookie: operator })).status).toBe(200);
      await expectApiError(await put(FRESH, body(3), viewer), 403, 'FORBIDDEN');
      await expectApiError(await put(FRESH, body(3), operator), 403, 'FORBIDDEN');
    });

    it('a device deleted later stays in the stored versions', async () => {
      const res = await s.fetch('/api/v1/devices', { method: 'POST', cookie: admin, json: { id: 'nivel_efimero', name: 'Efímero', location: 'X', type: 'level_sensor', config: { maxLevel: 3 } } });
      expect(res.status).toBe(201);
      const { body: saved } = await saveNow(FRESH, { items: [tank('t9', { deviceId: 'nivel_efimero' })] });
      expect((await s.fetch('/api/v1/devices/nivel_efimero?purge=true', { method: 'DELETE', cookie: admin })).status).toBe(204);
      expect((await get(FRESH)).body.items[0]).toMatchObject({ id: 't9', deviceId: 'nivel_efimero' });
      expect((await get(FRESH)).body.version).toBe(saved.version);
    });

    it('deleting the site deletes its versions', async () => {
      const site = (await jsonOf<{ id: string }>(await s.fetch('/api/v1/sites', { method: 'POST', cookie: admin, json: { name: 'Con dibujo' } }))).body;
      expect((await put(site.id, body(0))).status).toBe(201);
      expect((await s.fetch(`/api/v1/sites/${site.id}`, { method: 'DELETE', cookie: admin })).status).toBe(204);
      // A new site of the same name starts from nothing.
      const again = (await jsonOf<{ id: string }>(await s.fetch('/api/v1/sites', { method: 'POST', cookie: admin, json: { name: 'Con dibujo' } }))).body;
      expect((await get(again.id)).body.version).toBe(0);
      const rows = await s.modules.storage.db.selectFrom('synoptic_versions').select('version').where('site_id', '=', site.id).execute();
      expect(rows).toEqual([]);
    });
  });

  describe('values: 422 SYNOPTIC_INVALID {field, reason}', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['a width under 200', { width: 199 }, 'width'],
      ['a height over 10000', { height: 10_001 }, 'height'],
      ['a width that is not whole', { width: 1200.5 }, 'width'],
      ['201 items', { items: Array.from({ length: 201 }, (_, i) => ({ id: `l${i}`, symbol: 'label', deviceId: null, x: 0, y: 0, w: 1, h: 1, label: '', rotation: 0 })) }, 'items'],
      ['a repeated id', { items: [tank('a'), gate('a')] }, 'items[1].id'],
      ['an empty id', { items: [tank('')] }, 'items[0].id'],
      ['an id of 65 characters', { items: [tank('i'.repeat(65))] }, 'items[0].id'],
      ['a label of 101 characters', { items: [tank('t', { label: 'x'.repeat(101) })] }, 'items[0].label'],
      ['a rotation of 45', { items: [tank('t', { rotation: 45 })] }, 'items[0].rotation'],
      ['w of 0', { items: [tank('t', { w: 0 })] }, 'items[0].w'],
      ['h below 0', { items: [tank('t', { h: -5 })] }, 'items[0].h'],
      ['an item past the right edge', { items: [tank('t', { x: 1100, w: 120 })] }, 'items[0].x'],
      ['an item above the top', { items: [tank('t', { y: -1 })] }, 'items[0].y'],
      ['a tank without a device', { items: [tank('t', { deviceId: null })] }, 'items[0].deviceId'],
      ['a tank on a gate', { items: [tank('t', { deviceId: GATE_2 })] }, 'items[0].deviceId'],
      ['a gate on a level sensor', { items: [gate('g', { deviceId: LEVEL_2 })] }, 'items[0].deviceId'],
      ['a gate left without its device', { items: [gate('g', { deviceId: undefined })] }, 'items[0].deviceId'],
      ['a label naming a device', { items: [{ id: 'l', symbol: 'label', deviceId: LEVEL_1, x: 0, y: 0, w: 10, h: 10, label: 'x', rotation: 0 }] }, 'items[0].deviceId'],
      ['an unknown device', { items: [tank('t', { deviceId: 'nivel_nope' })] }, 'items[0].deviceId'],
      ['an SVG that is not XML', { background: { kind: 'svg', svg: `<svg ${SVG_NS}><g></svg>` } }, 'background.svg'],
      ['an SVG whose root is not <svg>', { background: { kind: 'svg', svg: '<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>' } }, 'background.svg'],
      ['an <svg> without the SVG namespace', { background: { kind: 'svg', svg: '<svg viewBox="0 0 10 10"><rect/></svg>' } }, 'background.svg'],
    ];
    for (const [what, extra, field] of cases) {
      it(`refuses ${what}`, async () => {
        const version = (await get(CLEAN)).body.version;
        const out = await expectApiError(await put(CLEAN, body(version, { items: [tank('t1', { deviceId: LEVEL_2 })], ...extra })), 422, 'SYNOPTIC_INVALID');
        expect(out.details).toMatchObject({ field });
        expect(typeof (out.details as { reason: string }).reason).toBe('string');
        expect((await get(CLEAN)).body.version).toBe(version);
      });
    }

    it('a shape the schema refuses is 400 (an unknown symbol, a missing baseVersion, an unknown field)', async () => {
      await expectApiError(await put(CLEAN, body(0, { items: [tank('t', { symbol: 'pump' })] })), 400);
      const { baseVersion: _b, ...noBase } = body(0);
      await expectApiError(await put(CLEAN, noBase), 400);
      await expectApiError(await put(CLEAN, body(0, { colour: 'red' })), 400);
    });

    it('takes exactly 200 items and the extreme sizes', async () => {
      const items = Array.from({ length: 200 }, (_, i) => ({ id: `l${i}`, symbol: 'label', deviceId: null, x: 0, y: 0, w: 200, h: 10_000, label: '', rotation: 0 }));
      const { status } = await saveNow(CLEAN, { width: 200, height: 10_000, items });
      expect(status).toBe(201);
    });
  });

  describe('SVG backgrounds are cleaned on the server', () => {
    it('<script> goes', async () => {
      const { status, body: saved } = await withSvg(svgOf('<script>alert(document.cookie)</script><rect width="10" height="10"/>'));
      expect(status).toBe(201);
      expect(saved.sanitized).toEqual(['script']);
      const svg = (saved.background as { svg: string }).svg;
      expect(svg).not.toMatch(/script|alert/i);
      expect(svg).toContain('<rect width="10" height="10"/>');
      // What is stored, and served, is the cleaned one.
      expect((await get(CLEAN)).body.background).toEqual(saved.background);
    });

    it('onload= and every other on* attribute go', async () => {
      const { body: saved } = await withSvg(svgOf('<rect width="10" height="10" onclick="alert(2)" onmouseover="alert(3)"/>', ' onload="alert(1)"'));
      expect(saved.sanitized).toEqual(expect.arrayContaining(['onload', 'onclick', 'onmouseover']));
      expect((saved.background as { svg: string }).svg).not.toMatch(/\son\w+=|alert/i);
    });

    it('<foreignObject> goes, with the HTML inside it', async () => {
      const { body: saved } = await withSvg(svgOf('<foreignObject width="100" height="100"><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></div></foreignObject><circle r="5"/>'));
      expect(saved.sanitized).toContain('foreignObject');
      const svg = (saved.background as { svg: string }).svg;
      expect(svg).not.toMatch(/foreignObject|<div|<img|onerror/i);
      expect(svg).toContain('<circle r="5"/>');
    });

    it('xlink:href to another host goes (and href to javascript: and data:), a #fragment stays', async () => {
      const { body: saved } = await withSvg(
        svgOf(
          '<defs><symbol id="valvula"><rect width="4" height="4"/></symbol></defs>' +
            '<use xlink:href="https://evil.example/sprites.svg#valvula"/>' +
            '<use href="#valvula" x="10"/>' +
            '<a href="javascript:alert(1)"><text>t</text></a>' +
            '<image xlink:href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" width="5" height="5"/>',
        ),
      );
      expect(saved.sanitized).toEqual(expect.arrayContaining(['xlink:href', 'href']));
      const svg = (saved.background as { svg: string }).svg;
      expect(svg).not.toMatch(/evil\.example|javascript:|data:/);
      expect(svg).toContain('<use href="#valvula" x="10"/>');
    });

    it('<style> with @import or an outside url() goes; url() in a style attribute too; url(#id) stays', async () => {
      const { body: saved } = await withSvg(
        svgOf(
          '<style>@import url("https://evil.example/a.css");</style>' +
            '<style>.a { fill: url(#g); }</style>' +
            '<linearGradient id="g"><stop offset="0"/></linearGradient>' +
            '<rect class="a" width="1" height="1" style="fill: url(https://evil.example/x.svg#p)"/>' +
            '<rect width="2" height="2" fill="url(#g)" style="stroke: red"/>',
        ),
      );
      expect(saved.sanitized).toEqual(expect.arrayContaining(['style']));
      const svg = (saved.background as { svg: string }).svg;
      expect(svg).not.toMatch(/evil\.example|@import/);
      expect(svg).toContain('<style>.a { fill: url(#g); }</style>');
      expect(svg).toContain('<rect width="2" height="2" fill="url(#g)" style="stroke: red"/>');
    });

    it('a clean SVG passes unchanged in meaning, nothing reported', async () => {
      const clean = svgOf(
        '<title>Planta</title><defs><linearGradient id="agua" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#39f"/><stop offset="1" stop-color="#036"/></linearGradient></defs>' +
          '<g transform="translate(10 20)" stroke="#333" stroke-width="2"><rect x="0" y="0" width="300" height="200" rx="8" fill="url(#agua)"/>' +
          '<path d="M 300 100 L 600 100" fill="none"/><polyline points="0,0 10,10 20,0"/><circle cx="650" cy="100" r="20"/></g>' +
          '<text x="10" y="790" font-family="sans-serif" font-size="14">Depósito &amp; canal</text>',
      );
      const { status, body: saved } = await withSvg(clean);
      expect(status).toBe(201);
      expect(saved.sanitized).toEqual([]);
      const svg = (saved.background as { svg: string }).svg;
      const normalise = (x: string) => x.replace(/\s+/g, ' ');
      expect(normalise(svg)).toBe(normalise(clean));
    });

    it('a drawing near 2 MB is cleaned off the event loop: the server answers all the while', async () => {
      const shapes = '<rect x="1" y="2" width="10" height="10" fill="#ccc" stroke="#333"/><path d="M0 0 L5 5" onclick="x()"/>'.repeat(18_000);
      const heavy = svgOf(`<g>${shapes}</g>`);
      expect(heavy.length).toBeLessThan(2 * 1024 * 1024);
      const gaps: number[] = [];
      let saving = true;
      const probe = (async () => {
        let last = Date.now();
        while (saving) {
          expect((await s.fetch('/api/health')).status).toBe(200);
          gaps.push(Date.now() - last);
          last = Date.now();
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const started = Date.now();
      const { status, body: saved } = await withSvg(heavy);
      const took = Date.now() - started;
      saving = false;
      await probe;
      expect(status).toBe(201);
      expect(saved.sanitized).toEqual(['onclick']);
      // Cleaning took seconds here; health answered every few tens of milliseconds meanwhile.
      expect(gaps.length).toBeGreaterThan(3);
      expect(Math.max(...gaps), `longest gap while a ${took} ms save ran`).toBeLessThan(1_000);
    });

    it('an SVG over 2 MB is 413 SVG_TOO_LARGE; nothing stored', async () => {
      const version = (await get(CLEAN)).body.version;
      const big = svgOf(`<desc>${'a'.repeat(2 * 1024 * 1024)}</desc>`);
      const res = await put(CLEAN, body(version, { items: [], background: { kind: 'svg', svg: big } }));
      await expectApiError(res, 413, 'SVG_TOO_LARGE');
      expect((await get(CLEAN)).body.version).toBe(version);
    });

    it('a 20 MB body is refused early with 413 PAYLOAD_TOO_LARGE, and the server answers afterwards', async () => {
      const huge = JSON.stringify(body(0, { background: { kind: 'svg', svg: svgOf('a'.repeat(20 * 1024 * 1024)) } }));
      const started = Date.now();
      // Refused from its Content-Length, before the body is read.
      const refused = await s.fetch(`/api/v1/sites/${CLEAN}/synoptic`, { method: 'PUT', cookie: admin, headers: { 'content-type': 'application/json' }, body: huge });
      await expectApiError(refused, 413, 'PAYLOAD_TOO_LARGE');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await s.fetch('/api/health')).status).toBe(200);
      expect((await get(CLEAN)).status).toBe(200);
    });

    it('a 20 MB chunked body (no Content-Length) is refused once past the limit, not read to its end', async () => {
      const chunk = Buffer.alloc(256 * 1024, 'a');
      const url = new URL(`/api/v1/sites/${CLEAN}/synoptic`, s.url);
      const outcome = await new Promise<{ status: number | null; sent: number }>((resolve) => {
        let sent = 0;
        let status: number | null = null;
        const req = http.request(url, { method: 'PUT', headers: { cookie: admin, origin: s.url, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
          status = res.statusCode ?? null;
          res.resume();
          res.on('end', () => {
            req.destroy();
            resolve({ status, sent });
          });
        });
        req.on('error', () => resolve({ status, sent }));
        req.write('{"baseVersion":0,"width":1200,"height":800,"items":[],"background":{"kind":"svg","svg":"');
        const pump = () => {
          while (sent < 20 * 1024 * 1024 && !req.destroyed) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          if (!req.destroyed) req.end('"}}');
        };
        pump();
      });
      // The 413 envelope, or (when the client is still writing as the server closes) a reset:
      // either way the server stopped reading long before the 20 MB.
      if (outcome.status !== null) expect(outcome.status).toBe(413);
      expect(outcome.sent).toBeLessThan(20 * 1024 * 1024);
      expect((await s.fetch('/api/health')).status).toBe(200);
    });
  });
});
