/**
 * Token buckets per key (a thread's pushes): `perSecond` refill, `burst` at most. The buckets are
 * bounded: past `maxKeys` the least recently used one goes (it comes back full, which a flood of
 * new keys cannot use against one thread: each key has its own credential).
 */
export class RateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly maxKeys: number,
    private readonly now: () => number,
  ) {}

  /** 0 when `key` may go now (one token taken); otherwise how many ms until it may. */
  take(key: string): number {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    this.buckets.delete(key); // re-inserted last: the map's order is the use order
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.tokens) / this.perSecond) * 1000);
  }
}
