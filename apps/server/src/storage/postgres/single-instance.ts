import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { SessionAdvisoryLock } from './advisory-lock';

/** The advisory lock that says "an instance serves this database". */
export const LOCK_KEY = 'agua.instance';
const RETRY_MS = 1_000;

/** Another instance holds the database. */
export class DatabaseInUseError extends Error {}

/**
 * An instance without Redis serves its PostgreSQL database alone: two such instances would each
 * keep their own view of the devices and alarms, and their background jobs would run twice. It
 * holds this advisory lock exclusively on a connection of its own for as long as it runs;
 * instances joined by Redis (`shared`) hold it shared, so they start beside each other but never
 * beside a lone one. A refused instance waits a moment (a restarted instance's old connection may
 * take a moment to go) and then stops with a clear message. If the lock's connection breaks
 * (PostgreSQL restarted), it is taken again as soon as PostgreSQL answers.
 */
export class SingleInstanceLock {
  private readonly lock: SessionAdvisoryLock;
  private closed = false;

  constructor(
    url: string,
    private readonly log: FastifyBaseLogger,
    private readonly describe: string,
    private readonly shared = false,
  ) {
    this.lock = new SessionAdvisoryLock(url, LOCK_KEY, 'agua instance lock', () => void this.lost(), shared ? 'shared' : 'exclusive');
  }

  /** Takes the lock, waiting up to waitMs for an instance that holds it to go. */
  async acquire(waitMs: number): Promise<void> {
    const deadline = Date.now() + waitMs;
    let told = false;
    for (;;) {
      if (await this.lock.tryTake()) return;
      if (Date.now() >= deadline) {
        throw new DatabaseInUseError(
          this.shared
            ? `An instance without REDIS_URL serves the database at DATABASE_URL (${this.describe}) alone: set REDIS_URL on it as well, or stop it.`
            : `Another instance already serves the database at DATABASE_URL (${this.describe}). Several instances on one database need REDIS_URL on every one of them: stop the other one, give this one a database of its own, or set REDIS_URL on both.`,
        );
      }
      if (!told) this.log.warn({ database: this.describe }, 'another instance serves this database; waiting for it to stop');
      told = true;
      await sleep(RETRY_MS);
    }
  }

  async release(): Promise<void> {
    this.closed = true;
    await this.lock.release();
  }

  /** The lock's connection ended (PostgreSQL restarted): take the lock again once it answers. */
  private async lost(): Promise<void> {
    this.log.warn({ database: this.describe }, 'the instance lock connection ended; taking the lock again');
    while (!this.closed) {
      try {
        if (await this.lock.tryTake()) return;
        this.log.error({ database: this.describe }, 'another instance took this database while PostgreSQL was away: stop one of them');
      } catch {
        // PostgreSQL not back yet
      }
      await sleep(RETRY_MS);
    }
  }
}
