import { permissionsOf, type Role, type User } from '@agua/shared';
import { iso } from '../../lib/time';
import type { UserRecord } from './users.repository';

/**
 * The API's `User` shape of a stored user: no hash or secret ever leaves the server.
 * `totpRequiredRoles` is the setting that decides whether the user must still enrol.
 */
export function toUser(u: UserRecord, totpRequiredRoles: readonly Role[]): User {
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
    totpEnabled: u.totpSecret !== null,
    mustEnrolTotp: u.totpSecret === null && totpRequiredRoles.includes(u.role),
  };
}
