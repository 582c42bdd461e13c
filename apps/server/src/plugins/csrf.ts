// Refuses state-changing requests and socket upgrades from foreign origins (docs/api.md "CSRF").
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The origin a request was addressed to: its scheme and Host header (as a trusted proxy
 * forwarded them, with TRUST_PROXY; Fastify ignores X-Forwarded-* from anyone else).
 */
function addressedOrigin(req: FastifyRequest): string | null {
  const host = req.host;
  if (!host) return null;
  return `${req.protocol}://${host}`.toLowerCase();
}

async function csrfPlugin(app: FastifyInstance, opts: { allowedOrigins: string[] }) {
  const allowed = new Set(opts.allowedOrigins.map((o) => o.toLowerCase()));
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.access === 'device') return; // keys, not cookies
    const isUpgrade = req.headers.upgrade?.toLowerCase() === 'websocket';
    if (SAFE_METHODS.has(req.method) && !isUpgrade) return;
    const origin = req.headers.origin;
    if (origin === undefined) return; // scripts and curl: judged by their session alone
    const normalized = origin.toLowerCase();
    if (normalized !== 'null' && (normalized === addressedOrigin(req) || allowed.has(normalized))) return;
    throw new AppError(403, 'CSRF_REJECTED');
  });
}

export default fp(csrfPlugin, { name: 'csrf' });
