/** A gate's state history as contiguous periods, for the state timeline. */
import { GATE_STATES, type GateState, type Reading } from '@agua/shared';
import type { GateChanges } from '../api/get-device-readings';

const isGateState = (value: unknown): value is GateState => typeof value === 'string' && (GATE_STATES as readonly string[]).includes(value);

export interface GateSegment {
  startMs: number;
  endMs: number;
  state: GateState;
}

/**
 * Periods from the state changes, extended with live readings newer than the answer; the last
 * period lasts until `untilMs` (now, the range end, or when an offline gate was last heard).
 */
export function buildGateSegments(changes: GateChanges | undefined, live: Reading[], untilMs: number): GateSegment[] {
  const points: { t: number; state: GateState }[] = [];
  const push = (t: number, state: unknown) => {
    if (!isGateState(state)) return;
    if (points.length > 0 && points[points.length - 1]!.state === state) return;
    points.push({ t, state });
  };
  let endMs = Number.NEGATIVE_INFINITY;
  if (changes) {
    for (const r of changes.items) push(Date.parse(r.ts), r.value);
    endMs = Date.parse(changes.to);
  }
  for (const r of live) {
    const t = Date.parse(r.ts);
    if (t >= endMs) push(t, r.value);
  }
  return points.map((p, i) => ({ startMs: p.t, endMs: Math.max(p.t, points[i + 1]?.t ?? untilMs), state: p.state }));
}

/** The period covering a time, if any. */
export function segmentAt(segments: GateSegment[], ms: number): GateSegment | null {
  for (const s of segments) if (ms >= s.startMs && ms <= s.endMs) return s;
  return null;
}
