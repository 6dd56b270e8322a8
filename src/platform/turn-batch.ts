/**
 * Runs callbacks together at the end of the current turn of the event loop (its check phase, right after the
 * socket reads of that turn), in the order they were added.
 *
 * The server uses it to write the responses finished in one turn back to back instead of one by one as each is
 * ready. On loopback and with busy clients this matters: a write that finds its reader asleep has to wake it
 * (a cross-CPU wake-up on a virtual machine costs several microseconds); a burst of writes wakes it once. A
 * response waits at most for the rest of the turn it was finished in.
 */
export class TurnBatch {
  private queue: Array<() => void> = [];

  /** `onError` hears what a callback threw; the callbacks after it still run. */
  constructor(private readonly onError: (error: unknown) => void) {}

  add(callback: () => void): void {
    this.queue.push(callback);
    if (this.queue.length === 1) setImmediate(this.run);
  }

  private readonly run = (): void => {
    const queue = this.queue;
    this.queue = [];
    for (const callback of queue) {
      try {
        callback();
      } catch (error) {
        this.onError(error);
      }
    }
  };
}
