/**
 * A sliding-window rate limiter in memory: the count of the previous window, weighted by how much of it still
 * overlaps, plus the current window. Limits are per process (documented); the key map is bounded.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; current: number; previous: number }>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Records a hit; returns 0 when allowed, otherwise the seconds until a retry can succeed. */
  hit(key: string, now: number): number {
    const windowStart = now - (now % this.windowMs);
    let w = this.windows.get(key);
    if (!w || w.start < windowStart - this.windowMs) {
      w = { start: windowStart, current: 0, previous: 0 };
    } else if (w.start < windowStart) {
      w = { start: windowStart, current: 0, previous: w.current };
    }
    this.windows.delete(key);
    this.windows.set(key, w); // re-insert: the map's order is least recently used first
    if (this.windows.size > this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
    const overlap = 1 - (now - windowStart) / this.windowMs;
    const used = w.previous * overlap + w.current;
    if (used >= this.max) return Math.max(1, Math.ceil(this.waitMs(w, now - windowStart) / 1000));
    w.current++;
    return 0;
  }

  /** How long until the weighted count drops below max, given `elapsed` ms into the current window. */
  private waitMs(w: { current: number; previous: number }, elapsed: number): number {
    const W = this.windowMs;
    if (w.current < this.max && w.previous > 0) {
      // previous·(1 − x) + current < max  ⇔  x > 1 − (max − current) / previous
      const x = 1 - (this.max - w.current) / w.previous;
      return Math.max(1, x * W - elapsed + 1);
    }
    // Wait for the next window, where this window's count becomes the decaying previous one.
    const x = Math.max(0, 1 - this.max / Math.max(w.current, 1));
    return W - elapsed + x * W + 1;
  }
}
