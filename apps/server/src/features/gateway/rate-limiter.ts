/**
 * Per-device limit of requests or publishes per second (DEVICE_RATE_LIMIT), as a token bucket
 * that allows a one-second burst. `0` means no limit.
 */
export class DeviceRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; atMs: number }>();

  constructor(private readonly perSecond: number) {}

  /** Takes a token; returns 0 when allowed, else the milliseconds until one is available. */
  take(deviceId: string, nowMs = Date.now()): number {
    if (this.perSecond === 0) return 0;
    const b = this.buckets.get(deviceId) ?? { tokens: this.perSecond, atMs: nowMs };
    b.tokens = Math.min(this.perSecond, b.tokens + ((nowMs - b.atMs) / 1000) * this.perSecond);
    b.atMs = nowMs;
    this.buckets.set(deviceId, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) / this.perSecond) * 1000);
  }
}
