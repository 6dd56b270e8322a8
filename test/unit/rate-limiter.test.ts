import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/http/rate-limiter.js';

describe('sliding-window rate limiter', () => {
  it('allows max hits per window and tells how long to wait', () => {
    const rl = new RateLimiter(3, 60_000);
    const t = 6_000_000;
    expect([rl.hit('a', t), rl.hit('a', t), rl.hit('a', t)]).toEqual([0, 0, 0]);
    const wait = rl.hit('a', t);
    expect(wait).toBeGreaterThan(0);
    expect(rl.hit('b', t)).toBe(0);
    // The promised wait is enough.
    expect(rl.hit('a', t + wait * 1000)).toBe(0);
  });

  it('weights the previous window so a burst at a window edge is not doubled', () => {
    const rl = new RateLimiter(10, 60_000);
    const edge = 6_000_000 + 59_000;
    for (let i = 0; i < 10; i++) expect(rl.hit('a', edge)).toBe(0);
    // A fixed window would allow ten more; the weighted previous window (≈9.7 of 10) leaves room for one.
    expect(rl.hit('a', edge + 2_000)).toBe(0);
    expect(rl.hit('a', edge + 2_000)).toBeGreaterThan(0);
  });

  it('forgets the least recently used keys beyond its bound', () => {
    const rl = new RateLimiter(1, 60_000, 2);
    rl.hit('a', 0);
    rl.hit('b', 0);
    rl.hit('c', 0);
    expect(rl.hit('a', 0)).toBe(0);
  });
});
