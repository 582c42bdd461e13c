import type { FastifyInstance } from 'fastify';
import { Sender, type WebSocket } from 'ws';
import { LIVE_CLOSE_SESSION_ENDED, LIVE_HEARTBEAT_MS, LIVE_PATH, type Alarm, type Interlock, type LiveEvent, type Reading, type Role, type WaterAnalytics } from '@agua/shared';
import type { EventBus } from '../../lib/event-bus';
import { AppError } from '../../lib/errors';
import { errors, SESSION_SECURITY } from '../../lib/route-schemas';
import type { AuthService } from '../auth/auth.service';
import type { DevicesService } from '../devices/devices.service';
import type { Metrics } from '../metrics/metrics';
import { toUser } from '../users/user.mapper';
import type { UserRecord } from '../users/users.repository';

/** Readings of a device are coalesced to the latest, but never held back longer than this (docs/api.md). */
const COALESCE_MS = 25;
/** A browser that cannot keep up is dropped (it reconnects and gets a fresh snapshot). */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/**
 * Live sockets one session may hold: a tab each, and more than anyone opens. The next one is
 * refused (429) rather than an old one closed, so that two tabs never fight over a slot.
 */
export const MAX_LIVE_SOCKETS_PER_SESSION = 16;
/** How often a socket's session is re-checked (expiry by idle time). */
const SESSION_RECHECK_MS = 60_000;

interface LiveClient {
  socket: WebSocket;
  sessionId: string;
  userId: string;
  user: UserRecord;
}

/** The TCP socket under a ws WebSocket (ws keeps it as `_socket`; it has no public accessor). */
function rawSocketOf(ws: WebSocket): { write(data: Buffer): boolean } | undefined {
  const raw = (ws as unknown as { _socket?: { write(data: Buffer): boolean } })._socket;
  return raw && typeof raw.write === 'function' ? raw : undefined;
}

/**
 * A text message framed once for every socket: frames from a server are not masked, so every
 * socket gets the same bytes. ws would frame (and, for a string, encode) it again per socket —
 * at 10,000 readings/s to 1,000 sockets that is the whole cost of the live socket.
 */
function textFrame(text: string): Buffer {
  return Buffer.concat(Sender.frame(Buffer.from(text), { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false }));
}

export interface LiveRoutesOptions {
  /** The events to show: this instance's, and with several instances the others' as well. */
  bus: EventBus;
  auth: AuthService;
  devices: DevicesService;
  /** The open alarms, for the snapshot. */
  openAlarms: () => Alarm[];
  /** The interlocks bypassed now, for the snapshot (docs/control.md). */
  bypasses: () => Interlock[];
  /** A level sensor's water figures, sent with its readings (docs/water.md). */
  waterFigures: (deviceId: string) => WaterAnalytics | null;
  /** The roles that must sign in with TOTP, as last read (the hello's `user.mustEnrolTotp`). */
  totpRequiredRoles: () => readonly Role[];
  metrics: Metrics;
}

