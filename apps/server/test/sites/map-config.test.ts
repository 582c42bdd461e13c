// docs/sites.md "Map": MAP_TILE_URL and MAP_ATTRIBUTION, checked at start and told to the web app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/env';
import { tileSourceOf } from '../../src/plugins/security-headers';
import { startServer, type TestServer } from '../helpers/server';
import { jsonOf } from '../helpers/api';

describe('MAP_TILE_URL', () => {
  it('unset: no tiles, no attribution', () => {
    expect(loadConfig({}).map).toEqual({ tileUrl: null, attribution: null });
  });

  it('takes an http(s) address with {z}, {x} and {y} (and {s}, {r})', () => {
    expect(loadConfig({ MAP_TILE_URL: ' https://{s}.tile.example/{z}/{x}/{y}{r}.png ', MAP_ATTRIBUTION: '© Ejemplo' }).map).toEqual({
      tileUrl: 'https://{s}.tile.example/{z}/{x}/{y}{r}.png',
      attribution: '© Ejemplo',
    });
    expect(loadConfig({ MAP_TILE_URL: 'http://10.0.0.5:8080/tiles/{z}/{x}/{y}.png' }).map.tileUrl).toBe('http://10.0.0.5:8080/tiles/{z}/{x}/{y}.png');
  });

  for (const bad of ['ftp://tile.example/{z}/{x}/{y}.png', 'https://tile.example/{z}/{x}.png', 'tile.example/{z}/{x}/{y}.png', 'javascript:{z}{x}{y}']) {
    it(`stops the start naming it: ${bad}`, () => {
      expect(() => loadConfig({ MAP_TILE_URL: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ MAP_TILE_URL: bad })).toThrow(/MAP_TILE_URL/);
    });
  }
});

describe('GET /api/v1/config with a map', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ MAP_TILE_URL: 'https://tile.example/{z}/{x}/{y}.png', MAP_ATTRIBUTION: '© Teselas de ejemplo' });
  });
  afterAll(async () => s.close());

  it('tells the web app where the tiles are and whose they are, without signing in', async () => {
    const { status, body } = await jsonOf<{ map: unknown }>(await s.fetch('/api/v1/config'));
    expect(status).toBe(200);
    expect(body.map).toEqual({ tileUrl: 'https://tile.example/{z}/{x}/{y}.png', attribution: '© Teselas de ejemplo' });
  });

  it("lets the browsers load the tiles: the tile server's origin is in the CSP's img-src", async () => {
    const csp = (await s.fetch('/api/v1/config')).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/img-src 'self' data: blob: https:\/\/tile\.example(;|$)/);
    expect(csp).toContain("script-src 'self'");
  });

  it('a {s} subdomain becomes a wildcard source', () => {
    expect(tileSourceOf('https://{s}.tile.example:8443/{z}/{x}/{y}.png')).toBe('https://*.tile.example:8443');
  });
});
