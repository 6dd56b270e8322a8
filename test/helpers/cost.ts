/**
 * Measuring what hostile input costs a reader against a plain input of the same size, in one run (the one timing a
 * test may assert: a ratio, docs/architecture.md "Tests").
 */

/** `unit` repeated to about `size` characters (once at least). */
export function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.max(1, Math.floor(size / unit.length)));
}

function timed<I, T>(run: (input: I) => T, input: I): { ms: number; result: T } {
  const started = performance.now();
  const result = run(input);
  return { ms: performance.now() - started, result };
}

/**
 * The best time of a few runs of `run` on `input`, in ms, and what it gave. With `settledBelow` (ms), a run faster
 * than that ends the rounds: an input that costs clearly less than the limit the caller checks needs no more runs.
 */
export function bestTime<I, T>(run: (input: I) => T, input: I, rounds = 3, settledBelow = 0): { ms: number; result: T } {
  let best = timed(run, input);
  for (let i = 1; i < rounds && best.ms >= settledBelow; i++) {
    const next = timed(run, input);
    if (next.ms < best.ms) best = next;
  }
  return best;
}

/**
 * The best times of a few rounds, in ms, the plain input and the hostile one taking turns so that other work on the
 * machine (other test files run beside this one) weighs on both alike. With `settledBelow`, the rounds stop after the
 * second once hostile/plain is below it: a body that costs no more than the plain one needs no more rounds to show it,
 * while one near the limit the caller checks gets them all (the cost tests give half their limit).
 */
export function bestTimes<I>(
  run: (input: I) => unknown,
  plain: I,
  hostile: I,
  options: { rounds?: number; settledBelow?: number } = {},
): { plain: number; hostile: number } {
  const rounds = options.rounds ?? 5;
  let best = { plain: Number.POSITIVE_INFINITY, hostile: Number.POSITIVE_INFINITY };
  for (let i = 0; i < rounds; i++) {
    best = { plain: Math.min(best.plain, timed(run, plain).ms), hostile: Math.min(best.hostile, timed(run, hostile).ms) };
    if (i >= 1 && options.settledBelow !== undefined && best.hostile / best.plain < options.settledBelow) break;
  }
  return best;
}

type ErrorClass<E extends Error> = new (...args: any[]) => E;

/**
 * `read`, answering a refusal (an error of the class `refusal`) with `refused(error)`, undefined unless given, instead
 * of throwing it: refusing is fine, only the cost matters. Other errors are thrown.
 */
export function orRefused<T, E extends Error>(read: (text: string) => T, refusal: ErrorClass<E>): (text: string) => T | undefined;
export function orRefused<T, E extends Error, R>(read: (text: string) => T, refusal: ErrorClass<E>, refused: (error: E) => R): (text: string) => T | R;
export function orRefused<T, E extends Error, R>(read: (text: string) => T, refusal: ErrorClass<E>, refused?: (error: E) => R) {
  return (text: string): T | R | undefined => {
    try {
      return read(text);
    } catch (error) {
      if (!(error instanceof refusal)) throw error;
      return refused?.(error);
    }
  };
}
