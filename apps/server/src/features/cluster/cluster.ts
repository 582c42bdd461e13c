import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ErrorCode } from '@agua/shared';
import { AppError } from '../../lib/errors';
import type { RedisLink } from './redis-link';

/** Every instance listens here; directed messages go to `agua:instance:{id}`. */
const BROADCAST = 'agua:events';
const channelOf = (instanceId: string) => `agua:instance:${instanceId}`;
/** An instance says it is alive this often; one not heard for PEER_DEAD_MS counts as gone. */
/** How often the job list has this instance say it is alive. */
export const HEARTBEAT_MS = 2_000;
const PEER_DEAD_MS = 10_000;
/** How long a call to another instance (a command for a device it holds) may take. */
const CALL_TIMEOUT_MS = 5_000;

export interface ClusterMessage {
  from: string;
  kind: string;
  body: unknown;
}

type Handler = (body: unknown, from: string) => void;
type CallHandler = (args: unknown) => Promise<unknown>;

interface WireError {
  status: number;
  code: ErrorCode;
  details?: unknown;
}

/**
 * The instances of one installation, talking through Redis pub/sub: broadcasts to all, messages
 * to one, calls to one with an answer, and who is alive. Redis keeps none of it: a message sent
 * while Redis is away is lost (callers say what that means for them), and when the subscription
 * comes back `onReconnect` tells every feature to publish what it holds again.
 */
