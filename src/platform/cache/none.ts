import type { VersionedCache } from './cache.js';

/** Keeps nothing; every lookup misses without being counted (there is nothing to measure). */
export class NoCache<V> implements VersionedCache<V> {
  readonly keeps = false;
  readonly hits = 0;
  readonly misses = 0;
  readonly size = 0;
  readonly storedBytes = 0;

  lookup(_key: string, _version: string): V | undefined {
    return undefined;
  }

  store(_key: string, _version: string, _value: V): void {}
}
