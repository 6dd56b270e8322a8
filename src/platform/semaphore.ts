/**
 * A counting semaphore, first come first served: a slot that is released passes straight to the next waiter, so
 * the count never dips in between and nobody arriving meanwhile can overtake those already waiting.
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly slots: number) {}

  /** Resolves once the caller holds a slot; every acquire must be followed by one release. */
  async acquire(): Promise<void> {
    if (this.running >= this.slots) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
  }

  release(): void {
    const next = this.waiting.shift();
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
