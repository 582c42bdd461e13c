/**
 * Turns a user's two-factor sign-in off from the server's own machine, for when the only
 * administrator has lost both the phone and the recovery codes (docs/security.md "Two-factor
 * sign-in"): `npm run user:totp-reset -- --username jefe`. Their recovery codes are deleted and
 * their sessions end; the trail records `user.totp_reset` with no acting user.
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../config/env';
import { AuditRepository } from '../features/audit/audit.repository';
import { RecoveryCodesRepository } from '../features/auth/recovery-codes.repository';
import { SessionsRepository } from '../features/auth/sessions.repository';
import { NO_TOTP, UsersRepository } from '../features/users/users.repository';
import { openConfiguredStorage } from '../storage/storage';

function fail(message: string): never {
  console.error(`Error: ${message}`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { username: { type: 'string' } } });
  if (!values.username) fail('se requiere --username.');
  const config = loadConfig({ ...process.env, DEMO: 'false' });
  const storage = await openConfiguredStorage(config, pino({ level: 'warn' }), { asTool: true });
  try {
    const users = new UsersRepository(storage.db);
    const user = await users.findByUsername(values.username);
    if (!user) fail(`el usuario "${values.username}" no existe.`);
    await users.update(user.id, NO_TOTP);
    await new RecoveryCodesRepository(storage.db).deleteAll(user.id);
    await new SessionsRepository(storage.db).deleteByUser(user.id);
    await new AuditRepository(storage.db).append(
      { action: 'user.totp_reset', userId: null, username: null, target: `user:${user.id}`, result: 'ok', ip: null, details: { username: user.username, wasEnabled: user.totpSecret !== null, by: 'cli' } },
      Date.now(),
    );
    console.log(`Verificación en dos pasos desactivada para "${user.username}"; sus sesiones se han cerrado.`);
  } finally {
    await storage.close();
  }
}

void main();
