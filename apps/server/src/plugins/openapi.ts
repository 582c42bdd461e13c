// Provides the OpenAPI document at /api/docs/json (from the route schemas) and its page at /api/docs.
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

async function openapiPlugin(app: FastifyInstance, opts: { version: string }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Panel de Control de Agua API',
        version: opts.version,
        description:
          'Web API and device protocol v1. Browser routes use the httpOnly session cookie; device routes use the device API key. Errors are { error, code, details? }.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'agua_session' },
          deviceKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          deviceBearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
}

export default fp(openapiPlugin, { name: 'openapi' });
