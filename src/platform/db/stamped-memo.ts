import type { Database } from './database.js';

/**
 * Rows of `partners`, `partner_tokens` and `customers` (the tables migration 0024 watches), kept in this process
 * while none of those tables has changed since they were read (the database's `changeStamp`); a change by any
 * process forgets them all. Where the database gives no stamp (PostgreSQL while its LISTEN connection is down),
 * every read goes to the database. Only values read from those tables may be kept here: a change to any other table
 * does not move the stamp.
 *
 * Why it is safe: the stamp is taken before the value is read, and a value is kept only under the stamp taken
 * before it; so a kept value is never older than its stamp, and any later change moves the stamp on.
 */
export class StampedMemo<V extends object> {
  private stamp: string | undefined;
  private readonly values = new Map<string, Readonly<V>>();

  constructor(
    private readonly database: Database,
    private readonly maxEntries = 10_000,
  ) {}

  /**
   * The value for `key`, from memory while the database is unchanged, else from `load` (undefined is not kept).
   * `stamp` is the change stamp taken when the request arrived (one per request suffices: the request then sees
   * the database as it was then or later); by default it is taken now. A value kept in memory is returned as it is,
   * not in a promise, so a request that finds everything in memory never waits for a later turn.
   */
  read(
    key: string,
    load: () => Promise<V | undefined>,
    stamp: string | undefined = this.database.changeStamp(),
  ): Readonly<V> | undefined | Promise<Readonly<V> | undefined> {
    if (stamp === undefined) return load();
    if (stamp !== this.stamp) {
      this.values.clear();
      this.stamp = stamp;
    } else {
      const kept = this.values.get(key);
      if (kept !== undefined) return kept;
    }
    return this.loadAndKeep(key, load, stamp);
  }

  private async loadAndKeep(key: string, load: () => Promise<V | undefined>, stamp: string): Promise<Readonly<V> | undefined> {
    const value = await load();
    if (value === undefined) return undefined;
    const frozen = Object.freeze(value);
    // A request that saw a newer stamp in the meantime has forgotten everything; keep this only if none did.
    if (this.stamp === stamp) {
      if (this.values.size >= this.maxEntries) this.values.clear();
      this.values.set(key, frozen);
    }
    return frozen;
  }
}

const memos = new WeakMap<Database, Map<string, StampedMemo<object>>>();

/** The memo named `name` of this database (one per database and purpose, shared by every caller in the process). */
export function stampedMemo<V extends object>(database: Database, name: string): StampedMemo<V> {
  let named = memos.get(database);
  if (!named) memos.set(database, (named = new Map()));
  let memo = named.get(name);
  if (!memo) named.set(name, (memo = new StampedMemo<object>(database)));
  return memo as unknown as StampedMemo<V>;
}
