import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { SYNOPTIC_LIMITS, SynopticSaveSchema, SynopticSavedSchema, SynopticSchema, SynopticVersionSchema } from '@agua/shared';
import { errors, SESSION_SECURITY } from '../../lib/route-schemas';
import type { SynopticsService } from './synoptics.service';

export interface SynopticRoutesOptions {
  synoptics: SynopticsService;
}

/**
 * The save's body limit: an SVG of the largest size allowed, JSON-escaped (quotes double in
 * size), and the items. Anything larger is refused by Fastify from its Content-Length, or as
 * soon as a chunked body passes it, without buffering the rest (413 PAYLOAD_TOO_LARGE); an SVG
 * over SYNOPTIC_LIMITS.svgMaxBytes in a body within this is 413 SVG_TOO_LARGE.
 */
export const SYNOPTIC_BODY_LIMIT = Math.ceil(SYNOPTIC_LIMITS.svgMaxBytes * 1.5) + 512 * 1024;

const Id = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** A site's synoptic drawing and its versions (docs/sites.md "Synoptic"). */
export default async function synopticRoutes(app: FastifyInstance, opts: SynopticRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['sites'];
  const { synoptics } = opts;
  const actor = (req: FastifyRequest) => ({ user: req.auth!.user, ip: req.ip });

  r.get('/api/v1/sites/:id/synoptic', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: "A site's newest synoptic; version 0 (a 1200×800 grid, no items) when never saved",
      security: SESSION_SECURITY,
      params: Id,
      response: { 200: SynopticSchema, ...errors(401, 403, 404) },
    },
    handler: async (req) => synoptics.current(req.params.id),
  });

  r.get('/api/v1/sites/:id/synoptic/versions', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: "Every saved version of a site's synoptic, newest first",
      security: SESSION_SECURITY,
      params: Id,
      response: { 200: Type.Array(SynopticVersionSchema), ...errors(401, 403, 404) },
    },
    handler: async (req) => synoptics.versions(req.params.id),
  });

  r.get('/api/v1/sites/:id/synoptic/versions/:version', {
    config: { access: 'read' },
    schema: {
      tags,
      summary: 'One saved version (404 SYNOPTIC_VERSION_NOT_FOUND)',
      security: SESSION_SECURITY,
      params: Type.Object({ id: Type.String({ maxLength: 64 }), version: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }) }),
      response: { 200: SynopticSchema, ...errors(400, 401, 403, 404) },
    },
    handler: async (req) => synoptics.version(req.params.id, req.params.version),
  });

  r.put('/api/v1/sites/:id/synoptic', {
    config: { access: 'manage_devices' },
    bodyLimit: SYNOPTIC_BODY_LIMIT,
    schema: {
      tags,
      summary: 'Saves a new version of the synoptic on top of `baseVersion` (another one: 409 VERSION_CONFLICT)',
      description: [
        'Answers 201 with the stored drawing (version baseVersion + 1) and `sanitized`: what was removed from the SVG background.',
        'Bad values answer 422 SYNOPTIC_INVALID `{field, reason}`: width and height integers 200–10000; up to 200 items with unique ids of 1–64 characters; each inside the drawing with w, h > 0; rotation 0, 90, 180 or 270; label up to 100 characters; a tank names a level sensor and a gate a gate (both required), a channel any device or none, a label none; devices known and not retired.',
        `An SVG background over ${SYNOPTIC_LIMITS.svgMaxBytes} bytes (UTF-8) is 413 SVG_TOO_LARGE; a body over ${SYNOPTIC_BODY_LIMIT} bytes is 413 PAYLOAD_TOO_LARGE, refused unread. Not well-formed XML, or a root other than an SVG \`<svg>\` with its namespace: 422 SYNOPTIC_INVALID \`{field: 'background.svg'}\`.`,
        'The SVG is cleaned (DOMPurify, SVG profile): scripts, on* attributes, foreignObject, iframe/embed/object, links other than `#id` of the drawing (href, xlink:href: other hosts, javascript:, data:), <use> of other files, <style> with @import or url() outside the drawing, and such url() in attributes are removed; the stored and returned SVG is the cleaned one.',
        'Audited `synoptic.saved {version}`; live frame `synoptic.updated {siteId, version}`.',
      ].join('\n\n'),
      security: SESSION_SECURITY,
      params: Id,
      body: SynopticSaveSchema,
      response: { 201: SynopticSavedSchema, ...errors(400, 401, 403, 404, 409, 413, 422) },
    },
    handler: async (req, reply) => reply.status(201).send(await synoptics.save(req.params.id, req.body, actor(req))),
  });
}
