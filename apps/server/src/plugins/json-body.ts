// The application/json body parser: Fastify's own, but an empty body is no body on routes that take none.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Whether the route declares a body; routes without one (logout, key rotation, DELETE) ignore it. */
function takesBody(req: FastifyRequest): boolean {
  return req.routeOptions.schema?.body !== undefined;
}

/**
 * Scripts often send `Content-Type: application/json` on every call, with no body on the
 * bodyless ones; that must not be a 400 INVALID_JSON there. Routes that declare a body keep
 * Fastify's answer to an empty one (400 INVALID_JSON) — the device routes' documented order of
 * checks (docs/protocol.md) counts an empty body as "not JSON".
 */
async function jsonBodyPlugin(app: FastifyInstance) {
  // Same poisoning protection as Fastify's default parser; body limits stay with the server and route.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body: string, done) => {
    if (body.length === 0 && !takesBody(req)) return done(null, undefined);
    parseJson(req, body, done);
  });
}

export default fp(jsonBodyPlugin, { name: 'json-body' });
