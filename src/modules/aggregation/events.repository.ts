import type { Executor } from '../../platform/db/database.js';
import type { NewAggregationEventRow } from './table.js';

/** Rows per INSERT statement (keeps SQLite under its bound-parameter limit). */
const BATCH = 500;

/** Inserts event rows, a batch per statement. */
export async function insertEvents(db: Executor, rows: readonly NewAggregationEventRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    await db
      .insertInto('aggregation_events')
      .values(rows.slice(i, i + BATCH))
      .execute();
  }
}
