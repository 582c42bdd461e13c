import { Type, type Static } from '@sinclair/typebox';
import { PERMISSIONS, ROLES } from '../auth/permissions';
import { PASSWORD_MAX_LENGTH } from '../input-limits';
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
    totpEnabled: Type.Boolean({ description: 'Two-factor sign-in (TOTP) is on for this user.' }),
    mustEnrolTotp: Type.Boolean({ description: "The user's role requires TOTP and it is not on: the next sign-in must enrol before anything else." }),
  },
  { title: 'User' },
);
export type User = Static<typeof UserSchema>;
export type UserStatus = Static<typeof UserStatusSchema>;

/** Sign-in takes any username up to 200 characters (a wrong one is a 401 like any other) and every password a route can set. */
export const LoginBodySchema = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 200 }),
  password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
  masterPassword: Type.Optional(Type.String({ maxLength: PASSWORD_MAX_LENGTH })),
  totpCode: Type.Optional(Type.String({ maxLength: 32, description: 'The 6-digit code of the authenticator app (users with TOTP on).' })),
  recoveryCode: Type.Optional(Type.String({ maxLength: 64, description: 'Instead of totpCode: one of the ten one-time recovery codes (xxxxx-xxxxx).' })),
});
export type LoginBody = Static<typeof LoginBodySchema>;
