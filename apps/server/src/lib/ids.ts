import { randomBytes } from 'node:crypto';

/** A random, URL-safe id with a readable prefix (`usr_…`, `cmd_…`). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}

/** A high-entropy secret for session tokens and device keys (256 bits). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}
