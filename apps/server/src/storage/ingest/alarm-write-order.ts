import { StorageUnavailableError } from '../storage-health';

/**
 * "Refuse alarm writes made on top of a failed one", once for both back-ends. The alarm engine
 * computes each batch of changes on top of the one before; when a write of alarm changes fails,
 * every alarm write handed over before the failure was known was computed on a state that was
 * never stored: it is refused too (503: the readings are resent, the engine reloads what is
 * stored), never stored on top of a state that is not there.
 *
 * A write is stamped, when handed over, with the failures known then (`stamp`); the back-end asks
 * before storing it (`builtOnFailure`) and counts each failed alarm write (`failed`). On SQLite the
 * count lives on the writer thread and the stamp crosses with the request; on PostgreSQL both live
 * on the pool's side, writes with alarm changes chained in their order.
 */
export class AlarmWriteOrder {
  private failures = 0;

  /** The failures known now: the stamp of a write handed over now. */
  stamp(): number {
    return this.failures;
  }

  /** Whether a write stamped `stamp` was made on top of a write that has failed since. */
  builtOnFailure(stamp: number): boolean {
    return stamp < this.failures;
  }

  /** A write of alarm changes failed. */
  failed(): void {
    this.failures++;
  }
}

export const REFUSED_ALARM_WRITE = 'an earlier alarm write failed; this one was made on top of it';

export const refusedAlarmWrite = (): StorageUnavailableError => new StorageUnavailableError(REFUSED_ALARM_WRITE);