/** The live socket: one snapshot, then typed events (docs/api.md "Live socket"). */
export default async function liveRoutes(app: FastifyInstance, opts: LiveRoutesOptions) {
  const clients = new Set<LiveClient>();
  opts.metrics.level('agua_live_sockets', 'Open live sockets (browsers)', [], () => [[{}, clients.size]]);
  /** Open live connections per session, counted from the upgrade request to the TCP close. */
  const openPerSession = new Map<string, number>();
  const reserveSocket = (sessionId: string, raw: { once(event: 'close', cb: () => void): unknown }): boolean => {
    const open = openPerSession.get(sessionId) ?? 0;
    if (open >= MAX_LIVE_SOCKETS_PER_SESSION) return false;
    openPerSession.set(sessionId, open + 1);
    raw.once('close', () => {
      const left = (openPerSession.get(sessionId) ?? 1) - 1;
      if (left > 0) openPerSession.set(sessionId, left);
      else openPerSession.delete(sessionId);
    });
    return true;
  };
  const pendingReadings = new Map<string, Reading>();
  let flushTimer: NodeJS.Timeout | undefined;

  /**
   * Writes ready-made frames to every open socket, in one write each. Safe beside ws's own sends:
   * without permessage-deflate ws writes each of its frames whole and at once, so frames never
   * interleave. A socket that cannot keep up is dropped (it reconnects for a fresh hello).
   */
  const broadcast = (frames: Buffer, texts: string[]) => {
    for (const c of clients) {
      if (c.socket.readyState !== c.socket.OPEN) continue;
      if (c.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        c.socket.close(1013, 'too slow');
        continue;
      }
      const raw = rawSocketOf(c.socket);
      if (raw) raw.write(frames);
      else for (const text of texts) c.socket.send(text);
    }
  };

  /**
   * Events raised in the same turn of the event loop (the alarm changes of one commit, say) go
   * out together: one write per socket instead of one per event and socket, which at thousands
   * of alarm changes a second to a hundred sockets is what the live socket costs. Order is kept.
   */
  let queuedTexts: string[] = [];
  let queuedFrames: Buffer[] = [];
  let flushScheduled = false;
  const flushQueued = () => {
    flushScheduled = false;
    const frames = Buffer.concat(queuedFrames);
    const texts = queuedTexts;
    queuedFrames = [];
    queuedTexts = [];
    if (texts.length > 0) broadcast(frames, texts);
  };
  const queue = (text: string) => {
    if (clients.size === 0) return;
    queuedTexts.push(text);
    queuedFrames.push(textFrame(text));
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flushQueued);
    }
  };
  const send = (event: LiveEvent) => queue(JSON.stringify(event));
  const helloFor = (user: UserRecord) =>
    JSON.stringify({ type: 'hello', data: { user: toUser(user, opts.totpRequiredRoles()), devices: opts.devices.list(), alarms: opts.openAlarms(), bypasses: opts.bypasses() } } satisfies LiveEvent);

  const flushReadings = () => {
    flushTimer = undefined;
    for (const [deviceId, reading] of pendingReadings) {
      queue(JSON.stringify({ type: 'reading.created', data: { deviceId, reading, analytics: opts.waterFigures(deviceId) } } satisfies LiveEvent));
    }
    pendingReadings.clear();
  };

  /** Checks a socket's session again: closed if it ended, else the user as they are now. */
  const recheckSession = async (c: LiveClient): Promise<boolean> => {
    const user = await opts.auth.authenticateSessionId(c.sessionId);
    if (!user) c.socket.close(LIVE_CLOSE_SESSION_ENDED, 'session ended');
    else c.user = user;
    return user !== null;
  };

  const offs = [
    opts.bus.on('reading.created', ({ deviceId, reading }) => {
      if (clients.size === 0) return;
      pendingReadings.set(deviceId, reading);
      flushTimer ??= setTimeout(flushReadings, COALESCE_MS);
    }),
    opts.bus.on('device.updated', (device) => send({ type: 'device.updated', data: device })),
    opts.bus.on('command.updated', (command) => send({ type: 'command.updated', data: command })),
    opts.bus.on('alarm.updated', (alarm) => send({ type: 'alarm.updated', data: alarm })),
    opts.bus.on('overflow.updated', (event) => send({ type: 'overflow.updated', data: event })),
    opts.bus.on('report_run.updated', (run) => send({ type: 'report_run.updated', data: run })),
    opts.bus.on('interlock.updated', (interlock) => send({ type: 'interlock.updated', data: interlock })),
    opts.bus.on('interlock.removed', (data) => send({ type: 'interlock.removed', data })),
    opts.bus.on('schedule.updated', (schedule) => send({ type: 'schedule.updated', data: schedule })),
    opts.bus.on('schedule.removed', (data) => send({ type: 'schedule.removed', data })),
    opts.bus.on('schedule.run', (run) => send({ type: 'schedule.run', data: run })),
    opts.bus.on('site.updated', (site) => send({ type: 'site.updated', data: site })),
    opts.bus.on('site.removed', (data) => send({ type: 'site.removed', data })),
    opts.bus.on('synoptic.updated', (data) => send({ type: 'synoptic.updated', data })),
    opts.bus.on('device.removed', (data) => send({ type: 'device.removed', data })),
    // The instances lost touch for a while: every socket starts again from a fresh snapshot (its
    // session checked again on the way, so the snapshot names the user as they are now).
    opts.bus.on('live.resync', () => {
      flushQueued();
      for (const c of clients) {
        void recheckSession(c).then((alive) => {
          if (alive && c.socket.readyState === c.socket.OPEN) c.socket.send(helloFor(c.user));
        });
      }
    }),
    opts.bus.on('sessions.ended', ({ sessionId, userId, exceptSessionId }) => {
      for (const c of clients) {
        const ended = sessionId ? c.sessionId === sessionId : c.userId === userId && c.sessionId !== exceptSessionId;
        if (ended) c.socket.close(LIVE_CLOSE_SESSION_ENDED, 'session ended');
      }
    }),
  ];

  const recheck = setInterval(() => {
    for (const c of clients) void recheckSession(c);
  }, SESSION_RECHECK_MS);
  recheck.unref();
  // One frame for every socket: a browser that hears nothing for two of these knows its link is dead.
  const heartbeat = setInterval(() => send({ type: 'heartbeat', data: { at: new Date().toISOString() } }), LIVE_HEARTBEAT_MS);
  heartbeat.unref();

  app.addHook('onClose', async () => {
    offs.forEach((off) => off());
    clearInterval(recheck);
    clearInterval(heartbeat);
    if (flushTimer) clearTimeout(flushTimer);
    for (const c of clients) c.socket.close(1001, 'server shutting down');
  });

  app.get(
    LIVE_PATH,
    {
      websocket: true,
      config: {
        access: 'read',
        // @fastify/websocket hides its routes from the document; this one is part of the API.
        swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, hide: false }, url }),
      },
      schema: {
        tags: ['live'],
        summary: 'WebSocket of live events: hello, reading.created, device.updated, command.updated, device.removed, alarm.updated, overflow.updated, and a heartbeat every 5 s',
        security: SESSION_SECURITY,
        response: errors(401, 403, 429),
      },
      // Before the upgrade, so that the refusal is a plain HTTP answer with the error envelope.
      preValidation: async (req) => {
        if (!reserveSocket(req.auth!.session.id, req.raw.socket)) throw new AppError(429, 'TOO_MANY_LIVE_SOCKETS');
      },
    },
    (socket, req) => {
      const auth = req.auth!;
      const client: LiveClient = { socket, sessionId: auth.session.id, userId: auth.user.id, user: auth.user };
      // What was raised before this socket's snapshot goes to the others first: the snapshot already holds it.
      flushQueued();
      clients.add(client);
      socket.on('close', () => clients.delete(client));
      socket.on('error', () => clients.delete(client));
      // Browsers send nothing we act on; ignore input rather than trusting it.
      socket.on('message', () => undefined);
      socket.send(helloFor(auth.user));
    },
  );
}
