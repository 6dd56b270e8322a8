/**
 * Long work cut into slices that share the event loop with everything else: `turn()` lets one caller go per turn of
 * the loop, whoever is waiting, so however many slices wait at once (three uploads storing their transactions), the
 * requests that arrive meanwhile wait for at most one of them. The slice runs at the start of its turn (the timers
 * phase), before the socket reads: a request read in that turn then runs, and what it wrote commits at the end of the
 * turn (SQLite's group commit), without waiting for a slice behind it.
 */
export class Turns {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  /** Resolves in a later turn of the event loop (its timers phase), the only one of this queue's callers to go in that turn. */
  turn(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    setTimeout(this.next, 0);
  }

  private readonly next = (): void => {
    this.scheduled = false;
    this.waiting.shift()?.();
    this.schedule();
  };
}

/** The queue of the process's long writes (statement uploads). */
export const longWork = new Turns();
