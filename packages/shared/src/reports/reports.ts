/** Reports (docs/reports.md): what a definition can ask for, and how a run is called in Spanish. */
export const REPORT_KINDS = ['daily', 'weekly', 'monthly', 'overflows'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_KIND_LABELS: Readonly<Record<ReportKind, string>> = {
  daily: 'Diario',
  weekly: 'Semanal',
  monthly: 'Mensual',
  overflows: 'Desbordamientos',
};

export const REPORT_FORMATS = ['xlsx', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const REPORT_RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ReportRunStatus = (typeof REPORT_RUN_STATUSES)[number];

export const REPORT_RUN_STATUS_LABELS: Readonly<Record<ReportRunStatus, string>> = {
  queued: 'En cola',
  running: 'Generando',
  done: 'Listo',
  failed: 'Fallido',
};

/** Monday 1 … Sunday 7 (ISO), as a schedule's weekday. */
export const WEEKDAY_LABELS = ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'] as const;

export const REPORT_LIMITS = {
  nameMax: 100,
  recipientsMax: 50,
  deviceIdsMax: 500,
  /** A run's period, at most (an on-demand run's from–to, both included). */
  periodDaysMax: 366,
  /** Scheduled periods missed while the server was off that run at start, at most (the newest ones). */
  catchUpPeriods: 7,
  /** Files larger than this together go as links on PUBLIC_URL, not attached. */
  attachMaxBytes: 10 * 1024 * 1024,
  /** Runs waiting or being generated at once, at most: 'Generar ahora' beyond is 429 (reports are heavy work). */
  queueMax: 20,
  /** Run pages. */
  pageMax: 200,
} as const;

/** Whether a recipient is an e-mail address (else a user id). */
export const isEmailAddress = (recipient: string): boolean => /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(recipient);
