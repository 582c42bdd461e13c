import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';

const DAY_MS = 24 * 3600 * 1000;
/** Days of partitions kept made ahead of today. */
const DAYS_AHEAD = 7;
const NAME = /^readings_d(\d{4})(\d{2})(\d{2})$/;

/** The UTC day (days since the epoch) a time falls on. */
export const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

function partitionName(day: number): string {
  return `readings_d${new Date(day * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '')}`;
}

function dayOfName(name: string): number | null {
  const m = NAME.exec(name);
  return m ? dayOf(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
}

/**
 * The readings table's partitions, one per UTC day of `ts_ms` (docs/operations.md). Days ahead are made in
 * advance; a day in the past gets its partition when a reading of that day arrives; readings of
 * days that have none (far past or future) land in the default partition, so no reading is ever
 * refused for its date. Making a partition moves that day's rows out of the default partition and
 * attaches the new table, which locks the readings table far less than CREATE … PARTITION OF.
 * Several instances may do this at once: an advisory lock serialises them.
 */
export class ReadingPartitions {
  private readonly days = new Set<number>();
  private loaded = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Whether a reading of this day has a partition of its own (as far as this instance knows). */
  covers(day: number): boolean {
    return this.days.has(day);
  }

  /** Makes the partitions of yesterday, today and the days ahead. */
  async makeAhead(nowMs = Date.now()): Promise<void> {
    await this.load();
    const today = dayOf(nowMs);
    for (let day = today - 1; day <= today + DAYS_AHEAD; day++) await this.ensure(day);
  }

  /** Makes the partition of a day if it has none yet. */
  async ensure(day: number): Promise<void> {
    if (this.days.has(day)) return;
    const name = partitionName(day);
    await this.underLock(async (client) => {
      const exists = await client.query('SELECT 1 FROM pg_class WHERE relname = $1 AND relnamespace = current_schema()::regnamespace', [name]);
      if (exists.rowCount !== 0) return;
      const lo = day * DAY_MS;
      const hi = lo + DAY_MS;
      await client.query(`CREATE TABLE ${name} (LIKE readings INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      // Readings of this day that arrived before it had a partition move into it.
      await client.query(`WITH moved AS (DELETE FROM readings_default WHERE ts_ms >= $1 AND ts_ms < $2 RETURNING *) INSERT INTO ${name} SELECT * FROM moved`, [lo, hi]);
      await client.query(`ALTER TABLE readings ATTACH PARTITION ${name} FOR VALUES FROM (${lo}) TO (${hi})`);
    });
    this.days.add(day);
  }

  /**
   * Retention: drops the partitions of days wholly before cutoffMs, then deletes what is left
   * before it (the part of the cutoff's own day, and the default partition's). Returns how many
   * readings went.
   */
  async pruneBefore(cutoffMs: number): Promise<number> {
    await this.load();
    let deleted = 0;
    for (const day of [...this.days].sort((a, b) => a - b)) {
      if ((day + 1) * DAY_MS > cutoffMs) break;
      const name = partitionName(day);
      deleted += await this.underLock(async (client) => {
        // Dropping locks the readings table: rather than queue ingest behind a long read, give up
        // and try again at the next run.
        await client.query("SET LOCAL lock_timeout = '5s'");
        const exists = await client.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [name]);
        if (exists.rows[0]?.t === null) return 0; // another instance dropped it
        const count = await client.query<{ n: number }>(`SELECT count(*) AS n FROM ${name}`);
        await client.query(`DROP TABLE ${name}`);
        return count.rows[0]?.n ?? 0;
      });
      this.days.delete(day);
    }
    const rest = await this.pool.query('DELETE FROM readings WHERE ts_ms < $1', [cutoffMs]);
    return deleted + (rest.rowCount ?? 0);
  }

  /** A transaction holding the partitions' advisory lock: one instance changes them at a time. */
  private async underLock<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query("SELECT pg_advisory_xact_lock(hashtext('agua.reading_partitions'))");
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** The partitions that exist (made by any instance). */
  private async load(): Promise<void> {
    if (this.loaded) return;
    const { rows } = await this.pool.query<{ name: string }>(
      "SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'readings'::regclass",
    );
    for (const { name } of rows) {
      const day = dayOfName(name);
      if (day !== null) this.days.add(day);
    }
    this.loaded = true;
    this.log.debug({ partitions: this.days.size }, 'readings partitions loaded');
  }
}
