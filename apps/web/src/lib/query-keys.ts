/**
 * Query keys shared by the features and the live socket. They live here, not in a feature, because
 * the live socket (lib) writes into the same cache entries the features read.
 */
export const queryKeys = {
  devices: ['devices'] as const,
  openAlarms: ['alarms', 'open'] as const,
  alarms: ['alarms'] as const,
  deviceCommands: (deviceId: string) => ['commands', { deviceId }] as const,
  allCommands: ['commands'] as const,
  /** Two-person commands waiting for approval (GET /commands?status=awaiting_approval), kept by command.updated frames. */
  awaitingCommands: ['commands', 'awaiting'] as const,
  /** Every interlock (GET /interlocks), kept by interlock.updated / interlock.removed frames (lib/interlock-cache.ts). */
  interlocks: ['interlocks'] as const,
  /** The interlocks bypassed now: the live socket's hello, then the interlock frames (the bypass banner). */
  bypasses: ['bypasses'] as const,
  /** The permissive check of one device's command (GET /devices/{id}/permissives), refreshed by lib/permissive-refresh.ts. */
  permissives: (deviceId: string, command: string) => ['permissives', deviceId, command] as const,
  allPermissives: ['permissives'] as const,
  deviceReadings: (deviceId: string) => ['readings', deviceId] as const,
  users: ['users'] as const,
  /** One's own sessions (GET /auth/sessions, 'Seguridad de la cuenta'). */
  mySessions: ['auth', 'sessions'] as const,
  /**
   * Learnt, not fetched: this user's role requires two-factor sign-in (they had to enrol, or the
   * server answered 409 TOTP_REQUIRED_BY_ROLE). Kept until sign-out clears the cache.
   */
  totpRequiredByRole: ['auth', 'totp-required-by-role'] as const,
  /** Server-wide settings an administrator changes (GET /settings: the roles that must use two-factor sign-in). */
  settings: ['settings'] as const,
  audit: ['audit'] as const,
  /** Every overflow query: the event lists (`[...overflows, 'list', filters]`) and the counts (`'stats'`). */
  overflows: ['overflows'] as const,
  overflowLists: ['overflows', 'list'] as const,
  overflowStats: ['overflows', 'stats'] as const,
  /** The report definitions (GET /reports). */
  reports: ['reports'] as const,
  /** The report run lists, `[...reportRuns, filters]` (lib/report-run-cache.ts). */
  reportRuns: ['report-runs'] as const,
  /** Gate schedules (lib/schedule-cache.ts): a gate's list, a schedule's preview and its run pages. */
  schedules: ['schedules'] as const,
  allDeviceSchedules: ['schedules', 'device'] as const,
  deviceSchedules: (deviceId: string) => ['schedules', 'device', deviceId] as const,
  schedulePreviews: ['schedules', 'preview'] as const,
  schedulePreview: (id: string) => ['schedules', 'preview', id] as const,
  scheduleRuns: (id: string) => ['schedules', 'runs', id] as const,
  config: ['config'] as const,
  storage: ['system', 'storage'] as const,
  myNotifications: ['notifications', 'me'] as const,
  webhooks: ['webhooks'] as const,
  escalation: ['notifications', 'escalation'] as const,
  deliveries: ['notifications', 'deliveries'] as const,
} as const;
