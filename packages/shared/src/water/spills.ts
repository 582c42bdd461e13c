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

/**
 * The spills in a device's readings, which must be in time order. One opens when readings at or
 * above the crest span `onDelayS` with none below between (it starts at the first of them); it
 * closes when readings below crest − `deadbandM` span `offDelayS` with none at or above that
 * between (it ends at the first of them). The volume is the trapezoidal integral of the weir flow
 * over consecutive readings from start to end.
 */
export function detectSpills(readings: readonly { tsMs: number; levelM: number }[], crestM: number, spill: SpillSettings, weir: Weir | null): DetectedSpill[] {
  const spills: DetectedSpill[] = [];
  const lowM = crestM - spill.deadbandM;
  let openFrom: number | null = null; // index of the first reading of a candidate or open spill
  let open = false;
  let closeFrom: number | null = null; // index of the first reading of a candidate end
  for (let i = 0; i < readings.length; i++) {
    const { tsMs, levelM } = readings[i]!;
    if (!open) {
      if (levelM < crestM) {
        openFrom = null;
        continue;
      }
      openFrom ??= i;
      if (tsMs - readings[openFrom]!.tsMs >= spill.onDelayS * 1000) open = true;
      continue;
    }
    if (levelM >= lowM) {
      closeFrom = null;
      continue;
    }
    closeFrom ??= i;
    if (tsMs - readings[closeFrom]!.tsMs >= spill.offDelayS * 1000) {
      spills.push(describeSpill(readings, openFrom!, closeFrom, crestM, weir, true));
      open = false;
      openFrom = null;
      closeFrom = null;
    }
  }
  if (open) spills.push(describeSpill(readings, openFrom!, readings.length - 1, crestM, weir, false));
  return spills;
}

function describeSpill(readings: readonly { tsMs: number; levelM: number }[], from: number, to: number, crestM: number, weir: Weir | null, ended: boolean): DetectedSpill {
  let peak = -Infinity;
  let volume = 0;
  for (let i = from; i <= to; i++) {
    peak = Math.max(peak, readings[i]!.levelM);
    if (weir && i > from) {
      const a = readings[i - 1]!;
      const b = readings[i]!;
      volume += ((weirFlowM3s(weir, a.levelM - crestM) + weirFlowM3s(weir, b.levelM - crestM)) / 2) * ((b.tsMs - a.tsMs) / 1000);
    }
  }
  return { startedAtMs: readings[from]!.tsMs, endedAtMs: ended ? readings[to]!.tsMs : null, peakLevelM: peak, volumeM3: weir ? volume : null };
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
