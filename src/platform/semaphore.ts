/**
 * A counting semaphore, first come first served: a slot that is released passes straight to the next waiter, so
 * the count never dips in between and nobody arriving meanwhile can overtake those already waiting. Waiters that
 * asked with `yielding` go only when nobody else waits: long work cut into slices lets everything else go first.
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly yielding: Array<() => void> = [];

  constructor(private readonly slots: number) {}

  /** Resolves once the caller holds a slot; every acquire must be followed by one release. */
  async acquire(yielding = false): Promise<void> {
    if (this.running >= this.slots) await new Promise<void>((resolve) => (yielding ? this.yielding : this.waiting).push(resolve));
    else this.running++;
  }

  release(): void {
    const next = this.waiting.shift() ?? this.yielding.shift();
    if (next) next();
    else this.running--;
  }

  /** Runs `task` in a slot, released however the task ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }
}
