import type { FastifyBaseLogger } from 'fastify';
import { SessionAdvisoryLock } from '../../storage/postgres/advisory-lock';

/** How often an instance that is not the leader tries to become it: the leader's work moves within this after it dies. */
/** How often the job list has a follower try to take the leader's lock. */
export const TRY_EVERY_MS = 5_000;
const LEADER_KEY = 'agua.leader';

/**
 * One leader among the instances (docs/operations.md "Background work"): whoever holds a PostgreSQL
 * advisory lock on a connection of its own. A leader that dies, is killed or loses PostgreSQL
 * loses its connection and with it the lock; another instance takes it at its next try.
 */
export class Leadership {
  private readonly lock: SessionAdvisoryLock;
  private readonly listeners: Array<(leader: boolean) => void> = [];
  private trying = false;

  constructor(
    url: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.lock = new SessionAdvisoryLock(url, LEADER_KEY, 'agua leader lock', () => {
      this.log.warn('leadership lost (its PostgreSQL connection ended)');
      this.tell(false);
    });
  }

  isLeader(): boolean {
    return this.lock.held();
  }

  onChange(listener: (leader: boolean) => void): void {
    this.listeners.push(listener);
  }

  async start(): Promise<void> {
    await this.tryOnce();
  }

  async stop(): Promise<void> {
    const was = this.lock.held();
    await this.lock.release();
    if (was) this.tell(false);
  }

  /** Tries at once (the leader just left) rather than at the next turn. */
  tryNow(): void {
    void this.tryOnce();
  }

  /** Takes the leader's lock when it is free (at start, then every TRY_EVERY_MS from the job list). */
  async tryOnce(): Promise<void> {
    if (this.trying || this.lock.held()) return;
    this.trying = true;
    try {
      if (await this.lock.tryTake()) {
        this.log.info('this instance is the leader: it runs the background work');
        this.tell(true);
      }
    } catch {
      // PostgreSQL away: the next try
    } finally {
      this.trying = false;
    }
  }

  private tell(leader: boolean): void {
    for (const listener of this.listeners) listener(leader);
  }
}
