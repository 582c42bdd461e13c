import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { SiteCreateSchema, SitePatchSchema, SiteSchema } from '@agua/shared';
import { errors, SESSION_SECURITY } from '../../lib/route-schemas';
import type { SitesService } from './sites.service';

export interface SiteRoutesOptions {
  sites: SitesService;
}

const Id = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Sites (docs/sites.md): the places devices belong to, on the map. */
export default async function siteRoutes(app: FastifyInstance, opts: SiteRoutesOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['sites'];
  const { sites } = opts;
  const actor = (req: FastifyRequest) => ({ user: req.auth!.user, ip: req.ip });
  const rules =
    'Bad values answer 422 SITE_INVALID `{field, reason}`: name 1–100 characters once trimmed; lat −90..90 and lon −180..180, both or neither; parentId an existing site, never the site itself or one of its descendants; address up to 300 characters. A name another site has, regardless of case: 409 SITE_NAME_TAKEN.';

  r.get('/api/v1/sites', {
    config: { access: 'read' },
    schema: { tags, summary: 'Every site, by name', security: SESSION_SECURITY, response: { 200: Type.Array(SiteSchema), ...errors(401, 403) } },
    handler: async () => sites.list(),
  });

  r.get('/api/v1/sites/:id', {
    config: { access: 'read' },
    schema: { tags, summary: 'One site (404 SITE_NOT_FOUND)', security: SESSION_SECURITY, params: Id, response: { 200: SiteSchema, ...errors(401, 403, 404) } },
    handler: async (req) => sites.get(req.params.id),
  });

  r.post('/api/v1/sites', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Creates a site',
      description: `${rules} Audited \`site.created\`; live frame \`site.updated\`.`,
      security: SESSION_SECURITY,
      body: SiteCreateSchema,
      response: { 201: SiteSchema, ...errors(400, 401, 403, 409, 422) },
    },
    handler: async (req, reply) => reply.status(201).send(await sites.create(req.body, actor(req))),
  });

  r.patch('/api/v1/sites/:id', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Changes the fields given (null clears parentId, lat and lon together, or address)',
      description: `${rules} Audited \`site.updated\` with the fields changed; live frame \`site.updated\`.`,
      security: SESSION_SECURITY,
      params: Id,
      body: SitePatchSchema,
      response: { 200: SiteSchema, ...errors(400, 401, 403, 404, 409, 422) },
    },
    handler: async (req) => sites.update(req.params.id, req.body, actor(req)),
  });

  r.delete('/api/v1/sites/:id', {
    config: { access: 'manage_devices' },
    schema: {
      tags,
      summary: 'Deletes a site: its devices stay, without a site; its synoptic versions go',
      description: 'A site with sites inside it: 409 SITE_HAS_CHILDREN. Audited `site.deleted` (and `device.site_changed` for each device); live frames `device.updated` for each device, then `site.removed {id}`.',
      security: SESSION_SECURITY,
      params: Id,
      response: { 204: Type.Null(), ...errors(401, 403, 404, 409) },
    },
    handler: async (req, reply) => {
      await sites.remove(req.params.id, actor(req));
      return reply.status(204).send(null);
    },
  });
}
