import { permissionsOf, type User } from '@agua/shared';
import { iso } from '../../lib/time';
import type { UserRecord } from './users.repository';

/** The API's `User` shape of a stored user: no hash ever leaves the server. */
export function toUser(u: UserRecord): User {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    email: u.email,
    role: u.role,
    permissions: permissionsOf(u.role),
    status: u.status,
    lastLogin: iso(u.lastLoginMs),
    mustChangePassword: u.mustChangePassword,
  };
}
