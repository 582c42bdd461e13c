/**
 * Token buckets per key: `burst` at once, refilled at `perSecond`. `take` spends one and says how
 * long to wait (ms) when there is none. Kept in memory: per instance, forgotten at a restart.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; atMs: number }>();

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
  ) {}

  /** Takes a token; returns 0 when allowed, else the milliseconds until one is available. */
  take(key: string, nowMs = Date.now()): number {
    const b = this.buckets.get(key) ?? { tokens: this.burst, atMs: nowMs };
    b.tokens = Math.min(this.burst, b.tokens + ((nowMs - b.atMs) / 1000) * this.perSecond);
    b.atMs = nowMs;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) / this.perSecond) * 1000);
  }
}
