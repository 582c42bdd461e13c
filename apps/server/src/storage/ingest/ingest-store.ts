import type { AlarmChangeRow, GateStateRow, LastSeenRow, OutboxClaimRow, OutboxOutcomeRow, OutboxRow, ReadingRow } from './rows';

/**
 * The one writer of the ingest side, for both engines: readings with what they cause (each
 * device's current reading, gate state and lastSeen, the seq runs that deduplicate them, the
 * alarm changes and their notices), alarm changes alone, the notification outbox — each call one
 * transaction, answered only once committed. Back-ends: SQLite on a thread of its own
 * (SqliteIngestStore), PostgreSQL on the pool (PostgresIngestStore); `openIngestStore` picks one
 * (docs/decisions/014-ingest-store.md).
 */
export interface IngestStore {
  /**
   * Stores the readings, and the alarm changes they cause, in one transaction; for each reading,
   * whether it was new (false = duplicate). Writes that carry alarm changes are stored in the
   * order they are handed over: each was computed on top of the one before.
   */
  write(items: ReadingRow[], changes: AlarmChangeRow[]): Promise<boolean[]>;
  /** Group commits it may be handed at once. */
  readonly concurrentWrites: number;
  /** Stores a batch of alarm changes (and their notices) in one transaction. */
  writeAlarms(changes: AlarmChangeRow[]): Promise<void>;
  /** Writes notifications (escalations, tests); how many were new (a cause written twice adds none). */
  writeOutbox(entries: OutboxRow[]): Promise<number>;
  /** Counts the attempts about to be made; due again at retryAtMs should they never end. */
  claimOutbox(claims: OutboxClaimRow[]): Promise<void>;
  /** Stores the outcome of attempts (sent, to retry, given up). */
  settleOutbox(outcomes: OutboxOutcomeRow[]): Promise<void>;
  /** Stores a gate state reported outside a reading (an acknowledgement): the `devices` row has this one writer. */
  writeGateState(row: GateStateRow): Promise<void>;
  /** Moves devices' lastSeen forward (the devices feature's periodic flush). */
  writeLastSeen(rows: LastSeenRow[]): Promise<void>;
  /** Forgets seqs whose 24 h window has passed. */
  pruneExpiredSeqs(): Promise<void>;
  /** Forgets a device's seqs (its history was purged). */
  forgetDevice(deviceId: string): Promise<void>;
  /** Waits for what was asked, then takes no more. */
  close(): Promise<void>;
}
