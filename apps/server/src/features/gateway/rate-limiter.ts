import { TokenBuckets } from '../../lib/token-buckets';

/**
 * Per-device limit of requests or publishes per second (DEVICE_RATE_LIMIT), as a token bucket
 * that allows a one-second burst. `0` means no limit.
 */
export class DeviceRateLimiter {
  private readonly buckets: TokenBuckets | null;

  constructor(perSecond: number) {
    this.buckets = perSecond === 0 ? null : new TokenBuckets(perSecond, perSecond);
  }

  /** Takes a token; returns 0 when allowed, else the milliseconds until one is available. */
  take(deviceId: string, nowMs = Date.now()): number {
    return this.buckets?.take(deviceId, nowMs) ?? 0;
  }
}
