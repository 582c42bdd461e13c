// Security headers on every response (helmet's policy) and no caching of API answers; needs nothing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';

/**
 * What the web app and the API page may load: only this origin. Styles allow inline because the
 * charts and Swagger UI set style attributes; scripts never run inline.
 */
const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      // 'self' covers the live socket (ws/wss on the same host) in CSP level 3 browsers.
      connectSrc: ["'self'"],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  // Plants often serve plain HTTP on their own network: pinning HTTPS (HSTS) or upgrading
  // requests belongs to the TLS proxy in front, when there is one.
  strictTransportSecurity: false,
};

/**
 * The headers helmet sets, computed once: the policy is the same for every response, and helmet
 * would otherwise rebuild the CSP string on each one (a seventh of a device request's CPU).
 */
export function securityHeaders(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/**
 * The CSP source of a map tile address (docs/sites.md "Map"): its scheme and host, a `{s}`
 * subdomain as `*` — the browsers fetch the tiles themselves, so the policy must let them.
 */
export function tileSourceOf(tileUrl: string): string {
  const url = new URL(tileUrl.replace(/\{s\}/g, 'tile-subdomain').replace(/\{[a-z]\}/g, '0'));
  return `${url.protocol}//${url.host.replace('tile-subdomain', '*')}`;
}

export interface SecurityHeadersOptions {
  /** Where else images may come from: the map's tile server, when MAP_TILE_URL is set. */
  imgSources?: string[];
}

async function securityHeadersPlugin(app: FastifyInstance, opts: SecurityHeadersOptions) {
  const extra = opts.imgSources ?? [];
  const directives = HELMET_OPTIONS.contentSecurityPolicy as { directives: Record<string, string[]> };
  const headers = extra.length === 0 ? securityHeaders() : securityHeaders({ ...HELMET_OPTIONS, contentSecurityPolicy: { useDefaults: false, directives: { ...directives.directives, imgSrc: [...directives.directives.imgSrc!, ...extra] } } });
  app.addHook('onRequest', async (req, reply) => {
    void reply.headers(headers);
    // Session-bound data must not outlive the session in a shared browser's or a proxy's cache;
    // a route that allows caching sets its own Cache-Control over this.
    if (req.url.startsWith('/api/')) void reply.header('cache-control', 'no-store');
  });
}

export default fp(securityHeadersPlugin, { name: 'security-headers' });
