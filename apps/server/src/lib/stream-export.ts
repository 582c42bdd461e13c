// Streamed file answers (the Excel and CSV exports); needs nothing.
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The OpenAPI answer of a file download. */
export const fileAnswer = (contentType: string, description: string) => ({
  description,
  content: { [contentType]: { schema: { type: 'string', format: 'binary' } } },
});

/** Hands a streamed export to the client; stops the writer when the client goes away. */
export function streamExport(
  req: FastifyRequest,
  reply: FastifyReply,
  contentType: string,
  fileName: string,
  write: (out: PassThrough) => Promise<void>,
): FastifyReply {
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) out.destroy();
  });
  write(out).catch((err: unknown) => {
    // Headers are gone by now: the client sees a cut response, the log gets the cause.
    req.log.error({ err, method: req.method, url: req.url }, 'export failed while streaming');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(out);
}
