// One place that turns every failure into the API's envelope `{ error, code, details? }`.
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { errorMessage, type ErrorCode } from '@agua/shared';
import { AppError } from '../lib/errors';

const FASTIFY_CODES: Record<string, { status: number; code: ErrorCode }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'INVALID_JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'INVALID_JSON' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'INVALID_JSON' },
};

async function errorHandlerPlugin(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      if (err.headers) void reply.headers(err.headers);
      return reply.status(err.statusCode).send({ error: err.message, code: err.code, ...(err.details !== undefined ? { details: err.details } : {}) });
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

export default fp(errorHandlerPlugin, { name: 'error-handler' });
