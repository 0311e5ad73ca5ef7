/**
 * A bounded set of recent keys: what a receiver remembers of the pushes it took, to drop the same one
 * delivered again (A2A push delivery is at-least-once). At most `max` keys, each for `ttlMs`; the
 * oldest goes first when it is full. Memory is bounded whatever the agents send.
 */
export class RecentKeys {
  private readonly keys = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  /** True when `key` was taken within its time (a duplicate); otherwise takes it and returns false. */
  seen(key: string): boolean {
    const at = this.keys.get(key);
    const now = this.now();
    if (at !== undefined && now - at <= this.ttlMs) return true;
    this.keys.delete(key);
    this.keys.set(key, now);
    if (this.keys.size > this.max) this.keys.delete(this.keys.keys().next().value!);
    return false;
  }

  /** Forgets `key` (a push taken but not delivered: the same one may come again and be taken then). */
  forget(key: string): void {
    this.keys.delete(key);
  }

  /** How many keys are held. */
  get size(): number {
    return this.keys.size;
  }
}
