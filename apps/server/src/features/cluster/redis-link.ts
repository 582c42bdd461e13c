import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/** How long a start waits for Redis (docs/operations.md), then stops naming REDIS_URL. */
const START_WAIT_MS = 60_000;

/** Redis did not answer within the start's wait, or refused our credentials. */
export class RedisUnreachableError extends Error {}

/** host:port/db of REDIS_URL, without the password (for logs and messages). */
export function describeRedis(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '6379'}${u.pathname && u.pathname !== '/' ? u.pathname : '/0'}`;
}

/** Two connections: one for commands and publishing, one in subscriber mode (Redis requires it). */
export interface RedisLink {
  commands: Redis;
  subscriber: Redis;
  describe: string;
  close(): Promise<void>;
}

function client(url: string, name: string): Redis {
  return new Redis(url, {
    connectionName: name,
    // Commands fail at once while Redis is away instead of queueing without bound: nothing waits for Redis.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(200 * times, 1_000),
    lazyConnect: true,
  });
}

/**
 * Connects to REDIS_URL, waiting up to 60 s for it to answer (a wrong password stops at once);
 * afterwards the connections reconnect by themselves for as long as the server runs.
 */
export async function connectRedis(url: string, log: FastifyBaseLogger, opts: { instanceId: string; waitMs?: number }): Promise<RedisLink> {
  const describe = describeRedis(url);
  const commands = client(url, `agua-${opts.instanceId}`);
  const subscriber = client(url, `agua-${opts.instanceId}-sub`);
  let refused: Error | null = null;
  for (const c of [commands, subscriber]) {
    c.on('error', (err: Error) => {
      if (/WRONGPASS|NOAUTH|NOPERM/.test(err.message)) refused = err;
    });
  }
  const close = async () => {
    commands.disconnect();
    subscriber.disconnect();
  };
  const deadline = Date.now() + (opts.waitMs ?? START_WAIT_MS);
  let told = false;
  for (;;) {
    try {
      await Promise.all([commands.status === 'wait' ? commands.connect() : undefined, subscriber.status === 'wait' ? subscriber.connect() : undefined]);
      await Promise.all([commands.ping(), subscriber.ping()]);
      if (told) log.info({ redis: describe }, 'Redis answers');
      return { commands, subscriber, describe, close };
    } catch {
      if (refused) {
        await close();
        throw new RedisUnreachableError(`Redis at REDIS_URL (${describe}) refused the credentials: check the password in REDIS_URL`);
      }
      if (Date.now() >= deadline) {
        await close();
        throw new RedisUnreachableError(`Redis at REDIS_URL (${describe}) did not answer within ${Math.round((opts.waitMs ?? START_WAIT_MS) / 1000)} s: start Redis or correct REDIS_URL`);
      }
      if (!told) log.warn({ redis: describe }, 'waiting for Redis (REDIS_URL)');
      told = true;
      await sleep(500);
    }
  }
}
