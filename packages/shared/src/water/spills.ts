import type { SpillSettings, Weir } from './geometry';

/** Gravity for the weir formula, m/s². */
export const GRAVITY = 9.81;
const HOUR_MS = 3_600_000;

/** A spill found in a device's readings (docs/water.md "Overflow events"). */
export interface DetectedSpill {
  startedAtMs: number;
  /** Null while it is still spilling. */
  endedAtMs: number | null;
  peakLevelM: number;
  /** Over a weir: m³ by the weir formula; null without one. */
  volumeM3: number | null;
}

/**
 * Flow over a sharp-crested rectangular weir, m³/s: Q = C·(2/3)·b·√(2g)·h^1.5, with h the head
 * above the crest (none below it).
 */
export function weirFlowM3s(weir: Weir, headM: number): number {
  if (headM <= 0) return 0;
  return weir.coefficient * (2 / 3) * weir.widthM * Math.sqrt(2 * GRAVITY) * headM ** 1.5;
}

/** What one reading did to a device's spills: one opened, or the open one closed. */
export type SpillChange = { kind: 'opened'; spill: DetectedSpill } | { kind: 'closed'; spill: DetectedSpill };

/**
 * The spill rule of docs/water.md "Overflow events", one reading at a time (its one home:
 * `detectSpills` runs it over a list, the server runs one per device on its live readings). Readings
 * must come in time order. A spill opens when readings at or above the crest span `onDelayS` with
 * none below between (it starts at the first of them); it closes when readings below crest −
 * `deadbandM` span `offDelayS` with none at or above that between (it ends at the first of them).
 * Its peak and, over a weir, its volume (the trapezoidal integral of the weir flow over
 * consecutive readings) are summed as readings come: readings after the end's first are all below
 * the crest, where the weir carries nothing, so they add nothing.
 */
export class SpillTracker {
  private crestM: number;
  private spill: SpillSettings;
  private weir: Weir | null;
  /** The candidate or open spill: from its first reading, with its peak and volume so far. */
  private run: { startedAtMs: number; peakLevelM: number; volumeM3: number; last: { tsMs: number; levelM: number } } | null = null;
  private open = false;
  /** The first reading of a candidate end, while the open spill may be closing. */
  private closeFromMs: number | null = null;

  constructor(crestM: number, spill: SpillSettings, weir: Weir | null) {
    this.crestM = crestM;
    this.spill = spill;
    this.weir = weir;
  }

  /** A new geometry version: the rule goes on with its crest, delays and weir from the next reading. */
  configure(crestM: number, spill: SpillSettings, weir: Weir | null): void {
    this.crestM = crestM;
    this.spill = spill;
    this.weir = weir;
  }

  /** The next reading (in time order): what it opened or closed, if anything. */
  add(tsMs: number, levelM: number): SpillChange | null {
    if (!this.open) {
      if (levelM < this.crestM) {
        this.run = null;
        return null;
      }
      this.extend(tsMs, levelM);
      if (tsMs - this.run!.startedAtMs < this.spill.onDelayS * 1000) return null;
      this.open = true;
      return { kind: 'opened', spill: this.describe(null) };
    }
    this.extend(tsMs, levelM);
    if (levelM >= this.crestM - this.spill.deadbandM) {
      this.closeFromMs = null;
      return null;
    }
    this.closeFromMs ??= tsMs;
    if (tsMs - this.closeFromMs < this.spill.offDelayS * 1000) return null;
    const closed = this.describe(this.closeFromMs);
    this.open = false;
    this.run = null;
    this.closeFromMs = null;
    return { kind: 'closed', spill: closed };
  }

  /** The open spill as it stands (to the newest reading); null when none is open. */
  current(): DetectedSpill | null {
    return this.open ? this.describe(null) : null;
  }

  get isOpen(): boolean {
    return this.open;
  }

  private extend(tsMs: number, levelM: number): void {
    const run = this.run;
    if (!run) {
      this.run = { startedAtMs: tsMs, peakLevelM: levelM, volumeM3: 0, last: { tsMs, levelM } };
      return;
    }
    run.peakLevelM = Math.max(run.peakLevelM, levelM);
    if (this.weir) {
      const a = run.last;
      run.volumeM3 += ((weirFlowM3s(this.weir, a.levelM - this.crestM) + weirFlowM3s(this.weir, levelM - this.crestM)) / 2) * ((tsMs - a.tsMs) / 1000);
    }
    run.last = { tsMs, levelM };
  }

  private describe(endedAtMs: number | null): DetectedSpill {
    const run = this.run!;
    return { startedAtMs: run.startedAtMs, endedAtMs, peakLevelM: run.peakLevelM, volumeM3: this.weir ? run.volumeM3 : null };
  }
}

/** The spills in a device's readings, which must be in time order: `SpillTracker` over them. */
export function detectSpills(readings: readonly { tsMs: number; levelM: number }[], crestM: number, spill: SpillSettings, weir: Weir | null): DetectedSpill[] {
  const tracker = new SpillTracker(crestM, spill, weir);
  const spills: DetectedSpill[] = [];
  for (const { tsMs, levelM } of readings) {
    const change = tracker.add(tsMs, levelM);
    if (change?.kind === 'closed') spills.push(change.spill);
  }
  const open = tracker.current();
  if (open) spills.push(open);
  return spills;
}

/**
 * Spills by the 12/24 rule of the UK Environment Agency's event duration monitoring: from a
 * spill's start the first 12 hours count one; each following 24-hour block with any spilling
 * counts one more; after a block without spilling, the next spill starts a new count. Spills of
 * one device, in order of start; an open one spills until `nowMs`.
 */
export function spills1224(events: readonly { startedAtMs: number; endedAtMs: number | null }[], nowMs: number): number {
  const spans = events.map((e) => ({ from: e.startedAtMs, to: e.endedAtMs ?? nowMs })).sort((a, b) => a.from - b.from);
  let count = 0;
  let i = 0;
  while (i < spans.length) {
    count++;
    let blockEnd = spans[i]!.from + 12 * HOUR_MS;
    for (;;) {
      const nextEnd = blockEnd + 24 * HOUR_MS;
      const start = blockEnd;
      if (!spans.some((s) => s.from < nextEnd && s.to > start)) break;
      count++;
      blockEnd = nextEnd;
    }
    while (i < spans.length && spans[i]!.from < blockEnd) i++;
  }
  return count;
}
