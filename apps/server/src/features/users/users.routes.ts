import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { UserSchema } from '@agua/shared';
import { errors, SESSION_SECURITY } from '../../lib/route-schemas';
import { toUser } from './user.mapper';
import type { UsersRepository } from './users.repository';

/** User administration, for role admin exactly (API.md). */
export default async function usersRoutes(app: FastifyInstance, opts: { users: UsersRepository }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get('/api/v1/users', {
    config: { access: 'admin' },
    schema: {
      tags: ['users'],
      summary: 'Every user',
      security: SESSION_SECURITY,
      response: { 200: Type.Array(UserSchema), ...errors(401, 403) },
    },
    handler: async () => (await opts.users.list()).map(toUser),
  });
}
