import type { Kysely } from 'kysely';
import { startIdentityAt, withIdentity } from './helpers.js';

/** Rule ids look like the service's other numeric ids: ten digits, their own range. */
const RULE_ID_START = 9100000000;

/**
 * A partner's transaction rules (docs/aggregation.md, "Rules"): conditions and actions as JSON, applied in the order of
 * `position`, then of `id`. `transaction_rule_sources` keeps what the source gave for a transaction a rule changed
 * (category, payee, memo), so applying the rules again starts from the source's values and a rule removed stops
 * showing; a transaction no rule changes has no row. Both go with their partner and their transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdentity(db, db.schema.createTable('rules'), RULE_ID_START)
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('conditions', 'text', (c) => c.notNull())
    .addColumn('actions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await startIdentityAt(db, 'rules', RULE_ID_START);
  await db.schema.createIndex('rules_partner_order').on('rules').columns(['partner_id', 'position', 'id']).execute();

  await db.schema
    .createTable('transaction_rule_sources')
    .addColumn('transaction_id', 'bigint', (c) => c.primaryKey().references('transactions.id').onDelete('cascade'))
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('normalized_payee_name', 'text')
    .addColumn('memo', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Whether a partner has any kept values at all: a refresh of a partner without rules need not look further.
  await db.schema.createIndex('transaction_rule_sources_partner').on('transaction_rule_sources').column('partner_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('transaction_rule_sources').execute();
  await db.schema.dropTable('rules').execute();
}
