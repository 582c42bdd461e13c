import type pg from 'pg';
import { DUPLICATE_WINDOW_MS } from '@agua/shared';
import { PgCurrentReadingStore } from '../devices/current-reading.store.pg';
import { newestPerDevice, type ReadingToStore } from './readings.writer';

const seqKey = (deviceId: string, boot: string, seq: number) => `${deviceId}\u0000${boot}\u0000${seq}`;

/** Seqs deleted per statement when their window has passed: short locks, ingest goes on between. */
const PRUNE_CHUNK = 10_000;

/**
 * The ingest hot path on PostgreSQL, inside the caller's transaction: readings as one multi-row
 * INSERT over arrays (one statement, whatever the batch), deduplication by the primary key of
 * `telemetry_seqs` — which holds across instances: a resend that reaches another instance meets
 * the same row, and an instance inserting the same seq at the same moment waits for the first
 * one's commit — and the devices' current reading. Returns, for each reading, whether it was new.
 */
export class PgReadingsWriter {
  private readonly currentReadings = new PgCurrentReadingStore();

  constructor(private readonly windowMs = DUPLICATE_WINDOW_MS) {}

  async write(client: pg.ClientBase, items: ReadingToStore[]): Promise<boolean[]> {
    const fresh = await this.claimSeqs(client, items);
    await this.insertReadings(client, items.filter((_, i) => fresh[i]));
    await this.currentReadings.write(client, newestPerDevice(items, fresh));
    return fresh;
  }

  /** Forgets seqs whose 24 h window has passed. */
  async pruneExpiredSeqs(pool: pg.Pool, nowMs = Date.now()): Promise<number> {
    let total = 0;
    for (;;) {
      const res = await pool.query(
        'DELETE FROM telemetry_seqs WHERE ctid = ANY (ARRAY(SELECT ctid FROM telemetry_seqs WHERE received_ms < $1 LIMIT $2))',
        [nowMs - this.windowMs, PRUNE_CHUNK],
      );
      total += res.rowCount ?? 0;
      if ((res.rowCount ?? 0) < PRUNE_CHUNK) return total;
    }
  }

  /** Forgets a device's seqs (its history was purged). */
  async forgetDevice(pool: pg.Pool, deviceId: string): Promise<void> {
    await pool.query('DELETE FROM telemetry_seqs WHERE device_id = $1', [deviceId]);
  }

  /**
   * Which readings are new: a reading without seq always is; one with a seq is new unless its
   * (device, boot, seq) was seen within the window — earlier in this batch, or stored by any
   * instance. A seq stored longer ago than the window counts as new again, and its time moves on.
   */
  private async claimSeqs(client: pg.ClientBase, items: ReadingToStore[]): Promise<boolean[]> {
    const fresh = items.map((r) => r.seq === null);
    const firstOf = new Map<string, number>();
    items.forEach((r, i) => {
      if (r.seq === null) return;
      const key = seqKey(r.deviceId, r.boot, r.seq);
      if (!firstOf.has(key)) firstOf.set(key, i);
    });
    if (firstOf.size === 0) return fresh;
    const claimed = [...firstOf.values()].map((i) => items[i]!);
    const { rows } = await client.query<{ device_id: string; boot: string; seq: number }>({
      name: 'agua.readings.claim-seqs',
      // Sorted by key, so that two instances' transactions take the rows' locks in the same order.
      text: `INSERT INTO telemetry_seqs AS t (device_id, boot, seq, received_ms)
             SELECT device_id, boot, seq, received_ms
             FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[]) AS u(device_id, boot, seq, received_ms)
             ORDER BY device_id, boot, seq
             ON CONFLICT (device_id, boot, seq) DO UPDATE SET received_ms = EXCLUDED.received_ms
               WHERE t.received_ms < EXCLUDED.received_ms - $5::bigint
             RETURNING t.device_id, t.boot, t.seq`,
      values: [claimed.map((r) => r.deviceId), claimed.map((r) => r.boot), claimed.map((r) => r.seq), claimed.map((r) => r.receivedMs), this.windowMs],
    });
    for (const r of rows) fresh[firstOf.get(seqKey(r.device_id, r.boot, r.seq))!] = true;
    return fresh;
  }

  private async insertReadings(client: pg.ClientBase, rows: ReadingToStore[]): Promise<void> {
    if (rows.length === 0) return;
    await client.query({
      name: 'agua.readings.insert',
      text: `INSERT INTO readings (device_id, ts_ms, value_num, value_text, status, received_ms)
             SELECT * FROM unnest($1::text[], $2::bigint[], $3::float8[], $4::text[], $5::text[], $6::bigint[])`,
      values: [
        rows.map((r) => r.deviceId),
        rows.map((r) => r.tsMs),
        rows.map((r) => r.valueNum),
        rows.map((r) => r.valueText),
        rows.map((r) => r.status),
        rows.map((r) => r.receivedMs),
      ],
    });
  }
}
