import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { LIVE_CLOSE_SESSION_ENDED, LIVE_PATH, type LiveEvent, type Reading } from '@agua/shared';
import type { EventBus } from '../../lib/event-bus';
import { AppError } from '../../lib/errors';
import { errors, SESSION_SECURITY } from '../../lib/route-schemas';
import type { AuthService } from '../auth/auth.service';
import type { DevicesService } from '../devices/devices.service';
import { toUser } from '../users/user.mapper';

/** Readings of a device are coalesced to the latest, but never held back longer than this (API.md). */
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
}

/** The TCP socket under a ws WebSocket (ws keeps it as `_socket`; it has no public accessor). */
function rawSocketOf(ws: WebSocket): { cork(): void; uncork(): void } | undefined {
  const raw = (ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
  return raw && typeof raw.cork === 'function' ? raw : undefined;
}

export interface LiveRoutesOptions {
  bus: EventBus;
  auth: AuthService;
  devices: DevicesService;
}

/** The live socket: one snapshot, then typed events (API.md "Live socket"). */
export default async function liveRoutes(app: FastifyInstance, opts: LiveRoutesOptions) {
  const clients = new Set<LiveClient>();
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

  const broadcast = (frame: string) => {
    for (const c of clients) {
      if (c.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        c.socket.close(1013, 'too slow');
        continue;
      }
      c.socket.send(frame);
    }
  };
  const send = (event: LiveEvent) => broadcast(JSON.stringify(event));

  const flushReadings = () => {
    flushTimer = undefined;
    // One write per socket for the whole flush instead of one per frame (measured ~4× less CPU).
    const corked = [...clients].map((c) => rawSocketOf(c.socket));
    for (const s of corked) s?.cork();
    for (const [deviceId, reading] of pendingReadings) send({ type: 'reading.created', data: { deviceId, reading } });
    pendingReadings.clear();
    for (const s of corked) s?.uncork();
  };

  const offs = [
    opts.bus.on('reading.created', ({ deviceId, reading }) => {
      if (clients.size === 0) return;
      pendingReadings.set(deviceId, reading);
      flushTimer ??= setTimeout(flushReadings, COALESCE_MS);
    }),
    opts.bus.on('device.updated', (device) => send({ type: 'device.updated', data: device })),
    opts.bus.on('command.updated', (command) => send({ type: 'command.updated', data: command })),
    opts.bus.on('device.removed', (data) => send({ type: 'device.removed', data })),
    opts.bus.on('sessions.ended', ({ sessionId, userId, exceptSessionId }) => {
      for (const c of clients) {
        const ended = sessionId ? c.sessionId === sessionId : c.userId === userId && c.sessionId !== exceptSessionId;
        if (ended) c.socket.close(LIVE_CLOSE_SESSION_ENDED, 'session ended');
      }
    }),
  ];

  const recheck = setInterval(() => {
    for (const c of clients) {
      void opts.auth.authenticateSessionId(c.sessionId).then((ok) => {
        if (!ok) c.socket.close(LIVE_CLOSE_SESSION_ENDED, 'session ended');
      });
    }
  }, SESSION_RECHECK_MS);
  recheck.unref();

  app.addHook('onClose', async () => {
    offs.forEach((off) => off());
    clearInterval(recheck);
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
        summary: 'WebSocket of live events: hello, reading.created, device.updated, command.updated, device.removed',
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
      const client: LiveClient = { socket, sessionId: auth.session.id, userId: auth.user.id };
      clients.add(client);
      socket.on('close', () => clients.delete(client));
      socket.on('error', () => clients.delete(client));
      // Browsers send nothing we act on; ignore input rather than trusting it.
      socket.on('message', () => undefined);
      const hello: LiveEvent = { type: 'hello', data: { user: toUser(auth.user), devices: opts.devices.list() } };
      socket.send(JSON.stringify(hello));
    },
  );
}
