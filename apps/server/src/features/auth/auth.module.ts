import type { Kysely } from 'kysely';
import type { Config } from '../../config/env';
import type { EventBus } from '../../lib/event-bus';
import type { Database } from '../../storage/schema';
import type { SettingsRepository } from '../../storage/settings.repository';
import type { AuditService } from '../audit/audit.service';
import { SettingsService } from '../settings/settings.service';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { AuthService } from './auth.service';
import { LoginFailuresRepository } from './login-failures.repository';
import { RecoveryCodesRepository } from './recovery-codes.repository';
import { SecondFactor } from './second-factor';
import { SessionsRepository } from './sessions.repository';
import { TwoFactorService } from './two-factor.service';

export interface AuthDeps {
  config: Pick<Config, 'sessionTtlH' | 'loginMaxFailuresPerUser' | 'loginMaxFailuresPerAddress'>;
  db: Kysely<Database>;
  settings: SettingsRepository;
  audit: AuditService;
  bus: EventBus;
}

/**
 * People: their accounts, their sign-in, second factor and sessions, and the administration of
 * these. One module because the user administration ends sessions (and checks secrets under the
 * lockout) while sign-in reads the accounts: built apart, each would wait for the other.
 */
export interface AuthModule {
  users: UsersRepository;
  usersService: UsersService;
  auth: AuthService;
  twoFactor: TwoFactorService;
  settings: SettingsService;
}

export function createAuth({ config, db, settings: settingsRepo, audit, bus }: AuthDeps): AuthModule {
  const users = new UsersRepository(db);
  const settings = new SettingsService(settingsRepo, audit);
  const secondFactor = new SecondFactor(users, new RecoveryCodesRepository(db));
  const auth = new AuthService(users, new SessionsRepository(db), new LoginFailuresRepository(db), audit, bus, secondFactor, settings, {
    sessionTtlMs: config.sessionTtlH * 3600 * 1000,
    maxFailuresPerUser: config.loginMaxFailuresPerUser,
    maxFailuresPerAddress: config.loginMaxFailuresPerAddress,
  });
  return {
    users,
    usersService: new UsersService(users, audit, auth),
    auth,
    twoFactor: new TwoFactorService(users, secondFactor, auth, settings, audit),
    settings,
  };
}
