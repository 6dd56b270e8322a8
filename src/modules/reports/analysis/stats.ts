/** Descriptive statistics of a list of amounts, as the reference's periods report them. */

/** Rounds to cents, so sums of money do not carry binary noise into reports. */
export function cents(value: number): number {
  return Math.round(value * 100) / 100;
}

export function sum(values: readonly number[]): number {
  return cents(values.reduce((a, b) => a + b, 0));
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

export function median(values: readonly number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The population standard deviation (every value of the period is known, none is a sample). */
export function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return Math.sqrt(values.reduce((a, v) => a + (v - m) ** 2, 0) / values.length);
}

export interface AmountStats {
  count: number;
  sum?: number;
  mean?: number;
  median?: number;
  min?: number;
  max?: number;
  standardDeviation?: number;
}

/** The statistics of a period: only the count when it has no values (the reference leaves the rest out). */
export function statsOf(values: readonly number[]): AmountStats {
  if (!values.length) return { count: 0 };
  return {
    count: values.length,
    sum: sum(values),
    mean: cents(mean(values)),
    median: cents(median(values)),
    min: Math.min(...values),
    max: Math.max(...values),
    standardDeviation: cents(standardDeviation(values)),
  };
}
