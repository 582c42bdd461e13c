import { isApiError } from '@/lib/api-client';
import type { UserField } from './validate-user';

const KNOWN_FIELDS: readonly UserField[] = ['name', 'username', 'email', 'role', 'status', 'password', 'masterPassword', 'currentMasterPassword'];

function asField(value: unknown): UserField | null {
  if (typeof value !== 'string') return null;
  const name = value.replace(/^\//, '').split('/')[0] ?? '';
  return (KNOWN_FIELDS as readonly string[]).includes(name) ? (name as UserField) : null;
}

/**
 * Which form field a server error belongs to, so that it shows beside the field rather than as a
 * toast: the code names it (USERNAME_TAKEN), or `details.field` (PASSWORD_POLICY, PASSWORD_BLANK,
 * MASTER_PASSWORD_REQUIRED), or the first schema path of a VALIDATION_FAILED.
 */
export function fieldOfApiError(error: unknown): { field: UserField; message: string } | null {
  if (!isApiError(error)) return null;
  const { code, message, details } = error;
  const named = details && typeof details === 'object' ? asField((details as { field?: unknown }).field) : null;
  if (code === 'USERNAME_TAKEN') return { field: 'username', message };
  if (code === 'EMAIL_TAKEN') return { field: 'email', message };
  if (code === 'MASTER_PASSWORD_REQUIRED') return { field: named ?? 'masterPassword', message };
  if (code === 'MASTER_PASSWORD_CURRENT_INVALID') return { field: 'currentMasterPassword', message };
  if (code === 'PASSWORD_POLICY' || code === 'PASSWORD_BLANK') return { field: named ?? 'password', message };
  if (code === 'VALIDATION_FAILED' && Array.isArray(details)) {
    for (const item of details as Array<{ path?: unknown }>) {
      const field = asField(item?.path);
      if (field) return { field, message };
    }
  }
  return null;
}
