/** Small statistics and table helpers for the ingest bench. */

export function median(values: number[]): number {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return NaN;
  const s = [...finite].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Nearest-rank percentile of an already sorted array (p in 0..100). */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Percentiles of an unsorted list of numbers (sorted once as a Float64Array). */
export function percentiles(values: number[], ps: number[]): number[] {
  const sorted = Float64Array.from(values).sort();
  return ps.map((p) => percentileSorted(sorted, p));
}

export function fmtInt(n: number): string {
  if (!Number.isFinite(n)) return '—';
  return Math.round(n).toLocaleString('en-US');
}

export function fmtMs(n: number): string {
  if (n === Infinity) return `> ${HISTOGRAM_MAX_MS / 1000} s`;
  if (!Number.isFinite(n)) return '—';
  if (n === 0) return '< 1 ms'; // autocannon's latencies are whole milliseconds
  return n < 10 ? `${n.toFixed(2)} ms` : n < 100 ? `${n.toFixed(1)} ms` : `${Math.round(n)} ms`;
}

export function fmtPct(n: number): string {
  return Number.isFinite(n) ? `${Math.round(n * 100)}%` : '—';
}

export function fmtRatio(n: number): string {
  return Number.isFinite(n) ? `${n.toFixed(2)}×` : '—';
}

/** A plain-text table with right-aligned numeric-looking cells. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = /^[\s\d.,%×—<>=+-]*(ms|\/s|×|%)?$/;
  const line = (cells: string[]) =>
    '| ' +
    cells
      .map((c, i) => {
        const w = widths[i]!;
        return i > 0 && numeric.test(c) ? c.padStart(w) : c.padEnd(w);
      })
      .join(' | ') +
    ' |';
  const sep = '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|';
  return [line(header), sep, ...rows.map(line)].join('\n');
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Latency histograms: 0.1 ms buckets up to 60 s (the last bucket holds anything slower). Fixed
 * memory at any frame rate, and the histograms of several threads add up.
 */
const BUCKETS_PER_MS = 10;
const HISTOGRAM_MAX_MS = 60_000;
const HISTOGRAM_BUCKETS = HISTOGRAM_MAX_MS * BUCKETS_PER_MS;

export function newHistogram(): Uint32Array {
  return new Uint32Array(HISTOGRAM_BUCKETS);
}

export function histogramAdd(h: Uint32Array, ms: number): void {
  h[Math.min(HISTOGRAM_BUCKETS - 1, Math.max(0, Math.floor(ms * BUCKETS_PER_MS)))]!++;
}

export function histogramMerge(into: Uint32Array, from: Uint32Array): void {
  for (let i = 0; i < into.length; i++) into[i]! += from[i]!;
}

/**
 * Nearest-rank percentile (p in 0..100), as the upper edge of its bucket in ms; Infinity when it
 * lies beyond the histogram's range, NaN when the histogram is empty.
 */
export function histogramPercentile(h: Uint32Array, p: number): number {
  const total = h.reduce((a, b) => a + b, 0);
  if (total === 0) return NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (let i = 0; i < h.length; i++) {
    seen += h[i]!;
    if (seen >= rank) return i === h.length - 1 ? Infinity : (i + 1) / BUCKETS_PER_MS;
  }
  return NaN;
}
