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

/**
 * Writes `bytes` as pieces of `size` bytes, one per turn of the long work's queue: one large value in one statement
 * holds the event loop for as long as the driver takes to copy it (docs/benchmarks.md, "Uploads that held the event
 * loop").
 */
export async function writeInPieces(bytes: Uint8Array, size: number, write: (seq: number, piece: Uint8Array) => Promise<void>): Promise<void> {
  for (let seq = 0, start = 0; start < bytes.byteLength; seq++, start += size) {
    if (seq > 0) await longWork.turn();
    await write(seq, bytes.subarray(start, start + size));
  }
}

/** Reads `count` pieces written by writeInPieces, one per turn, and joins them. */
export async function readInPieces(count: number, read: (seq: number) => Promise<Uint8Array | undefined>): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  for (let seq = 0; seq < count; seq++) {
    if (seq > 0) await longWork.turn();
    const piece = await read(seq);
    if (!piece) throw new Error(`piece ${seq} of ${count} is missing`);
    pieces.push(piece);
  }
  return Buffer.concat(pieces);
}