export class Cluster {
  private readonly handlers = new Map<string, Handler>();
  private readonly callHandlers = new Map<string, CallHandler>();
  private readonly pendingCalls = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void; timer: NodeJS.Timeout }>();
  private readonly peers = new Map<string, number>();
  /** Instances that said they were leaving (until they are heard again). */
  private readonly left = new Set<string>();
  private readonly reconnectListeners: Array<() => void> = [];
  private readonly leftListeners: Array<(instanceId: string) => void> = [];
  /** Since when messages flow (null while Redis is away): only then does silence mean an instance is gone. */
  private flowingSince: number | null = null;
  private everReady = false;
  private closed = false;

  constructor(
    private readonly link: RedisLink,
    readonly instanceId: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    const { subscriber } = this.link;
    subscriber.on('message', (_channel: string, raw: string) => this.receive(raw));
    subscriber.on('ready', () => {
      this.flowingSince = Date.now();
      if (!this.everReady || this.closed) return;
      this.log.warn({ redis: this.link.describe }, 'Redis is back: publishing this instance\'s state again');
      for (const listener of this.reconnectListeners) listener();
    });
    subscriber.on('close', () => {
      this.flowingSince = null;
      if (this.everReady && !this.closed) this.log.warn({ redis: this.link.describe }, 'Redis connection lost; ingest goes on, live events between instances wait for it');
    });
    await subscriber.subscribe(BROADCAST, channelOf(this.instanceId));
    this.flowingSince = Date.now();
    this.everReady = true;
    this.beat();
  }

  /** Leaves: the others stop counting on this instance at once instead of after PEER_DEAD_MS. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.connected()) {
      const message: ClusterMessage = { from: this.instanceId, kind: 'leaving', body: null };
      await this.link.commands.publish(BROADCAST, JSON.stringify(message)).catch(() => undefined);
    }
    this.closed = true;
    for (const [id, call] of this.pendingCalls) {
      clearTimeout(call.timer);
      call.reject(new AppError(503, 'SERVICE_UNAVAILABLE'));
      this.pendingCalls.delete(id);
    }
    await this.link.close();
  }

  /** Whether messages flow between the instances right now. */
  connected(): boolean {
    return this.link.subscriber.status === 'ready' && this.link.commands.status === 'ready';
  }

  /**
   * Whether an instance was heard within PEER_DEAD_MS (this one always is). While Redis is away,
   * and for PEER_DEAD_MS after it is back, nobody is judged gone: their silence is Redis's, and
   * taking over their devices' timers from stale replicas would report live devices offline.
   */
  isAlive(instanceId: string): boolean {
    if (instanceId === this.instanceId) return true;
    if (this.left.has(instanceId)) return false;
    const now = Date.now();
    if (this.flowingSince === null || now - this.flowingSince < PEER_DEAD_MS) return true;
    const at = this.peers.get(instanceId);
    return at !== undefined && now - at <= PEER_DEAD_MS;
  }

  /** The other instances heard within PEER_DEAD_MS. */
  alivePeers(): string[] {
    return [...this.peers.keys()].filter((id) => this.isAlive(id));
  }

  on(kind: string, handler: Handler): void {
    this.handlers.set(kind, handler);
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  /** Another instance shut down cleanly (one that dies is noticed by its silence). */
  onPeerLeft(listener: (instanceId: string) => void): void {
    this.leftListeners.push(listener);
  }

  /** To every other instance. Fire and forget: with Redis away it is dropped (logged at debug). */
  broadcast(kind: string, body: unknown): void {
    this.publish(BROADCAST, kind, body);
  }

  send(to: string, kind: string, body: unknown): void {
    this.publish(channelOf(to), kind, body);
  }

  /** Serves calls of `op` from other instances; an AppError travels back as itself. */
  serve(op: string, handler: CallHandler): void {
    this.callHandlers.set(op, handler);
  }

  /** Calls `op` on another instance: its answer, its AppError, or 503 SERVICE_UNAVAILABLE when it does not answer in time. */
  call<T>(to: string, op: string, args: unknown): Promise<T> {
    const id = randomUUID();
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pendingCalls.delete(id);
        reject(new AppError(503, 'SERVICE_UNAVAILABLE'));
      }, CALL_TIMEOUT_MS);
      this.pendingCalls.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.send(to, 'call', { id, op, args });
    });
  }

  /** Tells the others this instance is alive (at start, then every HEARTBEAT_MS from the job list). */
  beat(): void {
    this.broadcast('alive', null);
  }

  private publish(channel: string, kind: string, body: unknown): void {
    if (this.closed) return;
    const message: ClusterMessage = { from: this.instanceId, kind, body };
    this.link.commands.publish(channel, JSON.stringify(message)).catch((err: Error) => this.log.debug({ err: err.message, kind }, 'cluster message not sent'));
  }

  private receive(raw: string): void {
    let message: ClusterMessage;
    try {
      message = JSON.parse(raw) as ClusterMessage;
    } catch {
      return;
    }
    if (typeof message?.from !== 'string' || message.from === this.instanceId) return;
    if (message.kind === 'leaving') {
      this.peers.delete(message.from);
      this.left.add(message.from);
      for (const listener of this.leftListeners) listener(message.from);
      return;
    }
    this.peers.set(message.from, Date.now());
    this.left.delete(message.from);
    try {
      if (message.kind === 'call') this.answer(message.from, message.body as { id: string; op: string; args: unknown });
      else if (message.kind === 'reply') this.settle(message.body as { id: string; ok: boolean; value?: unknown; error?: WireError });
      else this.handlers.get(message.kind)?.(message.body, message.from);
    } catch (err) {
      this.log.error({ err, kind: message.kind, from: message.from }, 'a cluster message could not be applied');
    }
  }

  private answer(from: string, call: { id: string; op: string; args: unknown }): void {
    const handler = this.callHandlers.get(call.op);
    const reply = (body: unknown) => this.send(from, 'reply', body);
    if (!handler) return reply({ id: call.id, ok: false, error: { status: 503, code: 'SERVICE_UNAVAILABLE' } });
    handler(call.args).then(
      (value) => reply({ id: call.id, ok: true, value }),
      (err: unknown) => {
        if (err instanceof AppError) reply({ id: call.id, ok: false, error: { status: err.statusCode, code: err.code, details: err.details } });
        else {
          this.log.error({ err, op: call.op }, 'a call from another instance failed');
          reply({ id: call.id, ok: false, error: { status: 500, code: 'INTERNAL_ERROR' } });
        }
      },
    );
  }

  private settle(reply: { id: string; ok: boolean; value?: unknown; error?: WireError }): void {
    const call = this.pendingCalls.get(reply.id);
    if (!call) return;
    this.pendingCalls.delete(reply.id);
    clearTimeout(call.timer);
    if (reply.ok) call.resolve(reply.value);
    else call.reject(new AppError(reply.error!.status, reply.error!.code, reply.error!.details));
  }
}
