import { sql, type Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { preparedQuery } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { RequestLogRow, RequestLogTable } from './table.js';

export type RequestLogEntry = Omit<RequestLogTable, 'id'>;

/** How long entries are kept. */
export const RETENTION_MS = 7 * 86_400_000;
const MAX_BUFFER = 5_000;
/** Rows per INSERT; the event loop serves requests between two of them. */
const CHUNK = 100;

const COLUMNS = ['partner_id', 'method', 'path', 'route', 'status', 'latency_ms', 'error_code', 'request_id', 'ip', 'created_at_ms'] as const satisfies ReadonlyArray<keyof RequestLogEntry>;

type InsertRows = (db: Kysely<DB>, ...values: unknown[]) => Promise<unknown[]>;
const inserts = new Map<number, InsertRows>();

/** A multi-row INSERT of `rows` entries, compiled once per size (building 1,000 values per flush cost more than writing them). */
function insertOf(rows: number): InsertRows {
  let insert = inserts.get(rows);
  if (!insert) {
    insert = preparedQuery<unknown[], unknown>(rows * COLUMNS.length, (db, ...p) => db.insertInto('request_log').values(
      Array.from({ length: rows }, (_, r) => Object.fromEntries(COLUMNS.map((column, c) => [column, p[r * COLUMNS.length + c]])) as unknown as RequestLogEntry),
    ));
    inserts.set(rows, insert);
  }
  return insert;
}

/**
 * Writes one chunk of entries in one statement. On SQLite its commit does not wait for the disk (synchronous
 * NORMAL, for this statement only): the log is best effort, WAL mode stays consistent, and the next commit of
 * anything else (synchronous FULL) makes it durable with its own. Every other commit keeps waiting for the disk.
 */
async function writeChunk(database: Database, entries: readonly RequestLogEntry[]): Promise<void> {
  const values = entries.flatMap((e) => COLUMNS.map((column) => e[column]));
  const insert = insertOf(entries.length);
  if (database.dialect !== 'sqlite') {
    await insert(database.kysely, ...values);
    return;
  }
  await database.kysely.connection().execute(async (conn) => {
    await sql`pragma synchronous = normal`.execute(conn);
    try {
      await insert(conn, ...values);
    } finally {
      await sql`pragma synchronous = full`.execute(conn);
    }
  });
}

/**
 * Collects request log entries in memory and writes them in batches, so logging costs a request nothing but
 * an array push. At most MAX_BUFFER entries wait; beyond that the oldest are dropped (and counted). A batch is
 * written CHUNK rows at a time with the event loop free in between, so a busy service's log never holds
 * requests up for long (SQLite statements block the process while they run).
 */
export class RequestLogWriter {
  private buffer: RequestLogEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private lastPrune = 0;
  dropped = 0;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly intervalMs = 250,
  ) {}

  record(entry: RequestLogEntry): void {
    if (this.buffer.length >= MAX_BUFFER) {
      this.buffer.shift();
      this.dropped++;
    }
    this.buffer.push(entry);
    this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }

  /** Writes everything buffered so far; resolves when it is stored. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    const entries = this.buffer;
    this.buffer = [];
    if (entries.length === 0) return;
    this.flushing = (async () => {
      let written = 0;
      try {
        for (; written < entries.length; written += CHUNK) {
          if (written > 0) await new Promise((resolve) => setImmediate(resolve));
          await writeChunk(this.database, entries.slice(written, written + CHUNK));
        }
        const now = this.clock.now();
        if (now - this.lastPrune > 60_000) {
          this.lastPrune = now;
          await pruneRequestLog(this.database.kysely, now - RETENTION_MS);
        }
      } catch {
        // The log is best effort: a full disk or a database restart must not fail API requests.
        this.dropped += Math.max(entries.length - written, 0);
      }
    })();
    await this.flushing;
  }
}

export async function pruneRequestLog(db: Executor, beforeMs: number): Promise<void> {
  await db.deleteFrom('request_log').where('created_at_ms', '<', beforeMs).execute();
}

/** A partner's log entries (or everyone's when partnerId is undefined), newest first, or those after `afterId` oldest first. */
export async function listRequestLog(db: Executor, filter: { partnerId?: string; afterId?: number; limit?: number }): Promise<RequestLogRow[]> {
  let q = db.selectFrom('request_log').selectAll();
  if (filter.partnerId !== undefined) q = q.where('partner_id', '=', filter.partnerId);
  const limit = Math.min(Math.max(filter.limit ?? 100, 1), 1000);
  if (filter.afterId !== undefined) return q.where('id', '>', filter.afterId).orderBy('id', 'asc').limit(limit).execute();
  return q.orderBy('id', 'desc').limit(limit).execute();
}
