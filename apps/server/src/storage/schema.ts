import type { Generated } from 'kysely';

/**
 * Table types of the storage layer. Times are epoch milliseconds (integers) so that SQLite and
 * PostgreSQL (bigint) store them the same way; booleans are 0/1 integers for the same reason.
 */
export interface UsersTable {
  id: string;
  username: string;
  name: string;
  email: string;
  role: string;
  status: string;
  password_hash: string | null;
  master_password_hash: string | null;
  must_change_password: number;
  last_login_ms: number | null;
  created_at_ms: number;
  updated_at_ms: number;
  /** Base32 TOTP secret once enabled (docs/security.md "Two-factor sign-in"). */
  totp_secret: string | null;
  /** A secret set up but not yet confirmed by a code. */
  totp_pending_secret: string | null;
  /** The last 30 s time step a code was accepted for: that one and older are refused. */
  totp_last_step: number | null;
  totp_enabled_at_ms: number | null;
}

export interface RecoveryCodesTable {
  user_id: string;
  /** argon2id of the normalised code: shown once, never stored readable. */
  code_hash: string;
  used_at_ms: number | null;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: a stolen database holds no usable session. */
  id: string;
  user_id: string;
  created_at_ms: number;
  last_used_ms: number;
  ip: string | null;
  user_agent: string | null;
  /** Signed in while the user's role required TOTP they had not enabled: gated until they do. */
  must_enrol_totp: Generated<number>;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  username: string;
  ip: string;
  at_ms: number;
}

export interface DevicesTable {
  id: string;
  name: string;
  location: string;
  type: string;
  water_type: string | null;
  enabled: number;
  retired_at_ms: number | null;
  key_hash: string | null;
  /** JSON: maxLevel, warningPct, criticalPct, offlineAfterS, travelTimeoutS, readingIntervalS. */
  config_json: string;
  gate_state: string | null;
  last_seen_ms: number | null;
  last_command_id: string | null;
  /** Current reading (the one with the latest ts), denormalised for the live snapshot. */
  reading_value_num: number | null;
  reading_value_text: string | null;
  reading_status: string | null;
  reading_ts_ms: number | null;
  reading_raw_num: number | null;
  /** The site it belongs to (docs/sites.md); null: none. */
  site_id: string | null;
  created_at_ms: number;
  updated_at_ms: number;
}

/** A place devices belong to (docs/sites.md); `name_key` is the name folded, unique. */
export interface SitesTable {
  id: string;
  name: string;
  name_key: string;
  parent_id: string | null;
  lat: number | null;
  lon: number | null;
  address: string | null;
  created_at_ms: number;
  updated_at_ms: number;
}

/** Every saved version of a site's synoptic drawing; (site_id, version) is the key a stale save collides with. */
export interface SynopticVersionsTable {
  site_id: string;
  version: number;
  width: number;
  height: number;
  /** JSON: {kind:'grid'} or {kind:'svg', svg} (the sanitised SVG). */
  background_json: string;
  items_json: string;
  created_at_ms: number;
  /** JSON {id, username, name} of who saved it. */
  created_by_json: string | null;
}

export interface ReadingsTable {
  id: Generated<number>;
  device_id: string;
  ts_ms: number;
  value_num: number | null;
  value_text: string | null;
  status: string;
  received_ms: number;
  /** What a level sensor sent, where it differs from the level stored (docs/water.md). */
  raw_num: number | null;
}

/** Runs of consecutive seqs seen from a (device, boot): the 24 h deduplication memory. */
export interface TelemetrySeqRunsTable {
  id: Generated<number>;
  device_id: string;
  boot: string;
  seq_from: number;
  seq_to: number;
  first_received_ms: number;
  last_received_ms: number;
}

export interface CommandsTable {
  id: string;
  device_id: string;
  command: string;
  status: string;
  issued_by_id: string | null;
  issued_by_username: string | null;
  issued_by_name: string | null;
  issued_at_ms: number;
  expires_at_ms: number;
  delivered_at_ms: number | null;
  handed_out_at_ms: number | null;
  completed_at_ms: number | null;
  message: string | null;
  comment: string | null;
  approved_by_json: string | null;
  approved_at_ms: number | null;
  approval_expires_at_ms: number | null;
  overrides_json: string | null;
  schedule_id: string | null;
}

