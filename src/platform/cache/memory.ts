import type { VersionedCache } from './cache.js';

interface Entry<V> {
  version: string;
  value: V;
  /** What the entry counts against maxBytes: its value's size and its key. */
  cost: number;
}

/**
 * Values of this process, least recently used dropped first beyond `maxBytes` (a value's size as `sizeOf` says,
 * plus two bytes per character of its key). No entry may take more than a sixteenth of the whole, so one large
 * value cannot flush everything else.
 */
export class MemoryCache<V> implements VersionedCache<V> {
  readonly keeps = true;
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get maxEntryBytes(): number {
    return Math.floor(this.maxBytes / 16);
  }

  get size(): number {
    return this.entries.size;
  }

  get storedBytes(): number {
    return this.bytes;
  }

  lookup(key: string, version: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.version !== version) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Most recently used last: a Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  store(key: string, version: string, value: V): void {
    const cost = this.sizeOf(value) + key.length * 2;
    if (cost > this.maxEntryBytes) return;
    this.remove(key);
    this.entries.set(key, { version, value, cost });
    this.bytes += cost;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.bytes -= entry.cost;
  }
}
