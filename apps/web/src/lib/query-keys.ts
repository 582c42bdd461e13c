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
  deviceReadings: (deviceId: string) => ['readings', deviceId] as const,
  users: ['users'] as const,
  audit: ['audit'] as const,
  /** Every overflow query: the event lists (`[...overflows, 'list', filters]`) and the counts (`'stats'`). */
  overflows: ['overflows'] as const,
  overflowLists: ['overflows', 'list'] as const,
  overflowStats: ['overflows', 'stats'] as const,
  /** The report definitions (GET /reports). */
  reports: ['reports'] as const,
  /** The report run lists, `[...reportRuns, filters]` (lib/report-run-cache.ts). */
  reportRuns: ['report-runs'] as const,
  config: ['config'] as const,
  storage: ['system', 'storage'] as const,
  myNotifications: ['notifications', 'me'] as const,
  webhooks: ['webhooks'] as const,
  escalation: ['notifications', 'escalation'] as const,
  deliveries: ['notifications', 'deliveries'] as const,
} as const;
