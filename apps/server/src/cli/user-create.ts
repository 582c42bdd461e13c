/**
 * Creates a user directly in the database, for a fresh installation without demo data:
 *   npm run user:create -- --username jefe --name "Jefa de Planta" --email jefa@x.example --role admin
 * Passwords are asked for without echo, or read from AGUA_PASSWORD / AGUA_MASTER_PASSWORD.
 */
import { parseArgs } from 'node:util';
import readline from 'node:readline';
import { isRole, meetsPasswordPolicy } from '@agua/shared';
import { loadConfig } from '../config/env';
import { hashPassword } from '../lib/password';
import { UsersRepository } from '../features/users/users.repository';
import { newId } from '../lib/ids';
import { openStorage } from '../storage/database';

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
  if (!/^[A-Za-z0-9._-]{3,50}$/.test(username)) fail('el usuario admite de 3 a 50 letras, dígitos, puntos, guiones o guiones bajos.');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) fail('el correo electrónico no es válido.');
  if (!isRole(role)) fail('--role debe ser admin, operator o viewer.');

  const password = process.env.AGUA_PASSWORD ?? (await askHidden('Contraseña: '));
  if (!meetsPasswordPolicy(username, password)) fail('la contraseña necesita al menos 10 caracteres y no puede ser el nombre de usuario.');
  let masterPassword: string | null = null;
  if (role === 'admin') {
    masterPassword = process.env.AGUA_MASTER_PASSWORD ?? (await askHidden('Contraseña Maestra: '));
    if (!meetsPasswordPolicy(username, masterPassword)) fail('la contraseña maestra necesita al menos 10 caracteres y no puede ser el nombre de usuario.');
  }

  const config = loadConfig({ ...process.env, DEMO: 'false' });
  const storage = await openStorage(config.dataDir);
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
    });
    console.log(`Usuario "${username.toLowerCase()}" creado (${role}) en ${config.dataDir}.`);
  } finally {
    await storage.close();
  }
}

void main();
