/**
 * At most `limit` holders per key at once, refused beyond (no queue): a tenant's heavy work (uploads, refreshes) may
 * use only its share of a process, and a refused caller hears so at once instead of holding memory while it waits.
 */
export class KeyedLimit {
  private readonly held = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** A slot for `key`, released by calling the returned function (once; later calls do nothing), or undefined when all are taken. */
  tryTake(key: string): (() => void) | undefined {
    const count = this.held.get(key) ?? 0;
    if (count >= this.limit) return undefined;
    this.held.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }

  /** How many slots `key` holds now. */
  inUse(key: string): number {
    return this.held.get(key) ?? 0;
  }
}
