/** Chart ranges: fixed spans ending "now" (these follow live data) or a custom from–to. */

export const RANGE_PRESETS = [
  { id: '1h', label: '1 h', spanMs: 3600_000 },
  { id: '24h', label: '24 h', spanMs: 24 * 3600_000 },
  { id: '7d', label: '7 d', spanMs: 7 * 24 * 3600_000 },
  { id: '30d', label: '30 d', spanMs: 30 * 24 * 3600_000 },
] as const;

export type RangePresetId = (typeof RANGE_PRESETS)[number]['id'];

export type TrendRange = { kind: 'preset'; preset: RangePresetId } | { kind: 'custom'; fromMs: number; toMs: number };

export interface ResolvedRange {
  fromMs: number;
  toMs: number;
  /** The range ends now (or later): live readings are appended and the window slides. */
  live: boolean;
}

export function presetSpan(id: RangePresetId): number {
  return RANGE_PRESETS.find((p) => p.id === id)?.spanMs ?? RANGE_PRESETS[0].spanMs;
}

export function resolveRange(range: TrendRange, now: number): ResolvedRange {
  if (range.kind === 'preset') return { fromMs: now - presetSpan(range.preset), toMs: now, live: true };
  return { fromMs: range.fromMs, toMs: range.toMs, live: range.toMs >= now };
}

/** A stable cache key part: presets by name (their times move), custom ranges by their times. */
export function rangeKey(range: TrendRange): string {
  return range.kind === 'preset' ? range.preset : `${range.fromMs}-${range.toMs}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Value for <input type="datetime-local">: the user's local wall-clock time, minutes precision. */
export function toLocalInputValue(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Parses a datetime-local value as local time; NaN when empty or invalid. */
export function fromLocalInputValue(value: string): number {
  // Date-time strings without an offset are local time by the ECMAScript spec.
  return value ? new Date(value).getTime() : Number.NaN;
}
