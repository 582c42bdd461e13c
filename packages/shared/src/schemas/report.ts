import { Type, type Static } from '@sinclair/typebox';
import { REPORT_FORMATS, REPORT_KINDS, REPORT_LIMITS, REPORT_RUN_STATUSES } from '../reports/reports';
import { IsoDateTime, Literals } from './common';
import { LocalDateSchema } from './water';

export const ReportKindSchema = Literals(REPORT_KINDS);
export const ReportFormatSchema = Literals(REPORT_FORMATS);
export const ReportRunStatusSchema = Literals(REPORT_RUN_STATUSES);

/** When a scheduled report runs, in the server's local time (docs/reports.md "Schedule"). */
export const ReportScheduleSchema = Type.Object(
  {
    time: Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM, local time' }),
    weekday: Type.Optional(Type.Integer({ minimum: 1, maximum: 7, description: 'weekly: Monday 1 … Sunday 7 (required)' })),
    dayOfMonth: Type.Optional(Type.Integer({ minimum: 1, maximum: 28, description: 'monthly and overflows: 1–28 (required)' })),
  },
  { additionalProperties: false, title: 'ReportSchedule' },
);
export type ReportSchedule = Static<typeof ReportScheduleSchema>;

const reportFields = {
  name: Type.String({ minLength: 1, maxLength: REPORT_LIMITS.nameMax }),
  kind: ReportKindSchema,
  deviceIds: Type.Union([Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: REPORT_LIMITS.deviceIdsMax, uniqueItems: true }), Type.Null()], { description: 'null: every device' }),
  formats: Type.Array(ReportFormatSchema, { minItems: 1, maxItems: 2, uniqueItems: true }),
  recipients: Type.Array(Type.String({ minLength: 1, maxLength: 254 }), { maxItems: REPORT_LIMITS.recipientsMax, uniqueItems: true, description: 'user ids or e-mail addresses' }),
  schedule: Type.Union([ReportScheduleSchema, Type.Null()], { description: 'null: only on demand' }),
  enabled: Type.Boolean(),
};

/** A report definition. */
export const ReportSchema = Type.Object({ id: Type.String(), ...reportFields, createdAt: IsoDateTime }, { title: 'Report' });
export type Report = Static<typeof ReportSchema>;

/** `POST /reports`, `PUT /reports/{id}`: a whole definition. */
export const ReportInputSchema = Type.Object(
  { ...reportFields, enabled: Type.Optional(Type.Boolean({ default: true })), recipients: Type.Optional(reportFields.recipients), schedule: Type.Optional(reportFields.schedule), deviceIds: Type.Optional(reportFields.deviceIds) },
  { additionalProperties: false, title: 'ReportInput' },
);
export type ReportInput = Static<typeof ReportInputSchema>;

export const ReportFileSchema = Type.Object(
  { format: ReportFormatSchema, bytes: Type.Integer({ minimum: 0 }), sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) },
  { title: 'ReportFile' },
);
export type ReportFile = Static<typeof ReportFileSchema>;

const Person = Type.Object({ id: Type.String(), username: Type.String(), name: Type.String() });

/** One generation of a report for a period. */
export const ReportRunSchema = Type.Object(
  {
    id: Type.String(),
    reportId: Type.String(),
    reportName: Type.String({ description: "the definition's name when the run was made" }),
    kind: ReportKindSchema,
    from: Type.String({ description: 'first local date of the period, YYYY-MM-DD' }),
    to: Type.String({ description: 'last local date of the period (included), YYYY-MM-DD' }),
    status: ReportRunStatusSchema,
    files: Type.Array(ReportFileSchema),
    error: Type.Union([Type.String(), Type.Null()]),
    requestedBy: Type.Union([Person, Type.Null()], { description: 'null: the schedule' }),
    send: Type.Boolean({ description: 'e-mailed to the recipients when done' }),
    createdAt: IsoDateTime,
    finishedAt: Type.Union([IsoDateTime, Type.Null()]),
  },
  { title: 'ReportRun' },
);
export type ReportRun = Static<typeof ReportRunSchema>;

/** `POST /reports/{id}/runs`. */
export const ReportRunRequestSchema = Type.Object(
  {
    from: Type.Optional(LocalDateSchema),
    to: Type.Optional(LocalDateSchema),
    send: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false, title: 'ReportRunRequest' },
);
export type ReportRunRequest = Static<typeof ReportRunRequestSchema>;

export const ReportRunPageSchema = Type.Object({ items: Type.Array(ReportRunSchema), nextCursor: Type.Union([Type.String(), Type.Null()]) }, { title: 'ReportRunPage' });
export type ReportRunPage = Static<typeof ReportRunPageSchema>;
