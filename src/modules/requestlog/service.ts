import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Database, Executor } from '../../platform/db/database.js';
import type { Clock } from '../../platform/clock.js';
import { stampedMemo } from '../../platform/db/stamped-memo.js';
import { sha256Hex } from '../../platform/secrets.js';
import { whenReady } from '../../platform/when-ready.js';
import {
  COLUMNS,
  insertSizes,
  partnerIdOfAppKeyHash,
  partnerIdOfTokenHash,
  pruneRequestLog,
  type RequestLogEntry,
  selectRequestLog,
  selectRequestLogEntry,
  valuesOf,
  writeChunk,
} from './repository.js';
import type { RequestLogDetailRow, RequestLogRow } from './table.js';

export type { RequestLogEntry } from './repository.js';

const require = createRequire(import.meta.url);
/**
 * The writer thread's code: a plain CommonJS file beside this one, so it runs the same from src (tests) and dist
 * (the build copies it there).
 */
const THREAD_FILE = new URL('./writer-thread.cjs', import.meta.url);

/** How long entries are kept. */
export const RETENTION_MS = 7 * 86_400_000;
const MAX_BUFFER = 5_000;
/** A batch goes to the sink once this many entries wait, without waiting for the timer. */
const BATCH = 1_000;
/**
 * The same by the characters of the entries' headers and bodies (up to about 17,000 each): a batch goes once 1 MB
 * of them wait, and at most 4 MB wait; beyond that a new entry keeps its summary and loses its headers and bodies,
 * so a burst of large bodies neither grows the process nor overruns the writer thread's heap.
 */
const BATCH_DETAIL = 1 << 20;
const MAX_BUFFER_DETAIL = 4 << 20;
/**
 * Characters of headers and bodies one partner's entries keep a second, at most (and up to DETAIL_BURST at once
 * after a quiet spell): beyond, that partner's entries keep their summary only, and everyone else's keep theirs.
 * Writing them is most of what the log costs (a 400-character entry costs the writer thread about as much again as
 * its summary), so a busy partner keeps the cost of a request where it was, while a developer's calls, a few a
 * second, all keep theirs.
 */
const DETAIL_PER_SECOND = 1 << 20;
const DETAIL_BURST = 4 << 20;
/**
 * Partners whose allowance is remembered, at most: the one seen least recently is forgotten first, and starts
 * afresh (full) when seen again. One not seen for DETAIL_BURST / DETAIL_PER_SECOND (4 s) would be full anyway.
 */
const MAX_ALLOWANCES = 1_000;

/** Characters of an entry's headers and bodies. */
export function detailSize(e: Pick<RequestLogEntry, 'request_headers' | 'request_body' | 'response_headers' | 'response_body'>): number {
  return (e.request_headers?.length ?? 0) + (e.request_body?.length ?? 0) + (e.response_headers?.length ?? 0) + (e.response_body?.length ?? 0);
}

/** The detail columns of an entry that keeps none. */
export const NO_DETAIL = {
  request_headers: null,
  request_body: null,
  request_bytes: null,
  response_headers: null,
  response_body: null,
  response_bytes: null,
} as const satisfies Partial<RequestLogEntry>;

/** Where a batch of entries goes: the database directly, or the writer thread of a SQLite file database. */
interface Sink {
  /** Writes the entries (and deletes those created before `pruneBefore`); resolves with how many were written. */
  write(entries: readonly RequestLogEntry[], pruneBefore: number | undefined): Promise<number>;
  close(): Promise<void>;
}

/** Writes through the service's own connection, one INSERT of insertSizes at a time with the event loop free in between. */
class DirectSink implements Sink {
  constructor(private readonly database: Database) {}

  async write(entries: readonly RequestLogEntry[], pruneBefore: number | undefined): Promise<number> {
    let written = 0;
    try {
      for (const size of insertSizes(entries.length)) {
        if (written > 0) await new Promise((resolve) => setImmediate(resolve));
        await writeChunk(this.database, entries.slice(written, written + size));
        written += size;
      }
    } catch (e) {
      throw Object.assign(e instanceof Error ? e : new Error(String(e)), { written });
    }
    if (pruneBefore !== undefined) await pruneRequestLog(this.database.kysely, pruneBefore);
    return written;
  }

