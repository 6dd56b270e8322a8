import type { ClaimedDelivery } from './claim.js';

/** Seconds to wait after the 1st, 2nd, ... failed attempt; every later retry waits the last value. */
export const RETRY_DELAYS_SECONDS: readonly number[] = [10, 30, 60, 120, 300, 600, 1200, 1800];

/** Retries stop this long after the first attempt; then the delivery is cancelled. */
export const RETRY_WINDOW_SECONDS = 6 * 60 * 60;

/** Each delay is shortened by up to this fraction at random, so retries of many deliveries spread out. */
export const RETRY_JITTER = 0.2;

/**
 * The wait after failed attempt number `attempt` (1-based): the scheduled delay, minus up to 20% jitter,
 * so the first retry comes within 10 seconds (8 to 10).
 */
export function retryDelaySeconds(attempt: number, random: () => number = Math.random): number {
  const base = RETRY_DELAYS_SECONDS[Math.min(Math.max(attempt, 1), RETRY_DELAYS_SECONDS.length) - 1]!;
  return Math.max(1, Math.round(base * (1 - RETRY_JITTER * random())));
}

/**
 * When to try again after failed attempt number `attempts`, or null to cancel: the retry window (six hours from
 * the first attempt) is over. The last retry is moved up to the end of the window rather than dropped.
 */
export function nextAttemptAt(input: { firstAttemptAt: number; attempts: number; now: number }, random: () => number = Math.random): number | null {
  const deadline = input.firstAttemptAt + RETRY_WINDOW_SECONDS;
  if (input.now >= deadline) return null;
  return Math.min(input.now + retryDelaySeconds(input.attempts, random), deadline);
}

/**
 * After a failed attempt on `delivery`: when to try again, or null to give up (a permanent failure, or the retry
 * window is over). The rule recordAttempts applies.
 */
export function retryAfterFailure(
  delivery: Pick<ClaimedDelivery, 'first_attempt_at' | 'attempts'>,
  input: { now: number; permanent?: boolean | undefined },
  random?: () => number,
): number | null {
  return input.permanent ? null : nextAttemptAt({ firstAttemptAt: delivery.first_attempt_at, attempts: delivery.attempts, now: input.now }, random);
}

/** What recording a failed attempt did: retried later, cancelled (given up), or nothing (the claim was lost). */
export type FailureResult = 'retry' | 'cancelled' | 'claim-lost';
