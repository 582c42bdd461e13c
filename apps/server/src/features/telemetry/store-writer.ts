import type { AlarmChange } from '../alarms/alarms.repository';
import type { OutboxStore } from '../notifications/notification-sender';
import type { ReadingsStore } from './telemetry.service';

/**
 * Everything the server writes on the ingest side — readings with the alarm changes they cause,
 * alarm changes alone, the notification outbox — each answered only once committed. One
 * implementation per engine: SQLite's on a thread of its own (ReadingsWriterThread), PostgreSQL's
 * on the pool (PostgresStore).
 */
export interface StoreWriter extends ReadingsStore<AlarmChange>, OutboxStore {
  writeAlarms(changes: AlarmChange[]): Promise<void>;
  /** Forgets seqs whose 24 h window has passed. */
  pruneExpiredSeqs(): Promise<void>;
  /** Forgets a device's seqs (its history was purged). */
  forgetDevice(deviceId: string): Promise<void>;
  /** Waits for what was asked, then takes no more. */
  close(): Promise<void>;
}
