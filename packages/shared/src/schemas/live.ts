import type { Alarm } from './alarm';
import type { Command, Device, Reading } from './device';
import type { Interlock } from './interlock';
import type { Schedule, ScheduleRun } from './schedule';
import type { OverflowEvent } from './overflow';
import type { ReportRun } from './report';
import type { Site } from './site';
import type { User } from './user';
import type { WaterAnalytics } from '../water/analytics';

/** Frames the server sends on the live socket, keyed by `type` (docs/api.md "Live socket"). */
export interface LiveEventMap {
  /** `bypasses`: the interlocks bypassed now (docs/control.md). */
  hello: { user: User; devices: Device[]; alarms: Alarm[]; bypasses: Interlock[] };
  /** `analytics`: the level sensor's water figures after this reading (null without a shape). */
  'reading.created': { deviceId: string; reading: Reading; analytics: WaterAnalytics | null };
  'device.updated': Device;
  'command.updated': Command;
  /** A device was retired or purged: it leaves the lists (an addition to docs/api.md's table). */
  'device.removed': { id: string };
  /** Every transition of an alarm (docs/alarms.md). */
  'alarm.updated': Alarm;
  /** An overflow event opened, grew, closed or was annotated (docs/water.md "Overflow events"). */
  'overflow.updated': OverflowEvent;
  /** A report run was queued, started, finished or failed (docs/reports.md). */
  'report_run.updated': ReportRun;
  /** An interlock created or changed, its bypass begun or ended (docs/control.md). */
  'interlock.updated': Interlock;
  'interlock.removed': { id: string };
  /** A schedule created or changed (docs/control.md "Schedules"), removed, or one of its runs. */
  'schedule.updated': Schedule;
  'schedule.removed': { id: string };
  'schedule.run': ScheduleRun;
  /** A site created or changed, or removed (docs/sites.md); a device moved between sites is a device.updated. */
  'site.updated': Site;
  'site.removed': { id: string };
  /** A new version of a site's synoptic was saved: clients showing it load it again. */
  'synoptic.updated': { siteId: string; version: number };
  /**
   * Sent every LIVE_HEARTBEAT_MS whatever else happens: a client that has heard nothing for
   * LIVE_SILENCE_MS knows its link is dead (a half-open TCP connection says nothing) and shows
   * 'Sin datos en tiempo real' instead of values it can no longer vouch for.
   */
  heartbeat: { at: string };
}
export type LiveEventType = keyof LiveEventMap;
export type LiveEvent = { [K in LiveEventType]: { type: K; data: LiveEventMap[K] } }[LiveEventType];

/** Close code the server uses when the session behind a socket ends. */
export const LIVE_CLOSE_SESSION_ENDED = 4401;
export const LIVE_PATH = '/api/v1/live';
/** How often the server sends a heartbeat on every live socket. */
export const LIVE_HEARTBEAT_MS = 5_000;
/** Silence after which a client calls its live data stale (two heartbeats missed). */
export const LIVE_SILENCE_MS = 10_000;
