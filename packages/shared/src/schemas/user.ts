import { Type, type Static } from '@sinclair/typebox';
import { PERMISSIONS, ROLES } from '../auth/permissions';
import { IsoDateTime, Literals } from './common';

export const RoleSchema = Literals(ROLES);
export const PermissionSchema = Literals(PERMISSIONS);
export const UserStatusSchema = Type.Union([Type.Literal('active'), Type.Literal('inactive')]);

export const UserSchema = Type.Object(
  {
    id: Type.String(),
    username: Type.String(),
    name: Type.String(),
    email: Type.String(),
    role: RoleSchema,
    permissions: Type.Array(PermissionSchema),
    status: UserStatusSchema,
    lastLogin: Type.Union([IsoDateTime, Type.Null()]),
    mustChangePassword: Type.Boolean(),
  },
  { title: 'User' },
);
export type User = Static<typeof UserSchema>;
export type UserStatus = Static<typeof UserStatusSchema>;

export const LoginBodySchema = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 200 }),
  password: Type.String({ minLength: 1, maxLength: 1000 }),
  masterPassword: Type.Optional(Type.String({ maxLength: 1000 })),
});
export type LoginBody = Static<typeof LoginBodySchema>;
