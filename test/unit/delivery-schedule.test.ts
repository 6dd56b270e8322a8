import { describe, expect, it } from 'vitest';
import { nextAttemptAt, RETRY_DELAYS_SECONDS, RETRY_WINDOW_SECONDS, retryDelaySeconds } from '../../src/outbox/fail.js';

describe('the retry schedule', () => {
  it('retries first within 10 seconds, then after 30 s, 1, 2, 5, 10, 20 and then every 30 minutes', () => {
    const noJitter = () => 0;
    const delays = Array.from({ length: 12 }, (_, i) => retryDelaySeconds(i + 1, noJitter));
    expect(delays).toEqual([10, 30, 60, 120, 300, 600, 1200, 1800, 1800, 1800, 1800, 1800]);
    expect(RETRY_DELAYS_SECONDS.at(-1)).toBe(30 * 60);
  });

  it('only ever shortens a delay by jitter, by at most a fifth', () => {
    for (let attempt = 1; attempt <= 10; attempt++) {
      const base = retryDelaySeconds(attempt, () => 0);
      const shortest = retryDelaySeconds(attempt, () => 0.999999);
      expect(shortest).toBeLessThanOrEqual(base);
      expect(shortest).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
    }
    expect(retryDelaySeconds(1, () => 0.999999)).toBeGreaterThanOrEqual(8);
  });

  it('moves the last retry up to the end of the six-hour window, and cancels after it', () => {
    const first = 1_000_000;
    expect(nextAttemptAt({ firstAttemptAt: first, attempts: 1, now: first }, () => 0)).toBe(first + 10);
    const late = first + RETRY_WINDOW_SECONDS - 60;
    expect(nextAttemptAt({ firstAttemptAt: first, attempts: 15, now: late }, () => 0)).toBe(first + RETRY_WINDOW_SECONDS);
    expect(nextAttemptAt({ firstAttemptAt: first, attempts: 16, now: first + RETRY_WINDOW_SECONDS }, () => 0)).toBeNull();
    expect(nextAttemptAt({ firstAttemptAt: first, attempts: 16, now: first + RETRY_WINDOW_SECONDS + 5 }, () => 0)).toBeNull();
  });

  it('makes 19 attempts over six hours when every one fails and there is no jitter', () => {
    const first = 0;
    const times = [first];
    for (;;) {
      const next = nextAttemptAt({ firstAttemptAt: first, attempts: times.length, now: times.at(-1)! }, () => 0);
      if (next === null) break;
      times.push(next);
    }
    expect(times.slice(0, 8)).toEqual([0, 10, 40, 100, 220, 520, 1120, 2320]);
    expect(times.at(-1)).toBe(RETRY_WINDOW_SECONDS);
    expect(times).toHaveLength(19);
  });
});
