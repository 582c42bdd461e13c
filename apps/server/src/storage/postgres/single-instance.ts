import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';

/** The advisory lock that says "an instance serves this database". */
const LOCK_KEY = 'agua.instance';
const RETRY_MS = 1_000;

/** Another instance holds the database. */
export class DatabaseInUseError extends Error {}

/**
 * One instance per PostgreSQL database until instances can share live events, device sessions
 * and background work (Redis, SCALE.md): two instances on one database without them would each
 * keep their own view of the devices and alarms, and their background jobs would run twice. The
 * instance holds a session advisory lock on a connection of its own for as long as it runs; a
 * second instance waits for it (a restarted instance's old connection may take a moment to go)
 * and then stops with a clear message. If the lock's connection breaks (PostgreSQL restarted), it
 * is taken again as soon as PostgreSQL answers.
 */
export class SingleInstanceLock {
  private client: pg.Client | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly log: FastifyBaseLogger,
    private readonly describe: string,
  ) {}

  /** Takes the lock, waiting up to waitMs for an instance that holds it to go. */
  async acquire(waitMs: number): Promise<void> {
    const deadline = Date.now() + waitMs;
    let told = false;
    for (;;) {
      if (await this.tryOnce()) return;
      if (Date.now() >= deadline) {
        throw new DatabaseInUseError(
          `Another instance already serves the database at DATABASE_URL (${this.describe}). Several instances on one database need REDIS_URL, which this version does not have yet: stop the other one, or give this one a database of its own.`,
        );
      }
      if (!told) this.log.warn({ database: this.describe }, 'another instance serves this database; waiting for it to stop');
      told = true;
      await sleep(RETRY_MS);
    }
  }

  async release(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }

  private async tryOnce(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'agua instance lock', keepAlive: true });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [LOCK_KEY]);
      if (!rows[0]!.ok) {
        await client.end();
        return false;
      }
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      // Released while this try was under way: let go at once.
      await client.end().catch(() => undefined);
      return true;
    }
    this.client = client;
    client.on('end', () => void this.lost(client));
    return true;
  }

  /** The lock's connection ended (PostgreSQL restarted): take the lock again once it answers. */
  private async lost(client: pg.Client): Promise<void> {
    if (this.closed || this.client !== client) return;
    this.client = null;
    this.log.warn({ database: this.describe }, 'the instance lock connection ended; taking the lock again');
    while (!this.closed) {
      try {
        if (await this.tryOnce()) return;
        this.log.error({ database: this.describe }, 'another instance took this database while PostgreSQL was away: stop one of them');
      } catch {
        // PostgreSQL not back yet
      }
      await sleep(RETRY_MS);
    }
  }
}
