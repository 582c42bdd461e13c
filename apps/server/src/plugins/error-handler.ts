// One place that turns every failure into the API's envelope `{ error, code, details? }`, the HTTP
// layer's own refusals included; needs @fastify/websocket (its handshake refusals) and StorageHealth.
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import fp from 'fastify-plugin';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorMessage, type ErrorCode } from '@agua/shared';
import { AppError, badRequest } from '../lib/errors';
import { STORAGE_RETRY_AFTER_S, type StorageHealth } from '../storage/storage-health';

const FASTIFY_CODES: Record<string, { status: number; code: ErrorCode }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'INVALID_JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'INVALID_JSON' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'INVALID_JSON' },
};

/** Errors the router raises before any route or hook runs (Fastify's `frameworkErrors`). */
const ROUTER_CODES: Record<string, { status: number; code: ErrorCode }> = {
  FST_ERR_BAD_URL: { status: 400, code: 'INVALID_URL' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'URL_TOO_LONG' },
};

/** Fastify's `frameworkErrors` option: the router's refusals (a badly encoded URL) in the envelope. */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const known = ROUTER_CODES[err.code];
  if (!known) req.log.error({ err, method: req.method, url: req.url }, 'router error');
  const { status, code } = known ?? { status: 500, code: 'INTERNAL_ERROR' as const };
  void reply.status(status).send({ error: errorMessage(code), code });
}

/** What Node's HTTP parser refuses before Fastify sees a request at all. */
function parserRefusal(err: ConnectionError): { status: number; code: ErrorCode } {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, code: 'REQUEST_TIMEOUT' };
  if (err.code === 'HPE_HEADER_OVERFLOW') return { status: 431, code: 'HEADERS_TOO_LARGE' };
  return { status: 400, code: 'BAD_REQUEST' };
}

/** An envelope answered outside Fastify (no reply exists), and the headers to send it with; the connection closes. */
function bareEnvelope(code: ErrorCode, extraHeaders: Record<string, string> = {}): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ error: errorMessage(code), code });
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
    ...extraHeaders,
  };
  return { body, headers };
}

/** Answers on a bare socket (no request object exists yet) and closes it, as Node's own answers do. */
function refuseOnSocket(socket: Duplex, status: number, code: ErrorCode, extraHeaders?: Record<string, string>): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { body, headers } = bareEnvelope(code, extraHeaders);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}\r\n${body}`);
}

/** Fastify's `clientErrorHandler` option: the parser's refusals in the envelope instead of Fastify's bare body. */
export function clientErrorHandler(this: FastifyInstance, err: ConnectionError, socket: Duplex): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ err }, 'malformed request refused');
  const { status, code } = parserRefusal(err);
  refuseOnSocket(socket, status, code);
}

async function errorHandlerPlugin(app: FastifyInstance, opts: { storageHealth: StorageHealth }) {
  // Node answers an unsupported Expect with a bare 417 unless someone listens.
  app.server.on('checkExpectation', (_req, res) => {
    const { body, headers } = bareEnvelope('EXPECTATION_FAILED');
    res.writeHead(417, headers).end(body);
  });
  // The WebSocket handshake's refusals (a bad key or version) are written by ws as text/html unless someone listens.
  app.websocketServer.on('wsClientError', (_err: Error, socket: Duplex) => refuseOnSocket(socket, 400, 'BAD_REQUEST', { 'Sec-WebSocket-Version': '13' }));
  // Node's own check of Host answers a bare 400; it is turned off (app.ts) and made here instead.
  app.addHook('onRequest', async (req) => {
    if (req.raw.httpVersion === '1.1' && req.headers.host === undefined) throw badRequest('BAD_REQUEST');
  });

  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      if (err.headers) void reply.headers(err.headers);
      return reply.status(err.statusCode).send({ error: err.message, code: err.code, ...(err.details !== undefined ? { details: err.details } : {}) });
    }
    // A full or failing disk is nobody's fault in the request: the client keeps it and sends it again.
    const storageFault = opts.storageHealth.failed(err);
    if (storageFault) {
      return reply
        .status(503)
        .header('retry-after', String(STORAGE_RETRY_AFTER_S))
        .send({ error: errorMessage(storageFault), code: storageFault });
    }
    if (err.validation) {
      const details = err.validation.map((v) => ({ path: v.instancePath || v.params?.missingProperty || '', message: v.message }));
      return reply.status(400).send({ error: errorMessage('VALIDATION_FAILED'), code: 'VALIDATION_FAILED', details });
    }
    const known = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (known) return reply.status(known.status).send({ error: errorMessage(known.code), code: known.code });
    if (err instanceof SyntaxError || err.statusCode === 400) {
      return reply.status(400).send({ error: errorMessage('INVALID_JSON'), code: 'INVALID_JSON' });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      const code: ErrorCode = err.statusCode === 403 ? 'FORBIDDEN' : err.statusCode === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED';
      return reply.status(err.statusCode).send({ error: errorMessage(code), code });
    }
    req.log.error({ err, method: req.method, url: req.url }, 'unhandled error');
    return reply.status(500).send({ error: errorMessage('INTERNAL_ERROR'), code: 'INTERNAL_ERROR' });
  });
}

export default fp(errorHandlerPlugin, { name: 'error-handler', dependencies: ['@fastify/websocket'] });
