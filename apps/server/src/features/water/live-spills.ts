import { SpillTracker, type DetectedSpill, type Geometry, type ReadingStatus } from '@agua/shared';

/** Who follows the spills as they open and close (the alarm engine; the overflow recorder). */
export interface SpillListener {
  opened(deviceId: string, spill: DetectedSpill): void;
  closed(deviceId: string, spill: DetectedSpill): void;
}

interface DeviceSpills {
  tracker: SpillTracker;
  /** The geometry version the tracker was last configured from. */
  geometry: Geometry;
  lastTsMs: number;
}

/**
 * Each level sensor's spills as its readings come (docs/water.md "Overflow events"): the shared
 * `SpillTracker` — the one home of the rule — run per device on its readings in time order, with
 * the crest, delays, deadband and weir of the geometry valid at each reading. A reading no newer
 * than the newest judged (a late batch, or one heard both as stored and as the current reading)
 * is left out; `fault` readings count in no figure. A device whose geometry loses its crest has
 * its open spill closed at the first reading judged without one.
 */
export class LiveSpills {
  private readonly devices = new Map<string, DeviceSpills>();
  private readonly listeners = new Set<SpillListener>();

  constructor(private readonly geometryAt: (deviceId: string, tsMs: number) => Geometry) {}

  /** Follows openings and closings from now on; returns the unsubscribe. */
  on(listener: SpillListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A committed message's or batch's readings (any order): whether any of them was judged. */
  addRows(deviceId: string, rows: ReadonlyArray<{ tsMs: number; valueNum: number | null; status: ReadingStatus }>): boolean {
    let judged = false;
    const ordered = rows.length > 1 ? [...rows].sort((a, b) => a.tsMs - b.tsMs) : rows;
    for (const row of ordered) if (row.valueNum !== null && this.add(deviceId, row.tsMs, row.valueNum, row.status === 'fault')) judged = true;
    return judged;
  }

  /** One reading: whether it was judged (newer than the newest, not a fault). */
  add(deviceId: string, tsMs: number, levelM: number, fault: boolean): boolean {
    const known = this.devices.get(deviceId);
    if (fault || (known && tsMs <= known.lastTsMs)) return false;
    const geometry = this.geometryAt(deviceId, tsMs);
    const crestM = geometry.crestLevelM;
    if (crestM === null) {
      if (!known) return false;
      // No crest any more: nothing can spill; an open spill ends here.
      const open = known.tracker.current();
      this.devices.delete(deviceId);
      if (open) this.tell((l) => l.closed(deviceId, { ...open, endedAtMs: tsMs }));
      return true;
    }
    let state = known;
    if (!state) {
      state = { tracker: new SpillTracker(crestM, geometry.spill, geometry.weir), geometry, lastTsMs: tsMs };
      this.devices.set(deviceId, state);
    } else if (state.geometry !== geometry) {
      state.tracker.configure(crestM, geometry.spill, geometry.weir);
      state.geometry = geometry;
    }
    state.lastTsMs = tsMs;
    const change = state.tracker.add(tsMs, levelM);
    if (change?.kind === 'opened') this.tell((l) => l.opened(deviceId, change.spill));
    else if (change?.kind === 'closed') this.tell((l) => l.closed(deviceId, change.spill));
    return true;
  }

  /** The device's open spill as it stands (to its newest reading) and the crest it spills over; null when none is open. */
  openOf(deviceId: string): { spill: DetectedSpill; crestM: number } | null {
    const state = this.devices.get(deviceId);
    const spill = state?.tracker.current();
    return state && spill ? { spill, crestM: state.geometry.crestLevelM! } : null;
  }

  /** The newest reading judged for the device; null before any. */
  judgedTo(deviceId: string): number | null {
    return this.devices.get(deviceId)?.lastTsMs ?? null;
  }

  /** Takes the device's run as another instance of this class left it (a replay of stored readings). */
  adopt(deviceId: string, from: LiveSpills): void {
    const state = from.devices.get(deviceId);
    if (state) this.devices.set(deviceId, state);
    else this.devices.delete(deviceId);
  }

  forget(deviceId: string): void {
    this.devices.delete(deviceId);
  }

  private tell(what: (listener: SpillListener) => void): void {
    for (const listener of this.listeners) what(listener);
  }
}
