// Security headers on every response (helmet) and no caching of API answers; needs nothing.
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * What the web app and the API page may load: only this origin. Styles allow inline because the
 * charts and Swagger UI set style attributes; scripts never run inline.
 */
const CONTENT_SECURITY_POLICY = {
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
};

async function securityHeadersPlugin(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    frameguard: { action: 'deny' },
    // Plants often serve plain HTTP on their own network: pinning HTTPS (HSTS) or upgrading
    // requests belongs to the TLS proxy in front, when there is one.
    strictTransportSecurity: false,
  });
  // Session-bound data must not outlive the session in a shared browser's or a proxy's cache.
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    return payload;
  });
}

export default fp(securityHeadersPlugin, { name: 'security-headers' });
