import { sql, type Kysely } from 'kysely';
import { withIdentity } from './helpers.js';

/** The durable outbox (deliveries), every attempt, and the local mailbox. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdentity(db, db.schema.createTable('deliveries'), 1)
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull().defaultTo('POST'))
    .addColumn('headers', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('content_type', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('signing_secret_encrypted', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_attempt_at', 'bigint')
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .addColumn('customer_id', 'bigint')
    .addColumn('subscription_id', 'bigint')
    .addColumn('connect_session', 'text')
    .execute();
  // The claim query: due rows among the open ones only, so delivered history does not slow it down.
  await db.schema
    .createIndex('deliveries_due')
    .on('deliveries')
    .columns(['next_attempt_at', 'id'])
    .where(sql.ref('status'), 'in', sql`('pending', 'delivering')`)
    .execute();
  await db.schema.createIndex('deliveries_partner').on('deliveries').columns(['partner_id', 'id']).execute();
  await db.schema.createIndex('deliveries_event').on('deliveries').column('event_id').execute();

  await withIdentity(db, db.schema.createTable('delivery_attempts'), 1)
    .addColumn('delivery_id', 'bigint', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('attempted_at', 'bigint', (c) => c.notNull())
    .addColumn('worker_id', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('delivery_attempts_delivery').on('delivery_attempts').columns(['delivery_id', 'id']).execute();

  await withIdentity(db, db.schema.createTable('mailbox'), 1)
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('delivery_id', 'bigint', (c) => c.references('deliveries.id').onDelete('set null'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mailbox_partner').on('mailbox').columns(['partner_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mailbox').execute();
  await db.schema.dropTable('delivery_attempts').execute();
  await db.schema.dropTable('deliveries').execute();
}
