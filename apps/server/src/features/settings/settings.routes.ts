import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { SettingsPatchSchema, SettingsSchema } from '@agua/shared';
import { errors, SESSION_SECURITY } from '../../lib/route-schemas';
import type { SettingsService } from './settings.service';

/** Server-wide settings for user administrators (docs/security.md). */
export default async function settingsRoutes(app: FastifyInstance, opts: { settings: SettingsService }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['settings'];

  r.get('/api/v1/settings', {
    config: { access: 'manage_users' },
    schema: { tags, summary: 'The server-wide settings', security: SESSION_SECURITY, response: { 200: SettingsSchema, ...errors(401, 403) } },
    handler: async () => opts.settings.get(),
  });

  r.patch('/api/v1/settings', {
    config: { access: 'manage_users' },
    schema: {
      tags,
      summary: 'Changes settings (audited settings.updated)',
      description:
        '`totpRequiredRoles`: users of these roles without TOTP sign in to a session that answers 403 TOTP_ENROLMENT_REQUIRED on all but ' +
        '/auth/me, /auth/logout, /auth/password and /auth/totp… (and opens no live socket) until they turn it on; their older sessions go on.',
      security: SESSION_SECURITY,
      body: SettingsPatchSchema,
      response: { 200: SettingsSchema, ...errors(400, 401, 403, 422) },
    },
    handler: async (req) => opts.settings.patch(req.body, { user: req.auth!.user, ip: req.ip }),
  });
}
