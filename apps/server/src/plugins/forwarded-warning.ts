// Without TRUST_PROXY, a request carrying X-Forwarded-For is the sign of a reverse proxy that the
// server was not told about: it warns once in the log (security.md "Behind a reverse proxy").
// Registered only when TRUST_PROXY is empty; needs nothing.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

export const FORWARDED_IGNORED_WARNING =
  'X-Forwarded-For ignored: TRUST_PROXY is not set, so every request counts as coming from the peer that sent it. ' +
  'If a reverse proxy is in front, all clients share its address: a few wrong passwords from one client lock the account out for everyone, ' +
  'and the audit records only the proxy. Set TRUST_PROXY to the proxy (e.g. TRUST_PROXY=loopback for nginx on this machine).';

async function forwardedWarningPlugin(app: FastifyInstance) {
  let warned = false;
  app.addHook('onRequest', async (req) => {
    if (warned || req.headers['x-forwarded-for'] === undefined) return;
    // Once per process: every request through such a proxy carries the header.
    warned = true;
    req.log.warn({ peer: req.socket.remoteAddress ?? null, setting: 'TRUST_PROXY' }, FORWARDED_IGNORED_WARNING);
  });
}

export default fp(forwardedWarningPlugin, { name: 'forwarded-warning' });
