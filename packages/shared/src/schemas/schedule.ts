import { Type, type Static } from '@sinclair/typebox';
import { SCHEDULE_RUN_STATUSES, SCHEDULE_TRIGGERS } from '../control/schedules';
import { IsoDateTime, Literals } from './common';
import { InterlockModeSchema, InterlockReasonSchema } from './interlock';

/** docs/control.md "Schedules". Shapes here (400); values by the server (422 SCHEDULE_INVALID). */
const PersonSchema = Type.Object({ id: Type.String(), username: Type.String(), name: Type.String() });

export const ScheduleSchema = Type.Object(
  {
    id: Type.String(),
    deviceId: Type.String(),
    name: Type.String(),
    action: Type.Union([Type.Literal('abrir'), Type.Literal('cerrar')]),
    time: Type.String({ description: 'HH:MM, local time' }),
    days: Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { description: 'ISO weekdays, 1 Monday' }),
    durationMin: Type.Union([Type.Integer(), Type.Null()], { description: 'abrir only: the gate closes this many minutes after' }),
    enabled: Type.Boolean(),
    suspendedUntil: Type.Union([IsoDateTime, Type.Null()]),
    alarmPriority: Type.Integer({ minimum: 1, maximum: 4 }),
    timezone: Type.String({ description: "the server's TZ (IANA)" }),
    nextRunAt: Type.Union([IsoDateTime, Type.Null()]),
    by: Type.Union([PersonSchema, Type.Null()], { description: 'its last editor' }),
  },
  { title: 'Schedule' },
);
export type Schedule = Static<typeof ScheduleSchema>;

const scheduleFields = {
  deviceId: Type.String({ minLength: 1, maxLength: 64 }),
  name: Type.String({ maxLength: 1000 }),
  action: Type.String({ maxLength: 32 }),
  time: Type.String({ maxLength: 16 }),
  days: Type.Array(Type.Integer(), { maxItems: 20 }),
  durationMin: Type.Union([Type.Integer(), Type.Null()]),
  enabled: Type.Boolean(),
  suspendedUntil: Type.Union([Type.String({ maxLength: 40 }), Type.Null()]),
  alarmPriority: Type.Integer(),
};
export const ScheduleCreateSchema = Type.Object(
  {
    deviceId: scheduleFields.deviceId,
    action: scheduleFields.action,
    time: scheduleFields.time,
    days: scheduleFields.days,
    name: Type.Optional(scheduleFields.name),
    durationMin: Type.Optional(scheduleFields.durationMin),
    enabled: Type.Optional(scheduleFields.enabled),
    suspendedUntil: Type.Optional(scheduleFields.suspendedUntil),
    alarmPriority: Type.Optional(scheduleFields.alarmPriority),
  },
  { additionalProperties: false, title: 'ScheduleCreate' },
);
export type ScheduleCreate = Static<typeof ScheduleCreateSchema>;
export const SchedulePatchSchema = Type.Object(
  {
    name: Type.Optional(scheduleFields.name),
    action: Type.Optional(scheduleFields.action),
    time: Type.Optional(scheduleFields.time),
    days: Type.Optional(scheduleFields.days),
    durationMin: Type.Optional(scheduleFields.durationMin),
    enabled: Type.Optional(scheduleFields.enabled),
    suspendedUntil: Type.Optional(scheduleFields.suspendedUntil),
    alarmPriority: Type.Optional(scheduleFields.alarmPriority),
  },
  { additionalProperties: false, title: 'SchedulePatch' },
);
export type SchedulePatch = Static<typeof SchedulePatchSchema>;

export const ScheduleRunSchema = Type.Object(
  {
    id: Type.String(),
    scheduleId: Type.String(),
    deviceId: Type.String(),
    action: Type.Union([Type.Literal('abrir'), Type.Literal('cerrar')]),
    trigger: Literals(SCHEDULE_TRIGGERS),
    plannedAt: IsoDateTime,
    ranAt: Type.Union([IsoDateTime, Type.Null()]),
    status: Literals(SCHEDULE_RUN_STATUSES),
    commandId: Type.Union([Type.String(), Type.Null()]),
    reason: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
  },
  { title: 'ScheduleRun' },
);
export type ScheduleRun = Static<typeof ScheduleRunSchema>;

export const SchedulePreviewSchema = Type.Object(
  {
    timezone: Type.String(),
    items: Type.Array(
      Type.Object({
        at: IsoDateTime,
        action: Type.Union([Type.Literal('abrir'), Type.Literal('cerrar')]),
        closeAt: Type.Union([IsoDateTime, Type.Null()]),
        permissive: Type.Object({ allowed: Type.Boolean(), mode: Type.Union([InterlockModeSchema, Type.Null()]), reasons: Type.Array(InterlockReasonSchema) }),
      }),
    ),
  },
  { title: 'SchedulePreview' },
);
export type SchedulePreview = Static<typeof SchedulePreviewSchema>;
