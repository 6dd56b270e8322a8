import type { Database, Executor } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { RequestLogRow, RequestLogTable } from './table.js';

export type RequestLogEntry = Omit<RequestLogTable, 'id'>;

/** How long entries are kept. */
export const RETENTION_MS = 7 * 86_400_000;
const MAX_BUFFER = 5_000;
const BATCH = 500;

/**
 * Collects request log entries in memory and writes them in batches, so logging costs a request nothing but
 * an array push. At most MAX_BUFFER entries wait; beyond that the oldest are dropped (and counted).
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
      try {
        await this.database.kysely.transaction().execute(async (tx) => {
          for (let i = 0; i < entries.length; i += BATCH) await tx.insertInto('request_log').values(entries.slice(i, i + BATCH)).execute();
        });
        const now = this.clock.now();
        if (now - this.lastPrune > 60_000) {
          this.lastPrune = now;
          await pruneRequestLog(this.database.kysely, now - RETENTION_MS);
        }
      } catch {
        // The log is best effort: a full disk or a database restart must not fail API requests.
        this.dropped += entries.length;
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
