import type { VersionedCache } from './cache.js';
import { MemoryCache } from './memory.js';
import { NoCache } from './none.js';

export type { VersionedCache } from './cache.js';
export { MemoryCache } from './memory.js';
export { NoCache } from './none.js';

/** The memory cache of `maxBytes`, or, for 0, the cache that keeps nothing. */
export function createCache<V>(maxBytes: number, sizeOf: (value: V) => number): VersionedCache<V> {
  return maxBytes > 0 ? new MemoryCache(maxBytes, sizeOf) : new NoCache<V>();
}
