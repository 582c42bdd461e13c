import { Type, type Static } from '@sinclair/typebox';
import { PASSWORD_MAX_LENGTH } from '../input-limits';
import { RoleSchema } from './user';

/** Two-factor sign-in (docs/security.md "Two-factor sign-in"). */
export const TOTP_ISSUER = 'Agua';
export const RECOVERY_CODE_COUNT = 10;

export const TotpSetupSchema = Type.Object(
  {
    secret: Type.String({ description: 'base32 of 20 random bytes' }),
    otpauthUrl: Type.String({ description: 'otpauth://totp/Agua:{username}?secret=…&issuer=Agua&algorithm=SHA1&digits=6&period=30 (the QR code)' }),
  },
  { title: 'TotpSetup' },
);
export type TotpSetup = Static<typeof TotpSetupSchema>;

export const TotpEnableBodySchema = Type.Object({ code: Type.String({ minLength: 1, maxLength: 32 }) });
export const TotpEnabledSchema = Type.Object(
  { recoveryCodes: Type.Array(Type.String({ description: 'xxxxx-xxxxx, shown once' }), { minItems: RECOVERY_CODE_COUNT, maxItems: RECOVERY_CODE_COUNT }) },
  { title: 'TotpEnabled' },
);
export type TotpEnabled = Static<typeof TotpEnabledSchema>;

export const TotpDisableBodySchema = Type.Object({
  password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
  code: Type.String({ minLength: 1, maxLength: 64, description: 'a code of the app, or a recovery code' }),
});

/** Server-wide settings an administrator changes at run time. */
export const SettingsSchema = Type.Object(
  { totpRequiredRoles: Type.Array(RoleSchema, { uniqueItems: true, description: 'Roles whose users must sign in with TOTP (they enrol at their next sign-in).' }) },
  { title: 'Settings' },
);
export type Settings = Static<typeof SettingsSchema>;
export const SettingsPatchSchema = Type.Partial(SettingsSchema);