export interface SchedulesTable {
  id: string;
  device_id: string;
  name: string;
  action: string;
  time: string;
  days_json: string;
  duration_min: number | null;
  enabled: number;
  suspended_until_ms: number | null;
  alarm_priority: number;
  by_json: string | null;
  active_since_ms: number;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface ScheduleRunsTable {
  id: string;
  schedule_id: string;
  schedule_name: string;
  device_id: string;
  action: string;
  trigger: string;
  planned_at_ms: number;
  ran_at_ms: number | null;
  status: string;
  command_id: string | null;
  reason_json: string | null;
}

export interface InterlocksTable {
  id: string;
  device_id: string;
  command: string;
  name: string;
  conditions_json: string;
  mode: string;
  enabled: number;
  version: number;
  bypass_until_ms: number | null;
  bypass_by_json: string | null;
  bypass_comment: string | null;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface AuditEventsTable {
  id: Generated<number>;
  at_ms: number;
  action: string;
  user_id: string | null;
  username: string | null;
  target: string | null;
  result: string;
  ip: string | null;
  details_json: string | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** One version of a level sensor's geometry; never updated, a change is a new version. */
export interface DeviceGeometriesTable {
  device_id: string;
  version: number;
  valid_from_ms: number;
  /** `{id, username, name}` of who made it; null for the demo's. */
  by_json: string | null;
  /** The geometry's fields as JSON. */
  body: string;
}

/** One local day of a level sensor (docs/water.md "Daily totals"); kept past RETENTION_DAYS. */
export interface DailyTotalsTable {
  device_id: string;
  /** YYYY-MM-DD, local (TZ). */
  date: string;
  from_ms: number;
  to_ms: number;
  min_level_m: number | null;
  max_level_m: number | null;
  mean_level_m: number | null;
  volume_start_m3: number | null;
  volume_end_m3: number | null;
  inflow_m3: number | null;
  outflow_m3: number | null;
  seconds_above_crest: number | null;
  overflow_events: number;
  completeness_pct: number;
  /** How many readings the day's series held when computed: fewer now means some were pruned. */
  points: number;
  computed_at_ms: number;
}

export interface OverflowEventsTable {
  id: string;
  device_id: string;
  started_at_ms: number;
  ended_at_ms: number | null;
  /** The newest reading judged into the event: an open event lasts to it. */
  last_reading_ms: number;
  peak_level_m: number;
  volume_m3: number | null;
  method: 'weir' | null;
  cause: string | null;
  notified_at_ms: number | null;
  notes: string | null;
  updated_at_ms: number;
}

export interface OverflowCursorsTable {
  device_id: string;
  /** The newest reading of the device judged into its overflow events. */
  judged_to_ms: number;
  /** Several instances: the oldest reading stored since the judging that is older than `judged_to_ms`; null when none. */
  late_from_ms: number | null;
}

/** Stored per-hour water figures of a level sensor (docs/water.md "Analytics: how they are answered"). */
export interface WaterHoursTable {
  device_id: string;
  /** The UTC hour's start. */
  hour_ms: number;
  /** The device's newest geometry version when computed: another one makes the row stale. */
  geometry_version: number;
  deadband_m3: number | null;
  /** The oldest reading the row depends on (null: none): rows older than the oldest reading left were pruned. */
  since_ms: number | null;
  /** JSON BucketState of the hour. */
  hour_state: string;
  /** The local midnight starting the hour's day; null where that day's edges are not whole UTC hours. */
  day_from_ms: number | null;
  /** JSON BucketState of the hour's local day up to the hour's end. */
  day_state: string | null;
  computed_at_ms: number;
}

export interface AlarmRulesTable {
  id: string;
  device_id: string;
  kind: string;
  enabled: number;
  priority: number;
  setpoint_pct: number | null;
  /** Level kinds: the setpoint in metres (then setpoint_pct is NULL). */
  setpoint_m: number | null;
  /** time_to_overflow: minutes. */
  setpoint_min: number | null;
  rate_per_min: number | null;
  window_s: number | null;
  deadband_pct: number;
  on_delay_s: number;
  off_delay_s: number;
  /** 1 once an admin edited the rule: a first crest no longer turns the water kinds on. */
  edited: number;
  updated_at_ms: number;
}

export interface AlarmsTable {
  id: string;
  device_id: string;
  rule_id: string;
  kind: string;
  priority: number;
  state: string;
  raised_at_ms: number;
  acked_at_ms: number | null;
  /** JSON {id, username, name} */
  acked_by_json: string | null;
  ack_comment: string | null;
  /** When the condition went away ('Normalizada'). */
  cleared_at_ms: number | null;
  shelved_until_ms: number | null;
  shelved_by_json: string | null;
  shelve_comment: string | null;
  value_num: number | null;
  value_text: string | null;
  peak_value: number | null;
  message: string;
  /** When it reached a final state (cleared, suppressed). */
  ended_at_ms: number | null;
}

export interface AlarmTransitionsTable {
  id: Generated<number>;
  alarm_id: string;
  at_ms: number;
  from_state: string | null;
  to_state: string;
  by_json: string | null;
  comment: string | null;
}

export interface NotificationPreferencesTable {
  user_id: string;
  email_min_priority: number | null;
  push_min_priority: number | null;
  updated_at_ms: number;
}

export interface WebhooksTable {
  id: string;
  name: string;
  url: string;
  format: string;
  chat_id: string | null;
  min_priority: number;
  secret: string;
  enabled: number;
  created_at_ms: number;
}

export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at_ms: number;
}

export interface NotificationContentsTable {
  cause: string;
  content_json: string;
}

export interface NotificationOutboxTable {
  id: Generated<number>;
  dedupe_key: string;
  cause: string;
  alarm_id: string | null;
  event: string;
  channel: string;
  recipient_kind: string;
  recipient_id: string;
  target: string | null;
  state: string;
  attempts: number;
  next_attempt_ms: number | null;
  last_error: string | null;
  created_at_ms: number;
  sent_at_ms: number | null;
}

/** A report definition (docs/reports.md). JSON columns: arrays and the schedule as the API has them. */
export interface ReportDefinitionsTable {
  id: string;
  name: string;
  kind: string;
  /** null: every device. */
  device_ids_json: string | null;
  formats_json: string;
  recipients_json: string;
  schedule_json: string | null;
  enabled: number;
  created_at_ms: number;
  /** When it was last enabled (its creation, if created enabled): no scheduled period before it runs. */
  enabled_at_ms: number;
  updated_at_ms: number;
}

export interface ReportRunsTable {
  id: string;
  report_id: string;
  /** The definition as it was when the run was made. */
  definition_json: string;
  from_date: string;
  to_date: string;
  status: string;
  error: string | null;
  requested_by_json: string | null;
  send: number;
  /** `<report>:<from>:<to>` on scheduled runs (unique), null on requested ones. */
  schedule_key: string | null;
  /** Generations started: a run whose instance died is taken again when its lease ends. */
  attempts: number;
  lease_until_ms: number | null;
  /** The e-mails were written to the notification outbox (or there were none to write). */
  mailed: number;
  created_at_ms: number;
  finished_at_ms: number | null;
}

export interface ReportFilesTable {
  run_id: string;
  format: string;
  bytes: number;
  sha256: string;
  content: Buffer;
}

export interface BrokerCredentialsTable {
  device_id: string;
  key_sealed: string;
  issued_at_ms: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  recovery_codes: RecoveryCodesTable;
  login_failures: LoginFailuresTable;
  devices: DevicesTable;
  readings: ReadingsTable;
  telemetry_seq_runs: TelemetrySeqRunsTable;
  commands: CommandsTable;
  interlocks: InterlocksTable;
  schedules: SchedulesTable;
  schedule_runs: ScheduleRunsTable;
  audit_events: AuditEventsTable;
  settings: SettingsTable;
  alarm_rules: AlarmRulesTable;
  alarms: AlarmsTable;
  alarm_transitions: AlarmTransitionsTable;
  notification_preferences: NotificationPreferencesTable;
  webhooks: WebhooksTable;
  push_subscriptions: PushSubscriptionsTable;
  notification_contents: NotificationContentsTable;
  notification_outbox: NotificationOutboxTable;
  broker_credentials: BrokerCredentialsTable;
  device_geometries: DeviceGeometriesTable;
  daily_totals: DailyTotalsTable;
  overflow_events: OverflowEventsTable;
  overflow_cursors: OverflowCursorsTable;
  water_hours: WaterHoursTable;
  report_definitions: ReportDefinitionsTable;
  report_runs: ReportRunsTable;
  report_files: ReportFilesTable;
  sites: SitesTable;
  synoptic_versions: SynopticVersionsTable;
}
