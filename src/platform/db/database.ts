import { randomUUID } from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type Transaction,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import { ensurePrivateDir, ensurePrivateFile } from '../data-dir.js';
import { Semaphore } from '../semaphore.js';
import { keepListening, type KeptListen, type Listen, listenOn } from './listen.js';
import { namingPool } from './named-statements.js';
import type { DB } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

/** An open database: the Kysely handle plus which dialect it speaks. */
export interface Database {
  readonly kysely: Kysely<DB>;
  /**
   * The same database for long work cut into short transactions (a statement file stored a slice at a time): on
   * SQLite, whose one connection everything takes turns on, its statements and transactions wait until nobody
   * else waits for the connection, so requests go between the slices; on PostgreSQL the pool already lets them.
   */
  readonly yielding: Kysely<DB>;
  readonly dialect: DialectName;
  close(): Promise<void>;
  /**
   * PostgreSQL only: calls `onNotify` with the payload of every NOTIFY on `channel`, on a connection of its own
   * (outside the pool), until the returned function is called. `onError` hears when that connection is lost;
   * `keepListening` (listen.ts) listens again after a pause.
   */
  listen?: Listen;
  /**
   * A value that changes whenever a row of `partners`, `partner_tokens` or `customers` may have changed, by this
   * process or any other (migration 0024): on SQLite the mark its triggers keep, read on this connection (one
   * primary-key read, no round trip); on PostgreSQL a count of the NOTIFYs its triggers send and of this process's
   * own commits that may have written those tables (no round trip either). Undefined while no such signal is
   * available (before migrations; on PostgreSQL while the LISTEN connection is not up): then nothing is kept.
   */
  changeStamp(): string | undefined;
  /**
   * Resolves once every change committed before the call (by any process) is reflected in `changeStamp`: at once on
   * SQLite; on PostgreSQL when a NOTIFY sent now comes back on the LISTEN connection (notifications arrive in commit
   * order), or at once while that connection is down (nothing is kept then).
   */
  changesSettled(): Promise<void>;
  /**
   * SQLite file databases only: the file of the request log (see `requestLogFileOf`), attached to every connection
   * as the schema `log`, where the table `request_log` lives; its writer keeps a connection of its own to it.
   */
  readonly requestLogFile?: string;
}

