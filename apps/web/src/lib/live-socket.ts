/**
 * The single owner of the live socket (/api/v1/live): turns server frames into query-cache
 * updates, keeps a short per-device history for live charts, and exposes the connection state.
 * Needs the shared query client; knows nothing about features (callbacks are passed to start()).
 */
import { useCallback, useRef, useSyncExternalStore } from 'react';
import {
  LIVE_CLOSE_SESSION_ENDED,
  LIVE_HISTORY_PER_SENSOR,
  LIVE_PATH,
  LIVE_SILENCE_MS,
  isNewerReading,
  type Alarm,
  type Command,
  type Device,
  type Interlock,
  type LiveEvent,
  type OverflowEvent,
  type Reading,
  type ReportRun,
  type User,
} from '@agua/shared';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';
import { applyAlarmUpdate, sortOpenAlarms } from './alarm-cache';
import { isGateState } from './device-helpers';
import { storeAwaitingCommands, storeInterlockFrames, type InterlockFrame } from './interlock-cache';
import { storeOverflowEvents } from './overflow-cache';
import { cancelPermissiveRefreshes, refreshPermissives } from './permissive-refresh';
import { storeReportRuns } from './report-run-cache';
import { storeScheduleFrames, type ScheduleFrame } from './schedule-cache';
import { siteKeys, storeSiteFrames, type SiteFrame } from './site-cache';

/**
 * `stale`: the socket says it is open, but nothing (not even the server's heartbeat) came for
 * LIVE_SILENCE_MS — a half-dead link. Screens treat it as not live.
 */
export type LiveState = 'connecting' | 'open' | 'stale' | 'closed';

export interface LiveStatus {
  state: LiveState;
  /** Whether this session has had an open socket at least once (first connect vs. a drop). */
  everOpened: boolean;
}

export interface LiveOptions {
  /** The server closed the socket with 4401: the session is over. */
  onSessionEnded: () => void;
  /** A connection attempt failed before opening (maybe a 401 at the upgrade): verify the session. */
  onConnectFailed?: () => void;
  /** The snapshot carries the current user; lets the auth state pick up role changes. */
  onUser?: (user: User) => void;
}

const KNOWN_TYPES = new Set<LiveEvent['type']>([
  'hello',
  'reading.created',
  'device.updated',
  'command.updated',
  'device.removed',
  'alarm.updated',
  'overflow.updated',
  'report_run.updated',
  'interlock.updated',
  'interlock.removed',
  'schedule.updated',
  'schedule.removed',
  'schedule.run',
  'site.updated',
  'site.removed',
  'synoptic.updated',
]);
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 10_000;
// Background tabs get no animation frames; a timer still flushes so the cache never lags much.
const FLUSH_FALLBACK_MS = 250;
/** How often the silence of an open socket is checked. */
const WATCH_EVERY_MS = 1_000;
/** A socket silent this long is given up and a new one opened (a half-open TCP connection never closes by itself). */
const GIVE_UP_AFTER_MS = LIVE_SILENCE_MS + 5_000;

let socket: WebSocket | null = null;
let running = false;
let attempt = 0;
let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
let options: LiveOptions | null = null;
let lastMessageAt: number | null = null;
let watchdog: ReturnType<typeof setInterval> | null = null;

let status: LiveStatus = { state: 'closed', everOpened: false };
const statusListeners = new Set<() => void>();

function setStatus(next: Partial<LiveStatus>): void {
  const merged = { ...status, ...next };
  if (merged.state === status.state && merged.everOpened === status.everOpened) return;
  status = merged;
  for (const listener of statusListeners) listener();
}

// ---------------------------------------------------------------- per-device live history

const history = new Map<string, Reading[]>();
const historyListeners = new Map<string, Set<() => void>>();
const EMPTY: Reading[] = [];

function insertReadings(deviceId: string, readings: Reading[]): boolean {
  const current = history.get(deviceId) ?? EMPTY;
  const byTs = new Map(current.map((r) => [r.ts, r]));
  let changed = false;
  for (const r of readings) {
    if (!byTs.has(r.ts)) {
      byTs.set(r.ts, r);
      changed = true;
    }
  }
  if (!changed) return false;
  // Readings may arrive late (a device's buffered batch): keep the list ordered by time.
  const merged = [...byTs.values()].sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
  history.set(deviceId, merged.slice(-LIVE_HISTORY_PER_SENSOR));
  return true;
}

function notifyHistory(deviceIds: Iterable<string>): void {
  for (const id of deviceIds) for (const listener of historyListeners.get(id) ?? []) listener();
}

