import { DUPLICATE_WINDOW_MS } from '@agua/shared';

/**
 * Consecutive `seq` values of one (device, boot), all received within `RUN_SPAN_MS` of the run's
 * first one. `id` is its row in `telemetry_seq_runs`, null until stored.
 */
export interface SeqRun {
  id: number | null;
  deviceId: string;
  boot: string;
  from: number;
  to: number;
  firstMs: number;
  lastMs: number;
}

/**
 * A run stops growing an hour after it started, so that it expires close to 24 h after each of
 * its readings: a seq is remembered for at least 24 h and at most 25 h.
 */
export const RUN_SPAN_MS = 60 * 60 * 1000;

/**
 * At most this many runs are remembered per device. Firmware makes a few dozen a day; only a
 * device sending scattered seqs (broken, or hostile) makes more, and then its oldest runs are
 * forgotten rather than memory growing without end. Forgetting errs on the safe side: a resend
 * of a forgotten seq is stored twice, never is a new reading refused.
 */
export const MAX_RUNS_PER_DEVICE = 4096;

type Snapshot = Pick<SeqRun, 'to' | 'lastMs' | 'id'>;

/**
 * The deduplication memory of docs/protocol.md: which (device, boot, seq) were received within 24 h,
 * held as runs of consecutive seqs, because firmware counts up. A batch of 100 readings then costs
 * one run update instead of 100 index entries. The runs of a (device, boot) are sorted by `from`
 * and never overlap while live (a seq is only claimed when no live run holds it).
 *
 * Changes made while a transaction is open are journalled: `commit()` keeps them, `rollback()`
 * puts memory back as the database is after a failed transaction.
 */
export class SeqRuns {
  private readonly byDevice = new Map<string, Map<string, SeqRun[]>>();
  private readonly runCount = new Map<string, number>();
  private readonly dirty = new Set<SeqRun>();
  /** The open transaction's journal: runs as they were before it, and runs it created. */
  private readonly before = new Map<SeqRun, Snapshot>();
  private readonly created: SeqRun[] = [];

  constructor(
    private readonly windowMs = DUPLICATE_WINDOW_MS,
    private readonly spanMs = RUN_SPAN_MS,
    private readonly maxRunsPerDevice = MAX_RUNS_PER_DEVICE,
  ) {}

  /** Loads stored runs (live ones, in any order) at start. */
  load(runs: Iterable<SeqRun>): void {
    for (const run of runs) {
      this.runsOf(run.deviceId, run.boot).push(run);
      this.runCount.set(run.deviceId, (this.runCount.get(run.deviceId) ?? 0) + 1);
    }
    for (const boots of this.byDevice.values()) for (const list of boots.values()) list.sort((a, b) => a.from - b.from);
    for (const deviceId of this.byDevice.keys()) this.limit(deviceId);
  }

  /** Records a received seq: true when it is new, false when it is a duplicate within the window. */
  claim(deviceId: string, boot: string, seq: number, nowMs: number): boolean {
    const list = this.runsOf(deviceId, boot);
    const liveSince = nowMs - this.windowMs;
    const i = lastStartingAtOrBefore(list, seq);
    const run = i >= 0 ? list[i]! : undefined;
    if (run && run.lastMs >= liveSince) {
      if (seq <= run.to) return false;
      // The next run, if any, starts above seq (else the search would have found it).
      if (seq === run.to + 1 && run.firstMs >= nowMs - this.spanMs) {
        this.remember(run);
        run.to = seq;
        run.lastMs = Math.max(run.lastMs, nowMs);
        this.dirty.add(run);
        return true;
      }
    }
    this.startRun(list, { id: null, deviceId, boot, from: seq, to: seq, firstMs: nowMs, lastMs: nowMs }, liveSince);
    return true;
  }

  /** A (device, boot)'s runs, sorted by `from`. */
  runsFor(deviceId: string, boot: string): readonly SeqRun[] {
    return this.byDevice.get(deviceId)?.get(boot) ?? [];
  }

  /** Runs created or grown since the last call, to be stored in the open transaction. */
  takeDirty(): SeqRun[] {
    const out = [...this.dirty];
    this.dirty.clear();
    return out;
  }

