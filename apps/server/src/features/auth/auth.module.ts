import type { Kysely } from 'kysely';
import type { Config } from '../../config/env';
import type { EventBus } from '../../lib/event-bus';
import type { Database } from '../../storage/schema';
import type { AuditService } from '../audit/audit.service';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { AuthService } from './auth.service';
import { LoginFailuresRepository } from './login-failures.repository';
import { SessionsRepository } from './sessions.repository';

export interface AuthDeps {
  config: Pick<Config, 'sessionTtlH' | 'loginMaxFailuresPerUser' | 'loginMaxFailuresPerAddress'>;
  db: Kysely<Database>;
  audit: AuditService;
  bus: EventBus;
}

/**
 * People: their accounts, their sign-in and sessions, and the administration of both. One module
 * because the user administration ends sessions (and checks secrets under the lockout) while
 * sign-in reads the accounts: built apart, each would wait for the other.
 */
export interface AuthModule {
  users: UsersRepository;
  usersService: UsersService;
  auth: AuthService;
}

export function createAuth({ config, db, audit, bus }: AuthDeps): AuthModule {
  const users = new UsersRepository(db);
  const auth = new AuthService(users, new SessionsRepository(db), new LoginFailuresRepository(db), audit, bus, {
    sessionTtlMs: config.sessionTtlH * 3600 * 1000,
    maxFailuresPerUser: config.loginMaxFailuresPerUser,
    maxFailuresPerAddress: config.loginMaxFailuresPerAddress,
  });
  return { users, usersService: new UsersService(users, audit, auth), auth };
}