/** Anything queries can run on: the database itself or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

/** Runs `fn` in the executor's transaction, or in a new one. */
export function inTransaction<T>(db: Executor, fn: (tx: Executor) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

export interface OpenOptions {
  /** PostgreSQL connection string. When set, PostgreSQL is used. */
  databaseUrl?: string | undefined;
  /** SQLite file; ':memory:' for a throwaway database. Used when databaseUrl is absent. */
  sqliteFile?: string;
  /** PostgreSQL schema to use as search_path (tests isolate themselves this way). */
  pgSchema?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /**
   * PostgreSQL only: the longest a statement may run, and a transaction sit idle, before the server ends it (ms;
   * 0 or absent: no limit). One request cannot then hold a pooled connection, or the locks of its transaction, for
   * long. Migrations run without it.
   */
  statementTimeoutMs?: number;
}

// Parse int8 and numeric as JS numbers: our ids and epoch seconds fit in 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (v: string) => Number(v);
    if (oid === 1700) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/** Opens the configured database. The caller runs migrations (see migrate.ts). */
export function openDatabase(options: OpenOptions): Database {
  if (options.databaseUrl) {
    const client: pg.ClientConfig = {
      connectionString: options.databaseUrl,
      types: pgTypes as pg.CustomTypesConfig,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    };
    const limits = options.statementTimeoutMs
      ? { statement_timeout: options.statementTimeoutMs, idle_in_transaction_session_timeout: options.statementTimeoutMs }
      : {};
    const pool = new pg.Pool({ ...client, ...limits, max: options.poolSize ?? 10 });
    // A client losing its connection (server restart) must not crash the process: idle ones report through the
    // pool, checked-out ones (between the statements of a transaction, say) on themselves. The query in flight
    // fails on its own (mapped to 503), and the pool drops the broken client when it is released.
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const changes = new ChangeCount();
    const dialect = new PostgresDialect({ pool: namingPool(pool) });
    const kysely = new Kysely<DB>({
      dialect: {
        createAdapter: () => dialect.createAdapter(),
        createDriver: () => new AnnouncingDriver(dialect.createDriver(), () => changes.moved()),
        createIntrospector: (db) => dialect.createIntrospector(db),
        createQueryCompiler: () => dialect.createQueryCompiler(),
      },
    });
    const listen: Listen = (channel, onNotify, onError) => listenOn(client, channel, onNotify, onError);
    const watch = watchChanges(kysely, listen, changes);
    return {
      kysely,
      yielding: kysely,
      dialect: 'postgres',
      close: async () => {
        await watch.stop();
        await kysely.destroy();
      },
      listen,
      changeStamp: () => watch.stamp(),
      changesSettled: () => watch.settled(),
    };
  }
  const file = options.sqliteFile ?? ':memory:';
  // The files are made 0600 (their -wal and -shm follow) in a 0700 directory before SQLite opens them: it would
  // make them 0644, readable by every user of the machine.
  const requestLogFile = file === ':memory:' ? undefined : requestLogFileOf(file);
  if (file !== ':memory:') {
    ensurePrivateDir(path.dirname(file));
    ensurePrivateFile(file);
    ensurePrivateFile(requestLogFile!);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a committed outbox row survives power loss, not just a process crash.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 10000');
  sqlite.pragma('foreign_keys = ON');
  // The API request log lives in a database file of its own, attached here, so that its writer (a thread with its
  // own connection, see domain/requestlog) never contends for the main database's write lock or grows its WAL,
  // and unqualified `request_log` in queries finds it there (migration 0014 moved it out of the main file).
  if (requestLogFile) {
    sqlite.prepare(`attach database ? as ${REQUEST_LOG_SCHEMA}`).run(requestLogFile);
    sqlite.pragma(`${REQUEST_LOG_SCHEMA}.journal_mode = WAL`);
    sqlite.pragma(`${REQUEST_LOG_SCHEMA}.synchronous = NORMAL`);
  }
  const dialect = new SharedConnectionDialect({ database: withStatementCache(sqlite) }, sqlite);
  const kysely = new Kysely<DB>({ dialect });
  // Made after `kysely`, whose construction made the shared driver.
  const yielding = new Kysely<DB>({ dialect: dialect.yielding() });
  // Prepared on first use: the table exists once migrations have run.
  let mark: SQLite.Statement | undefined;
  return {
    kysely,
    yielding,
    dialect: 'sqlite',
    close: () => kysely.destroy(),
    changesSettled: async () => {},
    changeStamp: () => {
      try {
        mark ??= sqlite.prepare('select mark from change_marks where id = 1').pluck();
        // A failed group commit rolls the mark back; what was read meanwhile must not match a later mark.
        return `m${dialect.failedGroups}.${mark.get() as number}`;
      } catch {
        return undefined;
      }
    },
    ...(requestLogFile ? { requestLogFile } : {}),
  };
}

/** The NOTIFY channel of migration 0024's triggers; the payload is the changed table's schema. */
const CHANGE_CHANNEL = 'ledgerlink_change';

/** PostgreSQL's change stamp: moves on every announced change; `listening` is the LISTEN connection's generation. */
class ChangeCount {
  count = 0;
  listening: number | undefined;
  private generation = 0;

  moved(): void {
    this.count++;
  }

  /** A new LISTEN connection: stamps of the previous one must never come back, whatever was missed in between. */
  listened(): void {
    this.listening = ++this.generation;
  }
}

/**
 * Keeps a LISTEN connection on the change channel (keepListening), started on the first call of `stamp` (so a process
 * that never reads through a memo never holds one). While it is not up, `stamp` is undefined; it reconnects after a
 * second.
 */
function watchChanges(
  kysely: Kysely<DB>,
  listen: Listen,
  changes: ChangeCount,
): { stamp(): string | undefined; settled(): Promise<void>; stop(): Promise<void> } {
  let kept: KeptListen | undefined;
  let stopped = false;
  let schema: string | undefined;
  const barriers = new Map<string, () => void>();
  const settleAll = () => {
    for (const resolve of barriers.values()) resolve();
    barriers.clear();
  };
  const start = () =>
    keepListening(
      kysely,
      listen,
      CHANGE_CHANNEL,
      {
        notified: (payload, current) => {
          if (payload === current) return changes.moved();
          const barrier = barriers.get(payload);
          if (barrier) {
            barriers.delete(payload);
            barrier();
          }
        },
        up: (current) => {
          schema = current;
          changes.listened();
        },
        down: () => {
          changes.listening = undefined;
          settleAll();
        },
      },
      1000,
    );
  return {
    stamp: () => {
      if (!kept && !stopped) kept = start();
      return changes.listening === undefined ? undefined : `${changes.listening}:${changes.count}`;
    },
    settled: async () => {
      if (changes.listening === undefined) return;
      const payload = `${schema} settled ${randomUUID()}`;
      const arrived = new Promise<void>((resolve) => barriers.set(payload, resolve));
      await sql`select pg_notify(${CHANGE_CHANNEL}, ${payload})`.execute(kysely);
      await arrived;
    },
    stop: async () => {
      stopped = true;
      changes.listening = undefined;
      settleAll();
      await kept?.stop();
    },
  };
}

/**
 * Statements that may change a row of migration 0024's tables: those tables, and the ones whose triggers move
 * `customers.data_version` (migration 0013). Over-counting only costs the memo a reload.
 */
const MAY_CHANGE_WATCHED = /^\s*(?!select\b)[\s\S]*\b(?:partners|partner_tokens|customers|institution_logins|accounts|positions|transactions)\b/i;

/**
 * Kysely's PostgreSQL driver, telling `changed` when a statement that may have written a watched table has
 * committed: at once for a statement outside a transaction, at the commit for one inside. The NOTIFY of the same
 * change reaches this process too, but later, on another connection; this makes the change take effect at once for
 * the next request of this process, as it does on SQLite.
 */
class AnnouncingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly changed: () => void,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new AnnouncingConnection(await this.inner.acquireConnection(), this.changed);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = connection as AnnouncingConnection;
    c.inTransaction = true;
    return this.inner.beginTransaction(c.inner, settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as AnnouncingConnection;
    try {
      await this.inner.commitTransaction(c.inner);
    } finally {
      c.endTransaction(true);
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as AnnouncingConnection;
    try {
      await this.inner.rollbackTransaction(c.inner);
    } finally {
      c.endTransaction(false);
    }
  }

  savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    return this.inner.savepoint!((connection as AnnouncingConnection).inner, name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    return this.inner.rollbackToSavepoint!((connection as AnnouncingConnection).inner, name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    return this.inner.releaseSavepoint!((connection as AnnouncingConnection).inner, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as AnnouncingConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

class AnnouncingConnection implements DatabaseConnection {
  inTransaction = false;
  private wrote = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly changed: () => void,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const mayChange = MAY_CHANGE_WATCHED.test(query.sql);
    try {
      return await this.inner.executeQuery<R>(query);
    } finally {
      if (mayChange) {
        if (this.inTransaction) this.wrote = true;
        else this.changed();
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }

  endTransaction(committed: boolean): void {
    // A commit that failed may still have committed (the connection broke after the server did): count it too.
    if (this.wrote && committed) this.changed();
    this.inTransaction = false;
    this.wrote = false;
  }
}

/** The shared connection's driver for long work (Database.yielding): it takes the connection after everyone else waiting. */
class YieldingDriver implements Driver {
  constructor(private readonly shared: SharedConnectionDriver) {}
  async init(): Promise<void> {}
  acquireConnection(): Promise<DatabaseConnection> {
    return this.shared.acquireConnection(true);
  }
  beginTransaction(): Promise<void> {
    return this.shared.beginTransaction();
  }
  commitTransaction(): Promise<void> {
    return this.shared.commitTransaction();
  }
  rollbackTransaction(): Promise<void> {
    return this.shared.rollbackTransaction();
  }
  releaseConnection(): Promise<void> {
    return this.shared.releaseConnection();
  }
  // The shared driver is the database's own; closing it is the database's close.
  async destroy(): Promise<void> {}
}

/** Kysely's SQLite dialect on the one connection of `SharedConnectionDriver`. */
class SharedConnectionDialect extends SqliteDialect {
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly sqlite: SQLite.Database,
  ) {
    super(config);
  }

  private driver: SharedConnectionDriver | undefined;

  override createDriver(): Driver {
    this.driver = new SharedConnectionDriver(super.createDriver(), this.sqlite);
    return this.driver;
  }

  /** A dialect for a second Kysely on the same connection whose turns yield (call after the first Kysely made the driver). */
  yielding(): SqliteDialect {
    const shared = this.driver!;
    const dialect = this;
    return new (class extends SqliteDialect {
      override createDriver(): Driver {
        return new YieldingDriver(shared);
      }
      override createAdapter() {
        return dialect.createAdapter();
      }
    })({ database: this.sqlite });
  }

  /** How many group commits failed (their writes rolled back). */
  get failedGroups(): number {
    return this.driver?.failures ?? 0;
  }
}

/** The most holders whose writes one commit carries: bounds how long the first of them waits for it. */
const GROUP_COMMIT_LIMIT = 32;

/** What a statement does to the group commit: reads run in it, writes join it, anything else (DDL, PRAGMA) ends it first. */
function statementKind(sqlText: string): 'read' | 'write' | 'other' {
  const verb = /^\s*([a-z]+)/i.exec(sqlText)?.[1]?.toLowerCase();
  if (verb === 'select') return 'read';
  // `with` may front a write; treating it as one only makes its caller wait for the commit.
  if (verb === 'insert' || verb === 'update' || verb === 'delete' || verb === 'replace' || verb === 'with') return 'write';
  return 'other';
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(e: unknown): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  // Awaited when its holder lets go of the connection; a failure before that is not unhandled.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * The driver of a process's one SQLite connection. Every query and transaction takes its turn on it:
 *
 * - In arrival order: those waiting are queued (a semaphore of one slot) and a release wakes only the first.
 *   Kysely's own SQLite driver has every waiter await one promise: each release woke all of them to queue again,
 *   and a query arriving at that moment could go first (docs/benchmarks.md, "The SQLite connection in arrival order").
 *
 * - With group commit: at `synchronous = FULL` every commit waits for an fsync, on the process's one thread, and
 *   that wait bounded every write (docs/benchmarks.md, "Group commit on SQLite"). So writes join one open
 *   transaction (the group): a holder's own transaction becomes a savepoint in it, a single write statement runs in
 *   it. At the end of the event loop's turn, when the requests read in it have run up to their first wait for
 *   something other than the database (or once the group carries GROUP_COMMIT_LIMIT holders' writes), the group
 *   commits, with one fsync for all of them. A holder that wrote gets its result only once the group holding its
 *   writes has committed, so nothing is acknowledged before it is durable; when that commit fails (disk full, I/O
 *   error), every holder in the group gets the error. Meanwhile the other holders of
 *   this process read what the group holds (other processes see it once committed); a failed group also changes
 *   the change stamp, so nothing read from it stays in memory. DDL and PRAGMAs (migrations, the request log's
 *   durability switch) first commit the group and then run as before, on their own.
 *
 * A transaction that only read, or whose writes rolled back, does not wait for the group, nor share its failure.
 * Kysely's `startTransaction()` (a transaction committed by hand) is not supported: its commit would resolve before
 * the group's; the code uses `transaction().execute()` only (a test checks).
 */
class SharedConnectionDriver implements Driver {
  private readonly turn = new Semaphore(1);
  /** The open transaction: the holders whose writes it carries. */
  private group: { members: Deferred[] } | undefined;
  // The current holder of the connection:
  /** Its place in the open group (once it wrote there), */
  private member: Deferred | undefined;
  /** whether it wrote there outside a transaction of its own, */
  private wroteOutside = false;
  /** the commits it waits for before its answer, */
  private holding: Promise<void>[] = [];
  /** whether its transaction is open, */
  private inTransaction = false;
  /** and why that transaction can only roll back (SQLite rolled the whole group back under it). */
  private broken: unknown;
  private commitScheduled = false;
  /** Groups that failed to commit: part of the change stamp. */
  failures = 0;
  private readonly connection: DatabaseConnection;
  private inner: DatabaseConnection | undefined;

  constructor(
    private readonly driver: Driver,
    private readonly sqlite: SQLite.Database,
  ) {
    this.connection = {
      executeQuery: (query) => this.execute(query),
      streamQuery: (query, chunkSize) => this.inner!.streamQuery(query, chunkSize),
    };
  }

  init(): Promise<void> {
    return this.driver.init();
  }

  /** `yielding`: the caller (long work in slices) takes the connection only when nobody else waits for it. */
  async acquireConnection(yielding = false): Promise<DatabaseConnection> {
    await this.turn.acquire(yielding);
    this.inner = await this.driver.acquireConnection();
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    const holding = this.holding;
    this.holding = [];
    this.member = undefined;
    this.wroteOutside = false;
    this.inTransaction = false;
    this.broken = undefined;
    try {
      // A group that carries nothing (only reads, or writes rolled back) ends now: its snapshot must not age.
      if (this.group && (this.group.members.length === 0 || this.group.members.length >= GROUP_COMMIT_LIMIT)) await this.commitGroup();
      else if (this.group) this.commitAtEndOfTurn();
      await this.driver.releaseConnection(this.inner!);
    } finally {
      this.turn.release();
    }
    for (const durable of holding) await durable;
  }

  /**
   * Commits the open group once the current turn of the event loop is over (its check phase): the requests read in
   * this turn have then run up to their first wait for something other than the database, their writes in the group.
   */
  private commitAtEndOfTurn(): void {
    if (this.commitScheduled) return;
    this.commitScheduled = true;
    setImmediate(() => {
      this.commitScheduled = false;
      void this.commitInTurn();
    });
  }

  /** Takes its turn on the connection like any query, and commits the group if one is still open. */
  private async commitInTurn(): Promise<void> {
    await this.turn.acquire();
    try {
      this.inner = await this.driver.acquireConnection();
      if (this.group) await this.commitGroup();
      await this.driver.releaseConnection(this.inner);
    } finally {
      this.turn.release();
    }
  }

  private async execute<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.broken !== undefined) throw this.broken;
    const kind = statementKind(query.sql);
    if (kind === 'write') await this.beforeWrite();
    else if (kind === 'other' && this.group && !this.inTransaction) {
      // DDL and PRAGMAs run on their own, after what the group carries; if that fails and carried this holder's
      // writes, the holder hears it now, before it goes on.
      const mine = this.member;
      const failed = await this.commitGroup();
      if (failed !== undefined && mine) throw failed;
    }
    try {
      return await this.inner!.executeQuery<R>(query);
    } catch (e) {
      // Some errors (a full disk, I/O, a trigger's RAISE(ROLLBACK)) make SQLite roll back the whole transaction.
      if (this.group && !this.sqlite.inTransaction) this.failGroup(e);
      throw e;
    }
  }

  /** Before a write: a group open (holding the write lock, or new), and the current holder counted in it. */
  private async beforeWrite(): Promise<void> {
    // A group that carries no writes (it only read) has a snapshot that may be older than another process's commit;
    // a write from it would fail at once instead of waiting for the lock. Outside a transaction, start afresh.
    if (this.group && !this.inTransaction && this.group.members.length === 0) await this.commitGroup();
    if (!this.group) await this.openGroup();
    if (!this.member) {
      this.member = deferred();
      this.group!.members.push(this.member);
      this.holding.push(this.member.promise);
    }
    if (!this.inTransaction) this.wroteOutside = true;
  }

  private async openGroup(): Promise<void> {
    await this.inner!.executeQuery(CompiledQuery.raw('begin'));
    this.group = { members: [] };
  }

  /** Commits the open group; returns the error when the commit failed (every member has it). */
  private async commitGroup(): Promise<unknown> {
    try {
      await this.inner!.executeQuery(CompiledQuery.raw('commit'));
    } catch (e) {
      await this.abandonGroup(e);
      return e;
    }
    for (const member of this.endGroup()) member.resolve();
    return undefined;
  }

  /** Undoes whatever the group still holds, and fails it with `e`. */
  private async abandonGroup(e: unknown): Promise<void> {
    if (this.sqlite.inTransaction) await this.inner!.executeQuery(CompiledQuery.raw('rollback')).catch(() => undefined);
    this.failGroup(e);
  }

  /** SQLite rolled the group back: every member fails, and an open transaction of the holder can only roll back. */
  private failGroup(e: unknown): void {
    for (const member of this.endGroup()) member.reject(e);
    this.failures++;
    if (this.inTransaction) this.broken = e;
  }

  /** Closes the books on the open group (its transaction is over); returns its members. */
  private endGroup(): Deferred[] {
    const { members } = this.group!;
    this.group = undefined;
    this.member = undefined;
    this.wroteOutside = false;
    return members;
  }

  async beginTransaction(): Promise<void> {
    if (!this.group) await this.openGroup();
    await this.inner!.executeQuery(CompiledQuery.raw('savepoint ledgerlink_transaction'));
    this.inTransaction = true;
  }

  async commitTransaction(): Promise<void> {
    if (this.broken !== undefined) throw this.broken;
    this.inTransaction = false;
    await this.inner!.executeQuery(CompiledQuery.raw('release ledgerlink_transaction'));
  }

  async rollbackTransaction(): Promise<void> {
    this.inTransaction = false;
    if (this.broken !== undefined) {
      // SQLite rolled everything back already.
      this.broken = undefined;
      return;
    }
    if (!this.group) return;
    try {
      await this.inner!.executeQuery(CompiledQuery.raw('rollback to ledgerlink_transaction'));
      await this.inner!.executeQuery(CompiledQuery.raw('release ledgerlink_transaction'));
    } catch (e) {
      // The transaction's writes cannot be undone alone: undo the whole group rather than commit them.
      await this.abandonGroup(e);
      throw e;
    }
    // Its writes are undone: unless it also wrote outside the transaction, its answer need not wait for the group.
    const mine = this.member;
    if (mine && !this.wroteOutside) {
      this.group.members.splice(this.group.members.indexOf(mine), 1);
      this.holding.splice(this.holding.indexOf(mine.promise), 1);
      this.member = undefined;
      mine.resolve();
    }
  }

  savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    return this.driver.savepoint!(connection, name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    return this.driver.rollbackToSavepoint!(connection, name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    return this.driver.releaseSavepoint!(connection, name, compile);
  }

  async destroy(): Promise<void> {
    // Commits an open group: its holders are waiting for it.
    await this.commitInTurn();
    return this.driver.destroy();
  }
}

/** The statement interface Kysely's SQLite driver uses. */
interface DriverStatement {
  readonly reader: boolean;
  readonly busy: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): SQLite.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

/**
 * A prepared statement whose rows come from better-sqlite3 as arrays (raw mode) and become objects through a
 * function compiled once per statement for its result columns. Building each row from a fixed object literal is
 * several times faster than better-sqlite3 setting the properties one by one (a 30-column transaction row: 8 µs
 * → 3 µs), and the objects are the same: one property per column name, a later column of the same name winning.
 */
function fastRows(stmt: SQLite.Statement): DriverStatement {
  if (!stmt.reader) return stmt as unknown as DriverStatement;
  const names = stmt.columns().map((c) => c.name);
  if (names.includes('__proto__')) return stmt as unknown as DriverStatement;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- column names are quoted with JSON.stringify
  const toObject = new Function('r', `return {${names.map((n, i) => `${JSON.stringify(n)}: r[${i}]`).join(', ')}};`) as (r: unknown[]) => unknown;
  stmt.raw(true);
  return {
    reader: true,
    get busy() {
      return stmt.busy;
    },
    all: (parameters) => (stmt.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => stmt.run(parameters),
    *iterate(parameters) {
      for (const r of stmt.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(r);
    },
  };
}

/**
 * Kysely's SQLite driver prepares every statement again on each query; the same few hundred SQL texts repeat,
 * so keep their prepared statements (least recently used beyond `max` are dropped). A statement still busy
 * with an iteration is never handed out twice.
 */
function withStatementCache(db: SQLite.Database, max = 500): { prepare(sql: string): DriverStatement; close(): void } {
  const cache = new Map<string, DriverStatement>();
  return {
    close: () => db.close(),
    prepare(sql) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const prepared = db.prepare(sql);
      const stmt = fastRows(prepared);
      cache.set(sql, stmt);
      if (cache.size > max) cache.delete(cache.keys().next().value!);
      return stmt;
    },
  };
}

/** The schema name under which a SQLite database's request log file is attached. */
export const REQUEST_LOG_SCHEMA = 'log';

/** The request log's file beside a SQLite database file: `ledgerlink.sqlite` → `ledgerlink.request-log.sqlite`. */
export function requestLogFileOf(sqliteFile: string): string {
  return `${sqliteFile.replace(/\.sqlite$/, '')}.request-log.sqlite`;
}

/** The SQLite file inside a data directory. */
export function sqliteFileIn(dataDir: string): string {
  return path.join(dataDir, 'ledgerlink.sqlite');
}
