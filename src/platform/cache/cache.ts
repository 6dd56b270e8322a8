/**
 * A cache of values that are valid for one version of the data they were built from. Callers read the version
 * before they build a value, so a stored value never claims data older than it holds; a lookup under any other
 * version misses. Two implementations: `memory` (least recently used, bounded in bytes) and `none` (keeps
 * nothing: the plain twin, for comparing and for operators who want none).
 */
export interface VersionedCache<V> {
  /** False for the cache that keeps nothing: callers may then skip the work of preparing a value to store. */
  readonly keeps: boolean;
  lookup(key: string, version: string): V | undefined;
  store(key: string, version: string, value: V): void;
  readonly hits: number;
  readonly misses: number;
  readonly size: number;
  readonly storedBytes: number;
}
