/**
 * Creates a user directly in the database, for a fresh installation without demo data:
 *   npm run user:create -- --username jefe --name "Jefa de Planta" --email jefa@x.example --role admin
 * Passwords are asked for without echo, or read from AGUA_PASSWORD / AGUA_MASTER_PASSWORD.
 */
import { parseArgs } from 'node:util';
import readline from 'node:readline';
import { Value } from '@sinclair/typebox/value';
import {
  CreateUserBodySchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PERSON_NAME_MAX_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  isRole,
  meetsPasswordPolicy,
} from '@agua/shared';
import { loadConfig } from '../config/env';
import { hashPassword } from '../lib/password';
import { NO_TOTP, UsersRepository } from '../features/users/users.repository';
import { newId } from '../lib/ids';
import pino from 'pino';
import { describeDatabase } from '../storage/postgres/postgres-storage';
import { openConfiguredStorage } from '../storage/storage';

function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const output = rl as unknown as { _writeToOutput: (s: string) => void };
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
    output._writeToOutput = (s: string) => {
      if (s.startsWith(question)) process.stdout.write(question);
    };
  });
}

function fail(message: string): never {
  console.error(`Error: ${message}`);
  process.exit(2);
}

/** What each field of the shared CreateUserBodySchema admits, for the first one a value breaks. */
const FIELD_RULES: Record<string, string> = {
  username: `el usuario admite de ${USERNAME_MIN_LENGTH} a ${USERNAME_MAX_LENGTH} letras sin tilde, dígitos, puntos, guiones o guiones bajos.`,
  name: `el nombre admite de 1 a ${PERSON_NAME_MAX_LENGTH} caracteres y no puede estar en blanco.`,
  email: 'el correo electrónico no es válido.',
  password: `la contraseña admite como máximo ${PASSWORD_MAX_LENGTH} caracteres.`,
  masterPassword: `la contraseña maestra admite como máximo ${PASSWORD_MAX_LENGTH} caracteres.`,
};

/** Validates what is known so far with the route's own schema (a missing password is not yet an error). */
function checkField(body: Record<string, string>): void {
  const complete = { password: 'x', ...body };
  const error = Value.Errors(CreateUserBodySchema, complete).First();
  if (!error) return;
  const field = error.path.split('/')[1] ?? '';
  fail(FIELD_RULES[field] ?? `valor no válido en ${error.path}.`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      username: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string', default: 'admin' },
      'must-change-password': { type: 'boolean', default: false },
    },
  });
  const { username, name, email, role } = values;
  if (!username || !name || !email) fail('se requieren --username, --name y --email (y --role admin|operator|viewer).');
  if (!isRole(role)) fail('--role debe ser admin, operator o viewer.');
  checkField({ username, name, email, role });

  const password = process.env.AGUA_PASSWORD ?? (await askHidden('Contraseña: '));
  checkField({ username, name, email, role, password });
  if (!meetsPasswordPolicy(username, password)) fail(`la contraseña necesita al menos ${PASSWORD_MIN_LENGTH} caracteres y no puede ser el nombre de usuario.`);
  let masterPassword: string | null = null;
  if (role === 'admin') {
    masterPassword = process.env.AGUA_MASTER_PASSWORD ?? (await askHidden('Contraseña Maestra: '));
    checkField({ username, name, email, role, password, masterPassword });
    if (!meetsPasswordPolicy(username, masterPassword)) fail(`la contraseña maestra necesita al menos ${PASSWORD_MIN_LENGTH} caracteres y no puede ser el nombre de usuario.`);
  }

  const config = loadConfig({ ...process.env, DEMO: 'false' });
  const storage = await openConfiguredStorage(config, pino({ level: 'warn' }), { asTool: true });
  try {
    const users = new UsersRepository(storage.db);
    if (await users.findByUsername(username)) fail(`el usuario "${username}" ya existe.`);
    if (await users.findByEmail(email)) fail(`el correo "${email}" ya está en uso.`);
    await users.insert({
      id: newId('usr'),
      username,
      name,
      email,
      role,
      status: 'active',
      passwordHash: await hashPassword(password),
      masterPasswordHash: masterPassword ? await hashPassword(masterPassword) : null,
      mustChangePassword: values['must-change-password'] ?? false,
      lastLoginMs: null,
      createdAtMs: Date.now(),
      ...NO_TOTP,
    });
    console.log(`Usuario "${username.toLowerCase()}" creado (${role}) en ${config.databaseUrl ? describeDatabase(config.databaseUrl) : config.dataDir}.`);
  } finally {
    await storage.close();
  }
}

void main();
