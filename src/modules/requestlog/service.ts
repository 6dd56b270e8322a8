import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database, Executor } from '../../platform/db/database.js';
import type { Clock } from '../../platform/clock.js';
import { COLUMNS, insertSizes, pruneRequestLog, type RequestLogEntry, selectRequestLog, valuesOf, writeChunk } from './repository.js';
import type { RequestLogRow } from './table.js';

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
      // A batch is at most MAX_BUFFER entries (about 2 MB as values); the thread needs little more.
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
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
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private lastPrune = 0;
  private readonly sink: Sink;
  dropped = 0;

  constructor(
    database: Database,
    private readonly clock: Clock,
    private readonly intervalMs = 250,
  ) {
    this.sink = database.requestLogFile ? new ThreadSink(database.requestLogFile) : new DirectSink(database);
  }

  record(entry: RequestLogEntry): void {
    if (this.buffer.length >= MAX_BUFFER) {
      this.buffer.shift();
      this.dropped++;
    }
    this.buffer.push(entry);
    // Once per batch: a busy service sends its entries on long before the timer, and they die young.
    if (this.buffer.length === BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }

  /** Writes everything buffered so far, after the batch being written (one at a time); resolves when it is stored. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.flushing) await this.flushing;
    const entries = this.buffer;
    this.buffer = [];
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

/** A partner's log entries (or everyone's when partnerId is undefined), newest first, or those after `afterId` oldest first; 1 to 1,000 of them. */
export async function listRequestLog(db: Executor, filter: { partnerId?: string; afterId?: number; limit?: number }): Promise<RequestLogRow[]> {
  return selectRequestLog(db, { partnerId: filter.partnerId, afterId: filter.afterId, limit: Math.min(Math.max(filter.limit ?? 100, 1), 1000) });
}
