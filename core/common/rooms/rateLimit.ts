export interface RateLimit {
  /** requests allowed in a burst */
  burst: number;
  /** sustained requests per second */
  perSecond: number;
}

/** A token bucket per key (a member token, an address). `take` says how long to wait when the bucket is empty. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 10_000,
  ) {}

  private refilled(key: string): { tokens: number; at: number } {
    const t = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      // bound the memory an attacker can make us spend on keys
      if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
      bucket = { tokens: this.limit.burst, at: t };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + ((t - bucket.at) / 1000) * this.limit.perSecond);
    bucket.at = t;
    return bucket;
  }

  /** null: a request would be allowed now (nothing is spent); otherwise the seconds until one would be */
  wait(key: string): number | null {
    const bucket = this.refilled(key);
    return bucket.tokens >= 1 ? null : Math.ceil((1 - bucket.tokens) / this.limit.perSecond);
  }

  /** null: allowed (one request is spent); otherwise the seconds until one request would be allowed again */
  take(key: string): number | null {
    const bucket = this.refilled(key);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return null;
    }
    return Math.ceil((1 - bucket.tokens) / this.limit.perSecond);
  }
}
