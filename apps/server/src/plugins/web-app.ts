// Serves the built web app, with index.html for every client-side route; needs apps/web/dist.
import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorMessage } from '@agua/shared';

async function webAppPlugin(app: FastifyInstance, opts: { distDir: string | null; serveSourceMaps: boolean }) {
  const dist = opts.distDir;
  const hasApp = dist !== null && fs.existsSync(path.join(dist, 'index.html'));
  if (!opts.serveSourceMaps) {
    // Source maps hand out the app's source to anyone; they are for debugging, on request.
    app.addHook('onRequest', async (req, reply) => {
      if (req.url.split('?')[0]!.endsWith('.map')) {
        return reply.status(404).send({ error: errorMessage('ROUTE_NOT_FOUND'), code: 'ROUTE_NOT_FOUND' });
      }
    });
  }
  if (hasApp) {
    await app.register(fastifyStatic, {
      root: dist,
      // Looked up per request, so a web build made while the server runs is served at once.
      wildcard: true,
      index: false,
      // Our own Cache-Control below: the plugin's default (max-age=0) would overwrite it.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // Hashed assets never change; everything else (index.html, icons) must be revalidated.
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  if (hasApp) {
    // The static wildcard would answer "/" as a directory (403); the app's entry is index.html.
    app.get('/', { schema: { hide: true } }, (_req, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  }
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0]!;
    // Client-side routes get the app; a missing file (an asset, an old chunk) a real 404.
    const isFile = pathname.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(pathname);
    if (pathname.startsWith('/api/') || pathname === '/api' || isFile || !hasApp || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return reply.status(404).send({ error: errorMessage('ROUTE_NOT_FOUND'), code: 'ROUTE_NOT_FOUND' });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

export default fp(webAppPlugin, { name: 'web-app' });