  /** Sets a run's row id once stored (undone by rollback). */
  stored(run: SeqRun, id: number): void {
    this.remember(run);
    run.id = id;
  }

  /** The transaction committed: its changes stay. */
  commit(): void {
    this.endTransaction();
  }

  /** The transaction failed: memory goes back to what the database holds. */
  rollback(): void {
    for (const [run, was] of this.before) Object.assign(run, was);
    for (const run of this.created) {
      const list = this.byDevice.get(run.deviceId)?.get(run.boot);
      const at = list?.indexOf(run) ?? -1;
      if (at >= 0) {
        list!.splice(at, 1);
        this.runCount.set(run.deviceId, this.runCount.get(run.deviceId)! - 1);
      }
    }
    this.endTransaction();
  }

  /** Drops a device's runs (its history was purged). */
  forgetDevice(deviceId: string): void {
    this.byDevice.delete(deviceId);
    this.runCount.delete(deviceId);
  }

  /** Drops runs past the window from memory; the caller deletes their rows. */
  prune(nowMs: number): void {
    const liveSince = nowMs - this.windowMs;
    for (const [deviceId, boots] of this.byDevice) {
      let count = 0;
      for (const [boot, list] of boots) {
        const live = list.filter((r) => r.lastMs >= liveSince);
        count += live.length;
        if (live.length === 0) boots.delete(boot);
        else if (live.length !== list.length) boots.set(boot, live);
      }
      if (boots.size === 0) this.forgetDevice(deviceId);
      else this.runCount.set(deviceId, count);
    }
  }

  /** How many runs are held (for tests and diagnostics). */
  size(): number {
    let n = 0;
    for (const boots of this.byDevice.values()) for (const list of boots.values()) n += list.length;
    return n;
  }

  private endTransaction(): void {
    this.before.clear();
    this.created.length = 0;
    this.dirty.clear();
  }

  private startRun(list: SeqRun[], run: SeqRun, liveSince: number): void {
    // Expired runs may hold this seq: they go first, so that live runs never overlap.
    let count = this.runCount.get(run.deviceId) ?? 0;
    for (let k = list.length - 1; k >= 0; k--) {
      if (list[k]!.lastMs < liveSince) {
        list.splice(k, 1);
        count--;
      }
    }
    list.splice(lastStartingAtOrBefore(list, run.from) + 1, 0, run);
    this.runCount.set(run.deviceId, count + 1);
    this.created.push(run);
    this.dirty.add(run);
    this.limit(run.deviceId);
  }

  /** Over the cap, a device's least recently used half of its runs is forgotten (at once, so rarely). */
  private limit(deviceId: string): void {
    if ((this.runCount.get(deviceId) ?? 0) <= this.maxRunsPerDevice) return;
    const boots = this.byDevice.get(deviceId)!;
    const all = [...boots.values()].flat().sort((a, b) => b.lastMs - a.lastMs);
    const keep = new Set(all.slice(0, Math.floor(this.maxRunsPerDevice / 2)));
    for (const [boot, list] of boots) {
      const kept = list.filter((r) => keep.has(r));
      if (kept.length === 0) boots.delete(boot);
      else boots.set(boot, kept);
    }
    this.runCount.set(deviceId, keep.size);
  }

  private remember(run: SeqRun): void {
    if (!this.before.has(run)) this.before.set(run, { to: run.to, lastMs: run.lastMs, id: run.id });
  }

  private runsOf(deviceId: string, boot: string): SeqRun[] {
    let boots = this.byDevice.get(deviceId);
    if (!boots) this.byDevice.set(deviceId, (boots = new Map()));
    let list = boots.get(boot);
    if (!list) boots.set(boot, (list = []));
    return list;
  }
}

/** Index of the last run with from <= seq, or -1 (runs sorted by from). */
function lastStartingAtOrBefore(list: SeqRun[], seq: number): number {
  const last = list.length - 1;
  if (last >= 0 && list[last]!.from <= seq) return last; // the usual case: counting up
  let lo = 0;
  let hi = last;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.from <= seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi;
}
