/** Roles of the seed specification. */
export const ROLES = ['admin', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Permissions keep the seed's names. */
export const PERMISSIONS = ['read', 'write', 'delete', 'manage_users', 'manage_devices'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The role → permission table (docs/product.md); the single source for server and web. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  admin: ['read', 'write', 'delete', 'manage_users', 'manage_devices'],
  operator: ['read', 'write'],
  viewer: ['read'],
};

/** Name shown in the sidebar for a role. */
export const ROLE_DISPLAY_NAMES: Readonly<Record<Role, string>> = {
  admin: 'Administrador General',
  operator: 'Operador',
  viewer: 'Observador',
};

/** Name shown on the role badge of the users list. */
export const ROLE_BADGE_NAMES: Readonly<Record<Role, string>> = {
  admin: 'Administrador',
  operator: 'Operador',
  viewer: 'Observador',
};

/** Label of each permission badge in the users list. */
export const PERMISSION_LABELS: Readonly<Record<Permission, string>> = {
  read: 'Lectura',
  write: 'Escritura',
  delete: 'Eliminación',
  manage_users: 'Gestión de Usuarios',
  manage_devices: 'Gestión de Dispositivos',
};

/** Permissions held by a role. */
export function permissionsOf(role: Role): Permission[] {
  return [...ROLE_PERMISSIONS[role]];
}

/** Whether a signed-in user may do something; false when nobody is signed in. */
export function can(user: { role: Role } | null | undefined, permission: Permission): boolean {
  if (!user) return false;
  return ROLE_PERMISSIONS[user.role]?.includes(permission) ?? false;
}

/** Whether a value is one of the known roles. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
