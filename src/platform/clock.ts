/** The source of "now" for everything time-dependent, so tests and sandbox controls can move time. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; used by tests. */
export class ManualClock implements Clock {
  constructor(private current: number = Date.UTC(2026, 0, 15, 12, 0, 0)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

/** A clock offset from another one, e.g. the system clock shifted by a configured amount. */
export function offsetClock(base: Clock, offsetMs: number): Clock {
  return { now: () => base.now() + offsetMs };
}

/** Whole epoch seconds, the unit of every record timestamp in the interface. */
export function epochSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}