/** Adds readings fetched over HTTP (e.g. the last minutes) to a device's live history. */
export function seedLiveHistory(deviceId: string, readings: Reading[]): void {
  if (insertReadings(deviceId, readings)) notifyHistory([deviceId]);
}

/** The last readings of a device (oldest first, at most LIVE_HISTORY_PER_SENSOR). */
export function useLiveHistory(deviceId: string): Reading[] {
  return useSyncExternalStore(
    (listener) => {
      let set = historyListeners.get(deviceId);
      if (!set) historyListeners.set(deviceId, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    () => history.get(deviceId) ?? EMPTY,
  );
}

/**
 * The live histories of several devices at once (one chart overlaying them). The answer keeps its
 * identity until one of the lists changes, as useSyncExternalStore requires.
 */
export function useLiveHistories(deviceIds: readonly string[]): Reading[][] {
  const key = deviceIds.join('\n');
  const cache = useRef<Reading[][]>([]);
  const subscribe = useCallback(
    (listener: () => void) => {
      const ids = key ? key.split('\n') : [];
      for (const id of ids) {
        let set = historyListeners.get(id);
        if (!set) historyListeners.set(id, (set = new Set()));
        set.add(listener);
      }
      return () => {
        for (const id of ids) historyListeners.get(id)?.delete(listener);
      };
    },
    [key],
  );
  const snapshot = useCallback(() => {
    const ids = key ? key.split('\n') : [];
    const next = ids.map((id) => history.get(id) ?? EMPTY);
    const previous = cache.current;
    if (next.length !== previous.length || next.some((list, i) => list !== previous[i])) cache.current = next;
    return cache.current;
  }, [key]);
  return useSyncExternalStore(subscribe, snapshot);
}

// ---------------------------------------------------------------- cache updates, one per frame

let pending: LiveEvent[] = [];
let frame: number | null = null;
let fallback: ReturnType<typeof setTimeout> | null = null;

function scheduleFlush(): void {
  if (frame !== null || fallback !== null) return;
  frame = requestAnimationFrame(flush);
  fallback = setTimeout(flush, FLUSH_FALLBACK_MS);
}

function cancelFlush(): void {
  if (frame !== null) cancelAnimationFrame(frame);
  if (fallback !== null) clearTimeout(fallback);
  frame = null;
  fallback = null;
}

function isNewer(candidate: Reading, current: Reading | null): boolean {
  return isNewerReading(current ? Date.parse(current.ts) : null, Date.parse(candidate.ts));
}

function applyCommand(device: Device, command: Command): Device {
  const last = device.lastCommand;
  if (last && last.id !== command.id && Date.parse(command.issuedAt) < Date.parse(last.issuedAt)) return device;
  return { ...device, lastCommand: command };
}

type CommandPage = { items: Command[]; nextCursor: string | null };

function upsertCommandPages(commands: Command[]): void {
  for (const command of commands) {
    queryClient.setQueryData<CommandPage>(queryKeys.deviceCommands(command.deviceId), (page) => {
      if (!page || !Array.isArray(page.items)) return page;
      const index = page.items.findIndex((c) => c.id === command.id);
      if (index === -1) return { ...page, items: [command, ...page.items] };
      const items = page.items.slice();
      items[index] = command;
      return { ...page, items };
    });
  }
}

function flush(): void {
  cancelFlush();
  const events = pending;
  pending = [];
  if (events.length === 0) return;
  const receivedAt = Date.now();

  const cached = queryClient.getQueryData<Device[]>(queryKeys.devices);
  const devices = new Map((cached ?? []).map((d) => [d.id, d]));
  let devicesChanged = false;
  let snapshot = false;
  const commands: Command[] = [];
  const overflows: OverflowEvent[] = [];
  const reportRuns: ReportRun[] = [];
  const touchedHistory = new Set<string>();
  // Devices the frames were about: the permissive checks that depend on them are asked again.
  const touchedDevices = new Set<string>();
  const interlockFrames: InterlockFrame[] = [];
  const scheduleFrames: ScheduleFrame[] = [];
  const siteFrames: SiteFrame[] = [];
  let bypasses: Interlock[] | null = null;
  let openAlarms = queryClient.getQueryData<Alarm[]>(queryKeys.openAlarms);
  let alarmsChanged = false;

  for (const event of events) {
    switch (event.type) {
      case 'hello': {
        devices.clear();
        for (const d of event.data.devices) {
          devices.set(d.id, d);
          if (d.reading && insertReadings(d.id, [d.reading])) touchedHistory.add(d.id);
        }
        devicesChanged = snapshot = true;
        openAlarms = sortOpenAlarms(event.data.alarms ?? []);
        alarmsChanged = true;
        // What the snapshot says replaces the frames that came before it in this batch.
        bypasses = event.data.bypasses ?? [];
        interlockFrames.length = 0;
        options?.onUser?.(event.data.user);
        break;
      }
      case 'alarm.updated': {
        // Before the snapshot the list is unknown: the hello that follows brings it whole.
        if (openAlarms) {
          openAlarms = applyAlarmUpdate(openAlarms, event.data);
          alarmsChanged = true;
        }
        touchedDevices.add(event.data.deviceId);
        break;
      }
      case 'reading.created': {
        const { deviceId, reading, analytics } = event.data;
        if (insertReadings(deviceId, [reading])) touchedHistory.add(deviceId);
        touchedDevices.add(deviceId);
        const device = devices.get(deviceId);
        if (device) {
          // A reading means the device was just heard; the server need not send device.updated
          // for every lastSeen tick.
          const heardAt = new Date(receivedAt).toISOString();
          const lastSeen = !device.lastSeen || device.lastSeen < heardAt ? heardAt : device.lastSeen;
          const newer = isNewer(reading, device.reading);
          // A gate's newest reading is its state (config.state), as the server records it too.
          const config = newer && isGateState(reading.value) ? { ...device.config, state: reading.value } : device.config;
          // The water figures are the server's after this reading (docs/api.md): current even
          // when the reading itself was a late one. A frame without them keeps ours.
          const water = analytics === undefined ? device.analytics : analytics;
          devices.set(deviceId, { ...device, lastSeen, config, reading: newer ? reading : device.reading, analytics: water });
          devicesChanged = true;
        }
        break;
      }
      case 'device.updated': {
        devices.set(event.data.id, event.data);
        devicesChanged = true;
        touchedDevices.add(event.data.id);
        break;
      }
      case 'device.removed': {
        devicesChanged = devices.delete(event.data.id) || devicesChanged;
        touchedDevices.add(event.data.id);
        break;
      }
      case 'command.updated': {
        const device = devices.get(event.data.deviceId);
        if (device) {
          devices.set(device.id, applyCommand(device, event.data));
          devicesChanged = true;
        }
        commands.push(event.data);
        break;
      }
      case 'overflow.updated': {
        overflows.push(event.data);
        break;
      }
      case 'report_run.updated': {
        reportRuns.push(event.data);
        break;
      }
      case 'interlock.updated':
      case 'interlock.removed': {
        interlockFrames.push(event);
        break;
      }
      case 'schedule.updated':
      case 'schedule.removed':
      case 'schedule.run': {
        scheduleFrames.push(event);
        break;
      }
      case 'site.updated':
      case 'site.removed':
      case 'synoptic.updated': {
        siteFrames.push(event);
        break;
      }
    }
  }

  if (devicesChanged && (cached || snapshot)) queryClient.setQueryData<Device[]>(queryKeys.devices, [...devices.values()]);
  if (commands.length) {
    upsertCommandPages(commands);
    storeAwaitingCommands(commands);
  }
  if (bypasses) queryClient.setQueryData<Interlock[]>(queryKeys.bypasses, bypasses);
  if (interlockFrames.length) storeInterlockFrames(interlockFrames);
  if (scheduleFrames.length) storeScheduleFrames(scheduleFrames);
  if (siteFrames.length) storeSiteFrames(siteFrames);
  // A schedule's preview judges its runs against the interlocks as they stand.
  if (interlockFrames.length && !snapshot) void queryClient.invalidateQueries({ queryKey: queryKeys.schedulePreviews });
  if (alarmsChanged && openAlarms) {
    queryClient.setQueryData<Alarm[]>(queryKeys.openAlarms, openAlarms);
    // Pages of the alarm history (if one is open) may hold an alarm that just moved.
    void queryClient.invalidateQueries({ queryKey: queryKeys.alarms, predicate: (q) => q.queryKey[1] !== 'open' });
  }
  // After a (re)connect the snapshot replaces the devices; other lists may have missed events.
  if (overflows.length) storeOverflowEvents(overflows);
  if (reportRuns.length) storeReportRuns(reportRuns);
  if (snapshot) {
    void queryClient.invalidateQueries({ queryKey: queryKeys.allCommands });
    void queryClient.invalidateQueries({ queryKey: queryKeys.overflows });
    void queryClient.invalidateQueries({ queryKey: queryKeys.reportRuns });
    void queryClient.invalidateQueries({ queryKey: queryKeys.schedules });
    void queryClient.invalidateQueries({ queryKey: queryKeys.interlocks });
    void queryClient.invalidateQueries({ queryKey: siteKeys.sites });
    void queryClient.invalidateQueries({ queryKey: siteKeys.synoptics });
  }
  refreshPermissives(touchedDevices, snapshot || interlockFrames.length > 0);
  notifyHistory(touchedHistory);
}

// ---------------------------------------------------------------- connection

function liveUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${LIVE_PATH}`;
}

function onFrame(raw: unknown): void {
  if (typeof raw !== 'string') return;
  let frameData: unknown;
  try {
    frameData = JSON.parse(raw);
  } catch {
    return;
  }
  if (!frameData || typeof frameData !== 'object') return;
  const { type, data } = frameData as { type?: unknown; data?: unknown };
  // Later event kinds are ignored until this client learns them (docs/api.md); a heartbeat only proves the link (onmessage).
  if (typeof type !== 'string' || !KNOWN_TYPES.has(type as LiveEvent['type']) || data == null) return;
  if (type === 'hello') attempt = 0;
  pending.push({ type, data } as LiveEvent);
  scheduleFlush();
}

function scheduleReconnect(): void {
  if (!running || reconnectTimer !== null) return;
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  attempt += 1;
  // "Equal jitter": half fixed, half random, so a server restart is not met by a thundering herd.
  const delay = ceiling / 2 + Math.random() * (ceiling / 2);
  reconnectTimer = setTimeout(() => {
    reconnectTimer = null;
    connect();
  }, delay);
}

function connect(): void {
  if (!running || socket) return;
  setStatus({ state: 'connecting' });
  let opened = false;
  let ws: WebSocket;
  try {
    ws = new WebSocket(liveUrl());
  } catch {
    setStatus({ state: 'closed' });
    scheduleReconnect();
    return;
  }
  socket = ws;
  ws.onopen = () => {
    opened = true;
    lastMessageAt = Date.now();
    setStatus({ state: 'open', everOpened: true });
  };
  ws.onmessage = (event: MessageEvent) => {
    lastMessageAt = Date.now();
    if (status.state === 'stale') setStatus({ state: 'open' });
    onFrame(event.data);
  };
  ws.onclose = (event: CloseEvent) => {
    if (socket !== ws) return;
    socket = null;
    if (event.code === LIVE_CLOSE_SESSION_ENDED) {
      running = false;
      setStatus({ state: 'closed' });
      options?.onSessionEnded();
      return;
    }
    if (!running) return;
    setStatus({ state: 'closed' });
    if (!opened) options?.onConnectFailed?.();
    scheduleReconnect();
  };
}

/** Marks a silent socket stale, and replaces one silent for too long. */
function watchSilence(): void {
  if (!socket || lastMessageAt === null || (status.state !== 'open' && status.state !== 'stale')) return;
  const silentMs = Date.now() - lastMessageAt;
  if (silentMs > GIVE_UP_AFTER_MS) {
    const ws = socket;
    socket = null;
    ws.onclose = null;
    ws.onmessage = null;
    ws.close();
    setStatus({ state: 'closed' });
    scheduleReconnect();
    return;
  }
  setStatus({ state: silentMs > LIVE_SILENCE_MS ? 'stale' : 'open' });
}

function reconnectNow(): void {
  if (!running || socket) return;
  if (reconnectTimer !== null) clearTimeout(reconnectTimer);
  reconnectTimer = null;
  attempt = 0;
  connect();
}

/** Opens the socket (once signed in). Calling it again while running only updates the callbacks. */
export function startLive(next: LiveOptions): void {
  options = next;
  if (running) return;
  running = true;
  attempt = 0;
  window.addEventListener('online', reconnectNow);
  watchdog = setInterval(watchSilence, WATCH_EVERY_MS);
  connect();
}

/** Closes the socket and forgets live history (on logout). */
export function stopLive(): void {
  running = false;
  window.removeEventListener('online', reconnectNow);
  if (reconnectTimer !== null) clearTimeout(reconnectTimer);
  reconnectTimer = null;
  if (watchdog !== null) clearInterval(watchdog);
  watchdog = null;
  cancelFlush();
  pending = [];
  const ws = socket;
  socket = null;
  ws?.close(1000);
  history.clear();
  cancelPermissiveRefreshes();
  lastMessageAt = null;
  setStatus({ state: 'closed', everOpened: false });
}

/** Time the last frame (or the opening) was received, for "data from N s ago" notices. */
export function getLastLiveMessageAt(): number | null {
  return lastMessageAt;
}

export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    (listener) => {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    () => status,
  );
}
