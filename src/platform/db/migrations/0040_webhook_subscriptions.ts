import { type Kysely, sql } from 'kysely';

/**
 * Webhook subscriptions (docs/webhook-subscriptions.md): a partner's subscriptions, each with a URL and a status, and
 * their events, one row per event type named, with an optional URL of its own, an optional condition (the field,
 * and the values included and excluded as JSON arrays) and a status of its own. Ids are UUIDs, as the reference's.
 * The events go with their subscription, both with their partner. `webhook_subscription_events_partner_name` finds
 * the events an emitted event goes to. `deliveries.webhook_subscription_id` names the subscription a notification was
 * queued for, so deleting or disabling it cancels what is still open (`deliveries_open_webhook_subscription`, partial
 * on the same literal condition as deliveries_due, so history does not weigh on it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('url', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_subscriptions_partner').on('webhook_subscriptions').columns(['partner_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('webhook_subscription_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('webhook_subscriptions.id').onDelete('cascade'))
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('condition_field', 'text')
    .addColumn('condition_includes', 'text')
    .addColumn('condition_excludes', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_subscription_events_name').unique().on('webhook_subscription_events').columns(['subscription_id', 'name']).execute();
  await db.schema.createIndex('webhook_subscription_events_partner_name').on('webhook_subscription_events').columns(['partner_id', 'name']).execute();

  await db.schema.alterTable('deliveries').addColumn('webhook_subscription_id', 'text').execute();
  await db.schema
    .createIndex('deliveries_open_webhook_subscription')
    .on('deliveries')
    .column('webhook_subscription_id')
    .where(sql.ref('status'), 'in', sql`('pending', 'delivering')`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('deliveries_open_webhook_subscription').execute();
  await db.schema.alterTable('deliveries').dropColumn('webhook_subscription_id').execute();
  await db.schema.dropTable('webhook_subscription_events').execute();
  await db.schema.dropTable('webhook_subscriptions').execute();
}
