import { sql, type Kysely } from 'kysely';

/**
 * What the delivery log shows (docs/delivery.md, "Visibility and redelivery"):
 * - `deliveries.event_type`: `transaction.created`, `connect.added`, `connect.email`, ... so lists can say and filter
 *   what a delivery carries. Existing rows are filled in from their bodies (below).
 * - `deliveries.copy_of`: the delivery a `ledgerlink listen --partner` copy was made from, so the copies are shown
 *   under it. Existing copies cannot be told from other deliveries of the same event and stay on their own.
 * - `deliveries.gave_up`: 1 when a failed attempt ended the delivery (retry window over, or a permanent refusal), to
 *   tell "failed" from "cancelled" (its subscription went away). Existing rows: cancelled ones whose last error is the
 *   error of one of their attempts, which is what a failed attempt records; a cancellation records its reason.
 * - `deliveries.redelivered_at`: when it was last redelivered; a redelivery is sent at once, outside the order of
 *   a Connect session's webhooks.
 * - `delivery_attempts.response_excerpt`: the first bytes of the answer's body.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite adds one at a time.
  await db.schema.alterTable('deliveries').addColumn('event_type', 'text').execute();
  await db.schema.alterTable('deliveries').addColumn('copy_of', 'bigint').execute();
  await db.schema
    .alterTable('deliveries')
    .addColumn('gave_up', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('deliveries').addColumn('redelivered_at', 'bigint').execute();
  await db.schema.alterTable('delivery_attempts').addColumn('response_excerpt', 'text').execute();
  // Listings fetch the copies of the deliveries they show.
  await db.schema.createIndex('deliveries_copy_of').on('deliveries').column('copy_of').where(sql.ref('copy_of'), 'is not', null).execute();

  await backfill(db);
}

/** Fills the new columns of rows written before this migration (see above); rows it cannot tell stay as they are. */
export async function backfill(db: Kysely<unknown>): Promise<void> {
  await sql`update deliveries set gave_up = 1 where status = 'cancelled' and gave_up = 0
    and exists (select 1 from delivery_attempts a where a.delivery_id = deliveries.id and a.error = deliveries.last_error)`.execute(db);
  await backfillEventTypes(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('deliveries_copy_of').execute();
  await db.schema.alterTable('delivery_attempts').dropColumn('response_excerpt').execute();
  await db.schema.alterTable('deliveries').dropColumn('redelivered_at').execute();
  await db.schema.alterTable('deliveries').dropColumn('gave_up').execute();
  await db.schema.alterTable('deliveries').dropColumn('copy_of').execute();
  await db.schema.alterTable('deliveries').dropColumn('event_type').execute();
}

interface BodyRow {
  id: number | string;
  kind: string;
  content_type: string | null;
  body: string;
}

const BATCH = 500;

/** The event type of a delivery written before this migration, read from its body as the producers wrote it then. */
export function eventTypeOfBody(row: Pick<BodyRow, 'kind' | 'content_type' | 'body'>): string | null {
  if (row.kind === 'email') return 'connect.email';
  const xml = (row.content_type ?? '').includes('xml');
  if (row.kind === 'webhook') {
    // {customerId, eventType, eventId, payload} or <webhook><customerId/><eventType>...
    const type = xml ? /<eventType>([A-Za-z]+)<\/eventType>/.exec(row.body)?.[1] : jsonField(row.body, (d) => d.eventType);
    return typeof type === 'string' && /^[A-Za-z]+$/.test(type) ? `connect.${type}` : null;
  }
  if (row.kind === 'txpush') {
    // {event: {class, type, records}} or <event><class/><type/><records>..., class and type before the records.
    const cls = xml ? /<class>([a-z]+)<\/class>/.exec(row.body)?.[1] : jsonField(row.body, (d) => d.event?.class);
    const type = xml ? /<type>([a-z]+)<\/type>/.exec(row.body)?.[1] : jsonField(row.body, (d) => d.event?.type);
    return typeof cls === 'string' && typeof type === 'string' && /^[a-z]+$/.test(cls) && /^[a-z]+$/.test(type) ? `${cls}.${type}` : null;
  }
  return null;
}

function jsonField(body: string, pick: (doc: any) => unknown): unknown {
  try {
    return pick(JSON.parse(body));
  } catch {
    return undefined;
  }
}

async function backfillEventTypes(db: Kysely<unknown>): Promise<void> {
  let after = 0;
  for (;;) {
    const { rows } =
      await sql<BodyRow>`select id, kind, content_type, body from deliveries where event_type is null and id > ${after} order by id limit ${sql.lit(BATCH)}`.execute(
        db,
      );
    for (const row of rows) {
      const type = eventTypeOfBody(row);
      if (type) await sql`update deliveries set event_type = ${type} where id = ${row.id}`.execute(db);
    }
    if (rows.length < BATCH) return;
    after = Number(rows.at(-1)!.id);
  }
}
