import type { FastifyBaseLogger } from 'fastify';

/** Something that runs in the background between the server's start and its shutdown. */
export interface BackgroundJob {
  name: string;
  start(): void | Promise<void>;
  /** Ends the job; awaited at shutdown (a last flush belongs here). */
  stop(): void | Promise<void>;
}

/** Whether this instance leads the others (several instances: one runs the shared background work). */
export interface LeaderGate {
  isLeader(): boolean;
  onChange(listener: (leader: boolean) => void): void;
}

export interface JobOptions {
  /** Runs only while this instance is the leader: started when it becomes it, stopped when it no longer is. */
  leaderOnly?: boolean;
}

export interface EveryOptions extends JobOptions {
  /** The first run's delay, when it is not one interval. */
  firstAfterMs?: number;
  onStart?: () => void | Promise<void>;
  /** Asks a run in progress to end early, as soon as the timer is cleared. */
  interrupt?: () => void;
  onStop?: () => void | Promise<void>;
}

/**
 * The one list of the server's background work (docs/decisions/007-background-jobs-and-dependencies.md):
 * started in order when the server is ready, stopped in reverse order when it closes, so that
 * shutdown, tests and — later — "exactly once across instances" have one place to look.
 */
export class BackgroundJobs {
  private readonly jobs: BackgroundJob[] = [];
  private started: BackgroundJob[] = [];

  /** Without a gate this instance is alone, and leads. */
  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly gate: LeaderGate | null = null,
  ) {}

  add(job: BackgroundJob, opts: JobOptions = {}): this {
    this.jobs.push(opts.leaderOnly && this.gate ? whileLeading(this.gate, job, this.log) : job);
    return this;
  }

  /**
   * A task run every `everyMs` (first run after `firstAfterMs`, by default one interval). A run
   * never overlaps the previous one, and a failure is logged, never thrown: one broken task must
   * not end the process. `onStart` runs before the first interval starts; at stop, `interrupt`
   * once the timer is cleared, `onStop` once the last run ended (a last flush belongs there).
   */
  every(name: string, everyMs: number, run: () => unknown, opts: EveryOptions = {}): this {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> | null = null;
    const tick = () => {
      if (running) return;
      running = (async () => run())()
        .catch((err: unknown) => this.log.error({ err, job: name }, 'background job failed'))
        .finally(() => {
          running = null;
        });
    };
    const schedule = (delayMs: number) => {
      timer = setTimeout(() => {
        schedule(everyMs);
        tick();
      }, delayMs);
      timer.unref();
    };
    return this.add(
      {
        name,
        start: async () => {
          await opts.onStart?.();
          schedule(opts.firstAfterMs ?? everyMs);
        },
        stop: async () => {
          clearTimeout(timer);
          opts.interrupt?.();
          await running;
          await opts.onStop?.();
        },
      },
      opts,
    );
  }

  names(): string[] {
    return this.jobs.map((j) => j.name);
  }

  async startAll(): Promise<void> {
    for (const job of this.jobs) {
      await job.start();
      this.started.push(job);
    }
  }

  /** Stops what was started, newest first; a job that fails to stop is logged and the others still stop. */
  async stopAll(): Promise<void> {
    const started = this.started.reverse();
    this.started = [];
    for (const job of started) {
      try {
        await job.stop();
      } catch (err) {
        this.log.error({ err, job: job.name }, 'background job did not stop cleanly');
      }
    }
  }
}

/** A job started while the gate says this instance leads and stopped when it stops leading; changes run one after another. */
function whileLeading(gate: LeaderGate, job: BackgroundJob, log: FastifyBaseLogger): BackgroundJob {
  let wanted = false;
  let running = false;
  let queue: Promise<void> = Promise.resolve();
  const settle = () => {
    queue = queue.then(async () => {
      const should = wanted && gate.isLeader();
      if (should === running) return;
      try {
        await (should ? job.start() : job.stop());
        running = should;
      } catch (err) {
        log.error({ err, job: job.name }, should ? 'background job did not start' : 'background job did not stop cleanly');
      }
    });
    return queue;
  };
  gate.onChange(() => void settle());
  return {
    name: job.name,
    start: () => {
      wanted = true;
      return settle();
    },
    stop: () => {
      wanted = false;
      return settle();
    },
  };
}
