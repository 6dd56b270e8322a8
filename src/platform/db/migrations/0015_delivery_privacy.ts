import { sql, type Kysely } from 'kysely';

/**
 * Deliveries: extra headers (Connect webhookHeaders, often the receiver's own credentials) stored encrypted in
 * `headers_encrypted` instead of in clear in `headers` (rows written before keep theirs until the delivery worker
 * encrypts them: a migration has no master key); and the indexes the hourly e-mail limit and the purge of old
 * deliveries use, plus one on mailbox.delivery_id so deleting a delivery does not scan the mailbox.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('deliveries').addColumn('headers_encrypted', 'text').execute();
  await db.schema
    .createIndex('deliveries_email_partner')
    .on('deliveries')
    .columns(['partner_id', 'created_at'])
    .where(sql.ref('kind'), '=', sql.lit('email'))
    .execute();
  await db.schema.createIndex('deliveries_delivered_at').on('deliveries').column('delivered_at').where(sql.ref('status'), '=', sql.lit('delivered')).execute();
  await db.schema.createIndex('deliveries_cancelled_at').on('deliveries').column('cancelled_at').where(sql.ref('status'), '=', sql.lit('cancelled')).execute();
  await db.schema.createIndex('mailbox_delivery').on('mailbox').column('delivery_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('mailbox_delivery').execute();
  await db.schema.dropIndex('deliveries_cancelled_at').execute();
  await db.schema.dropIndex('deliveries_delivered_at').execute();
  await db.schema.dropIndex('deliveries_email_partner').execute();
  await db.schema.alterTable('deliveries').dropColumn('headers_encrypted').execute();
}
