import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { errorMessage } from '@agua/shared';
import { AppError } from '../../lib/errors';
import type { Metrics } from './metrics';

export interface MetricsRoutesOptions {
  metrics: Metrics;
  /** METRICS_TOKEN: without it `/metrics` is not served on PORT at all. */
  token: string | null;
}

/**
 * `GET /metrics` on the API's port, for a Prometheus that sends `Authorization: Bearer
 * <METRICS_TOKEN>` (docs/operations.md): 404 when no token is configured, 401 without the right one —
 * never the figures.
 */
export default async function metricsRoutes(app: FastifyInstance, opts: MetricsRoutesOptions) {
  const expected = opts.token ? Buffer.from(`Bearer ${opts.token}`) : null;
  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
    if (!expected) throw new AppError(404, 'ROUTE_NOT_FOUND');
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError(401, 'UNAUTHENTICATED', undefined, { 'www-authenticate': 'Bearer realm="metrics"' });
    }
    return reply.type(opts.metrics.contentType).send(await opts.metrics.text());
  });
}

/**
 * `/metrics` on a port of its own (METRICS_PORT), without a token: for a network only Prometheus
 * reaches. Nothing else is served there.
 */
export class MetricsServer {
  private readonly server: http.Server;

  constructor(
    private readonly metrics: Metrics,
    private readonly listenOn: { port: number; host: string },
  ) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: errorMessage('ROUTE_NOT_FOUND'), code: 'ROUTE_NOT_FOUND' }));
      return;
    }
    try {
      const text = await this.metrics.text();
      res.writeHead(200, { 'content-type': this.metrics.contentType }).end(text);
    } catch {
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: errorMessage('INTERNAL_ERROR'), code: 'INTERNAL_ERROR' }));
    }
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) =>
        reject(err.code === 'EADDRINUSE' ? new Error(`METRICS_PORT ${this.listenOn.port} is already in use: choose another port for the metrics`) : err);
      this.server.once('error', onError);
      this.server.listen(this.listenOn.port, this.listenOn.host, () => {
        this.server.off('error', onError);
        resolve(this.port());
      });
    });
  }

  port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : this.listenOn.port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
