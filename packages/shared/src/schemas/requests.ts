import { Type, type Static } from '@sinclair/typebox';
import { DEVICE_ID_PATTERN } from '../devices/devices';
import {
  DEVICE_LOCATION_MAX_LENGTH,
  DEVICE_NAME_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  MAX_LEVEL_LIMIT_M,
  OFFLINE_AFTER_MAX_S,
  READING_INTERVAL_MAX_S,
  PASSWORD_MAX_LENGTH,
  PERSON_NAME_MAX_LENGTH,
  THRESHOLD_PCT_EXCLUSIVE_MAX,
  THRESHOLD_PCT_EXCLUSIVE_MIN,
  TRAVEL_TIMEOUT_MAX_S,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from '../input-limits';
import { DeviceTypeSchema, GateStateSchema, WaterTypeSchema } from './device';
import { RoleSchema, UserStatusSchema } from './user';

// Bodies of the user and device administration routes, built from the shared input limits.
// The server validates with them; clients and tests may too.

const Username = Type.String({ minLength: USERNAME_MIN_LENGTH, maxLength: USERNAME_MAX_LENGTH, pattern: USERNAME_PATTERN });
/** Something other than spaces. */
const NotBlank = '\\S';
const PersonName = Type.String({ minLength: 1, maxLength: PERSON_NAME_MAX_LENGTH, pattern: NotBlank });
const Email = Type.String({ maxLength: EMAIL_MAX_LENGTH, pattern: EMAIL_PATTERN });
/** The policy (length, not the username) is checked by the service, with its own error codes. */
export const PasswordSchema = Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH });

export const CreateUserBodySchema = Type.Object(
  { username: Username, name: PersonName, email: Email, role: RoleSchema, password: PasswordSchema, masterPassword: Type.Optional(PasswordSchema) },
  { additionalProperties: false },
);
export type CreateUserBody = Static<typeof CreateUserBodySchema>;

export const UpdateUserBodySchema = Type.Object(
  {
    name: Type.Optional(PersonName),
    email: Type.Optional(Email),
    role: Type.Optional(RoleSchema),
    status: Type.Optional(UserStatusSchema),
    masterPassword: Type.Optional(PasswordSchema),
    currentMasterPassword: Type.Optional(PasswordSchema),
  },
  { additionalProperties: false },
);
export type UpdateUserBody = Static<typeof UpdateUserBodySchema>;

export const ResetPasswordBodySchema = Type.Object({ password: PasswordSchema }, { additionalProperties: false });

export const ChangePasswordBodySchema = Type.Object({ currentPassword: PasswordSchema, newPassword: PasswordSchema });
export type ChangePasswordBody = Static<typeof ChangePasswordBodySchema>;

// The `config` of a Device as GET returns it is valid input too, so a client may send it back as is.
export const DeviceConfigInputSchema = Type.Object(
  {
    maxLevel: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_LEVEL_LIMIT_M })),
    unit: Type.Optional(Type.Literal('m', { description: 'Level sensors measure in metres; the only value accepted, and nothing to store.' })),
    warningPct: Type.Optional(Type.Number({ exclusiveMinimum: THRESHOLD_PCT_EXCLUSIVE_MIN, exclusiveMaximum: THRESHOLD_PCT_EXCLUSIVE_MAX })),
    criticalPct: Type.Optional(Type.Number({ exclusiveMinimum: THRESHOLD_PCT_EXCLUSIVE_MIN, exclusiveMaximum: THRESHOLD_PCT_EXCLUSIVE_MAX })),
    offlineAfterS: Type.Optional(Type.Integer({ minimum: 1, maximum: OFFLINE_AFTER_MAX_S })),
    readingIntervalS: Type.Optional(Type.Integer({ minimum: 1, maximum: READING_INTERVAL_MAX_S, description: 'Level sensors: how often it reads (s), default 3; the slots of a day\'s completeness are max(60 s, this).' })),
    travelTimeoutS: Type.Optional(Type.Integer({ minimum: 1, maximum: TRAVEL_TIMEOUT_MAX_S })),
    state: Type.Optional(
      Type.Union([GateStateSchema, Type.Null()], {
        description: "A gate's state as GET shows it: accepted and ignored. The state only ever comes from the device; no API call changes it.",
      }),
    ),
  },
  { additionalProperties: false, description: 'Settings to change; the `config` a GET returned may be sent back unchanged.' },
);
export type DeviceConfigInput = Static<typeof DeviceConfigInputSchema>;

export const DeviceNameSchema = Type.String({ minLength: 1, maxLength: DEVICE_NAME_MAX_LENGTH, pattern: NotBlank });
export const DeviceLocationSchema = Type.String({ minLength: 1, maxLength: DEVICE_LOCATION_MAX_LENGTH, pattern: NotBlank });

export const CreateDeviceBodySchema = Type.Object(
  {
    id: Type.String({ pattern: DEVICE_ID_PATTERN }),
    name: DeviceNameSchema,
    location: DeviceLocationSchema,
    type: DeviceTypeSchema,
    waterType: Type.Optional(Type.Union([WaterTypeSchema, Type.Null()])),
    config: Type.Optional(DeviceConfigInputSchema),
  },
);
export type CreateDeviceBody = Static<typeof CreateDeviceBodySchema>;

export const UpdateDeviceBodySchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    name: Type.Optional(DeviceNameSchema),
    location: Type.Optional(DeviceLocationSchema),
    waterType: Type.Optional(Type.Union([WaterTypeSchema, Type.Null()])),
    config: Type.Optional(DeviceConfigInputSchema),
    /** The site it belongs to, null for none (docs/sites.md); an unknown one is 422 SITE_INVALID. */
    siteId: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type UpdateDeviceBody = Static<typeof UpdateDeviceBodySchema>;