  async close(): Promise<void> {}
}

/**
 * Appends to the request log's own SQLite file from a worker thread with a connection of its own, so the
 * service's thread only hands the values over (about 0.1 µs per entry, against 3–5 µs for the INSERT itself).
 * The thread starts on the first batch, is kept only while a batch is on its way (it never holds the process
 * open), and is started again if it dies.
 */
class ThreadSink implements Sink {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (written: number) => void; reject: (e: Error) => void }>();
  private nextId = 1;

  constructor(private readonly file: string) {}

  write(entries: readonly RequestLogEntry[], pruneBefore: number | undefined): Promise<number> {
    const worker = this.start();
    const values = valuesOf(entries);
    const id = this.nextId++;
    return new Promise<number>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, values, sizes: insertSizes(entries.length), pruneBefore } satisfies ThreadRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_FILE, {
      workerData: { file: this.file, driver: require.resolve('better-sqlite3'), columns: COLUMNS } satisfies ThreadData,
      // A batch is at most MAX_BUFFER entries (about 2 MB as values) and MAX_BUFFER_DETAIL characters of headers and
      // bodies (4 to 8 MB); the thread needs little more.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 1 },
    });
    worker.unref();
    worker.on('message', (m: ThreadReply) => {
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      if (!waiting) return;
      if (m.error !== undefined) waiting.reject(Object.assign(new Error(m.error), { written: m.written }));
      else waiting.resolve(m.written);
    });
    const fail = (e: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(e);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the request log thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

interface ThreadData {
  file: string;
  driver: string;
  columns: readonly string[];
}
interface ThreadRequest {
  id: number;
  values: unknown[];
  /** Rows per INSERT, in order (insertSizes). */
  sizes: number[];
  pruneBefore: number | undefined;
}
interface ThreadReply {
  id: number;
  written: number;
  error?: string;
}

/**
 * Collects request log entries in memory and writes them in batches, so logging costs a request nothing but
 * an array push. A batch goes out when BATCH entries wait or intervalMs after the first, whichever comes first;
 * at most MAX_BUFFER entries wait while one is being written, beyond that the oldest are dropped (and counted).
 * On a SQLite file database the batches go to a writer thread and the log's own file; otherwise they are written
 * one INSERT of insertSizes at a time with the event loop free in between, so a busy service's log never holds requests up for
 * long (SQLite statements block the process while they run).
 */
export class RequestLogWriter {
  private buffer: RequestLogEntry[] = [];
  /** detailSize of the buffered entries together. */
  private bufferedDetail = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /**
   * While entries wait for their partner to be looked up (recordWhen), every entry recorded after them is appended
   * after them too, in this chain, so the log keeps the order in which the requests were answered.
   */
  private queue: Promise<void> | undefined;
  private queued = 0;
  private lastPrune = 0;
  private readonly sink: Sink;
  dropped = 0;
  /** Entries kept without their headers and bodies (more than DETAIL_PER_SECOND, or MAX_BUFFER_DETAIL waiting). */
  detailsDropped = 0;
  /**
   * By partner, characters of headers and bodies that may still be kept, and when that was worked out; in the order
   * the partners were last seen, oldest first.
   */
  private readonly allowances = new Map<string, { left: number; at: number }>();

  constructor(
    database: Database,
    private readonly clock: Clock,
    private readonly intervalMs = 250,
  ) {
    this.sink = database.requestLogFile ? new ThreadSink(database.requestLogFile) : new DirectSink(database);
  }

  /** Records an entry (after those still waiting for their partner, if any). */
  record(entry: RequestLogEntry): void {
    if (this.queued > 0) this.recordWhen(Promise.resolve(entry));
    else this.append(entry);
  }

  /**
   * Records an entry once its partner is known: at once when `entry` is there, else when its promise settles (an
   * entry it does not give, or a failure, is not recorded), and in either case after the entries recorded before it.
   * The look-ups run at the same time; flush waits for them.
   */
  recordWhen(entry: RequestLogEntry | Promise<RequestLogEntry | undefined>): void {
    if (!(entry instanceof Promise)) return this.record(entry);
    // As many as may wait in the buffer: a flood of look-ups on a slow database does not grow the process.
    if (this.queued >= MAX_BUFFER) {
      this.dropped++;
      return;
    }
    const settled = entry.catch(() => {
      this.dropped++;
      return undefined;
    });
    this.queued++;
    this.queue = (this.queue ?? Promise.resolve())
      .then(() => settled)
      .then((e) => {
        if (e) this.append(e);
        if (--this.queued === 0) this.queue = undefined;
      });
  }

  /**
   * Whether an entry of this partner may keep about `size` characters of headers and bodies now (at most
   * DETAIL_PER_SECOND of the partner's); if so, they are counted. Asked before they are made, so a busy partner's
   * requests do not even make them.
   */
  keepsDetail(partnerId: string, size: number): boolean {
    const allowance = this.allowanceOf(partnerId);
    if (size > allowance.left) {
      this.detailsDropped++;
      return false;
    }
    allowance.left -= size;
    return true;
  }

  /**
   * Counts `size` more characters against the partner's allowance (fewer when negative, up to a full one): once an
   * entry's headers and bodies are made, what they came to beyond (or short of) what keepsDetail counted.
   */
  countDetail(partnerId: string, size: number): void {
    const allowance = this.allowanceOf(partnerId);
    allowance.left = Math.min(DETAIL_BURST, allowance.left - size);
  }

  private allowanceOf(partnerId: string): { left: number; at: number } {
    const now = this.clock.now();
    let allowance = this.allowances.get(partnerId);
    if (allowance) {
      // Seen now: moved to the end of the order.
      this.allowances.delete(partnerId);
      allowance.left = Math.min(DETAIL_BURST, allowance.left + (Math.max(0, now - allowance.at) * DETAIL_PER_SECOND) / 1000);
      allowance.at = now;
    } else {
      allowance = { left: DETAIL_BURST, at: now };
      if (this.allowances.size >= MAX_ALLOWANCES) this.allowances.delete(this.allowances.keys().next().value!);
    }
    this.allowances.set(partnerId, allowance);
    return allowance;
  }

  private append(entry: RequestLogEntry): void {
    let size = detailSize(entry);
    if (size > 0 && this.bufferedDetail + size > MAX_BUFFER_DETAIL) {
      entry = { ...entry, ...NO_DETAIL };
      size = 0;
      this.detailsDropped++;
    }
    if (this.buffer.length >= MAX_BUFFER) {
      this.bufferedDetail -= detailSize(this.buffer.shift()!);
      this.dropped++;
    }
    this.buffer.push(entry);
    const before = this.bufferedDetail;
    this.bufferedDetail += size;
    // Once per batch: a busy service sends its entries on long before the timer, and they die young.
    if (this.buffer.length === BATCH || (before < BATCH_DETAIL && this.bufferedDetail >= BATCH_DETAIL)) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }

  /** Writes everything buffered so far, after the batch being written (one at a time); resolves when it is stored. */
  async flush(): Promise<void> {
    while (this.queue) await this.queue;
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.flushing) await this.flushing;
    const entries = this.buffer;
    this.buffer = [];
    this.bufferedDetail = 0;
    if (entries.length === 0) return;
    this.flushing = this.write(entries).finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  private async write(entries: readonly RequestLogEntry[]): Promise<void> {
    const now = this.clock.now();
    const prune = now - this.lastPrune > 60_000;
    if (prune) this.lastPrune = now;
    try {
      await this.sink.write(entries, prune ? now - RETENTION_MS : undefined);
    } catch (e) {
      // The log is best effort: a full disk or a database restart must not fail API requests.
      const written = (e as { written?: unknown }).written;
      this.dropped += entries.length - (typeof written === 'number' ? written : 0);
    }
  }

  /** Writes what is buffered and stops the writer thread, if any. */
  async close(): Promise<void> {
    await this.flush();
    await this.sink.close();
  }
}

/** Filters of a list of the log, as callers (the dashboard, `logs tail`) take them from people. */
export interface RequestLogFilter {
  partnerId?: string | undefined;
  afterId?: number | undefined;
  limit?: number | undefined;
  /** A class of statuses (`2xx`, `4xx`, ...) or one status (`404`). */
  status?: string | undefined;
  /** A method, in any letter case. */
  method?: string | undefined;
  /** Text the path or its query string contains, in any letter case. */
  path?: string | undefined;
}

const STATUS_FILTER = /^([1-5])(?:xx|\d\d)$/i;
const METHOD_FILTER = /^[A-Za-z]{1,16}$/;
/** Longest path filter: paths are kept to 500 characters. */
export const MAX_PATH_FILTER = 500;

/** The statuses a status filter stands for: `4xx` is 400 to 499, `404` itself. */
export function statusRange(status: string): [number, number] {
  const m = STATUS_FILTER.exec(status);
  if (!m) throw new ServiceError('InvalidParameter', 'Invalid parameter (status): must be a class such as 2xx, 4xx or 5xx, or a status such as 404');
  if (/x/i.test(status)) return [Number(m[1]) * 100, Number(m[1]) * 100 + 99];
  return [Number(status), Number(status)];
}

/**
 * A partner's log entries (or everyone's when partnerId is undefined), newest first, or those after `afterId` oldest
 * first; 1 to 1,000 of them, narrowed by status, method and path when given (empty filters are none). Headers and
 * bodies are not read: getRequestLogEntry gives them.
 */
export async function listRequestLog(db: Executor, filter: RequestLogFilter): Promise<RequestLogRow[]> {
  const status = filter.status ? statusRange(filter.status) : undefined;
  if (filter.method && !METHOD_FILTER.test(filter.method))
    throw new ServiceError('InvalidParameter', 'Invalid parameter (method): must be an HTTP method such as GET');
  if (filter.path && filter.path.length > MAX_PATH_FILTER)
    throw new ServiceError('InvalidParameter', `Invalid parameter (path): must be at most ${MAX_PATH_FILTER} characters`);
  return selectRequestLog(db, {
    partnerId: filter.partnerId,
    afterId: filter.afterId,
    status,
    method: filter.method ? filter.method.toUpperCase() : undefined,
    path: filter.path || undefined,
    limit: Math.min(Math.max(filter.limit ?? 100, 1), 1000),
  });
}

/** One entry of the partner's log with its headers and bodies; another partner's entry is not found, like an unknown one. */
export async function getRequestLogEntry(db: Executor, partnerId: string, id: number): Promise<RequestLogDetailRow> {
  const row = await selectRequestLogEntry(db, partnerId, id);
  if (!row) throw new ServiceError('ResourceNotFound', `Request ${id} not found`);
  return row;
}

/**
 * The partner a request that got no further than its credentials (a failed authentication, a refused token, a path
 * no route has) is logged for: the one whose app key it carries when the key is valid; with no app key at all, the
 * one its token was issued to. An unknown app key makes it nobody's, whatever token comes with it. The
 * answer is kept while no partner, token or customer changes, as the caller of an authenticated request is.
 */
export function credentialsOwner(database: Database, appKey: string | undefined, token: string | undefined): string | undefined | Promise<string | undefined> {
  const [kind, secret] = appKey !== undefined ? (['app-key', appKey] as const) : (['token', token] as const);
  if (secret === undefined) return undefined;
  const hash = sha256Hex(secret);
  const row = stampedMemo<{ id: string }>(database, `requestlog:${kind}`).read(hash, () =>
    kind === 'app-key' ? partnerIdOfAppKeyHash(database.kysely, hash) : partnerIdOfTokenHash(database.kysely, hash),
  );
  return whenReady(row, (found) => found?.id);
}
