import { describe, expect, it } from 'vitest';
import { can, isRole, permissionsOf, PERMISSIONS, ROLE_BADGE_NAMES, ROLE_DISPLAY_NAMES, ROLES, type Permission, type Role } from './permissions';

// The role → permission table of docs/product.md, written out in full so that any change shows here.
const EXPECTED: Record<Role, Record<Permission, boolean>> = {
  admin: { read: true, write: true, delete: true, manage_users: true, manage_devices: true },
  operator: { read: true, write: true, delete: false, manage_users: false, manage_devices: false },
  viewer: { read: true, write: false, delete: false, manage_users: false, manage_devices: false },
};

describe('permission table', () => {
  for (const role of ROLES) {
    for (const permission of PERMISSIONS) {
      it(`${role} ${EXPECTED[role][permission] ? 'may' : 'may not'} ${permission}`, () => {
        expect(can({ role }, permission)).toBe(EXPECTED[role][permission]);
      });
    }
  }

  it('says no to everything when nobody is signed in', () => {
    for (const permission of PERMISSIONS) {
      expect(can(null, permission)).toBe(false);
      expect(can(undefined, permission)).toBe(false);
    }
  });

  it('lists permissions in the seed order', () => {
    expect(permissionsOf('admin')).toEqual(['read', 'write', 'delete', 'manage_users', 'manage_devices']);
    expect(permissionsOf('operator')).toEqual(['read', 'write']);
    expect(permissionsOf('viewer')).toEqual(['read']);
  });

  it('returns a copy that callers cannot use to change the table', () => {
    permissionsOf('viewer').push('write');
    expect(can({ role: 'viewer' }, 'write')).toBe(false);
  });

  it('names the roles as the seed does', () => {
    expect(ROLE_DISPLAY_NAMES).toEqual({ admin: 'Administrador General', operator: 'Operador', viewer: 'Observador' });
    expect(ROLE_BADGE_NAMES).toEqual({ admin: 'Administrador', operator: 'Operador', viewer: 'Observador' });
  });

  it('recognises only known roles', () => {
    expect(isRole('admin')).toBe(true);
    expect(isRole('root')).toBe(false);
    expect(isRole(undefined)).toBe(false);
    expect(can({ role: 'root' as Role }, 'read')).toBe(false);
  });
});
