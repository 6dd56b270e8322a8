import type { Kysely } from 'kysely';
import { startIdentityAt, withIdentity } from './helpers.js';

/** Where ids of each aggregation record begin (ten or eleven digits, like the real service's). */
export const INSTITUTION_LOGIN_ID_START = 6000000000;
export const ACCOUNT_ID_START = 5011000000;
export const POSITION_ID_START = 400000000;
export const TRANSACTION_ID_START = 20000000000;

/**
 * The aggregation engine's tables: institution logins, accounts, positions, transactions, the events recorded
 * with every change, and sign-in (link) sessions. Everything references customers(id) with ON DELETE CASCADE,
 * directly or through its parent, so deleting a customer removes it all. Each customer also gets its own clock
 * offset (sandbox time travel).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('customers')
    .addColumn('clock_offset_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await withIdentity(db, db.schema.createTable('institution_logins'), INSTITUTION_LOGIN_ID_START)
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('institution_id', 'integer', (c) => c.notNull())
    .addColumn('session_encrypted', 'text', (c) => c.notNull())
    .addColumn('credentials_encrypted', 'text')
    .addColumn('aggregation_status_code', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('aggregation_status_message', 'text')
    .addColumn('aggregation_attempt_at', 'bigint')
    .addColumn('aggregation_success_at', 'bigint')
    .addColumn('refresh_lease_until', 'bigint')
    .addColumn('refresh_lease_owner', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await startIdentityAt(db, 'institution_logins', INSTITUTION_LOGIN_ID_START);
  await db.schema.createIndex('institution_logins_customer').on('institution_logins').columns(['customer_id', 'institution_id']).execute();

  await withIdentity(db, db.schema.createTable('accounts'), ACCOUNT_ID_START)
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('institution_login_id', 'bigint', (c) => c.notNull().references('institution_logins.id').onDelete('cascade'))
    .addColumn('institution_id', 'integer', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('account_number_display', 'text', (c) => c.notNull())
    .addColumn('real_account_number_last4', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('account_nickname', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('balance', 'double precision', (c) => c.notNull())
    .addColumn('balance_date', 'bigint', (c) => c.notNull())
    .addColumn('market_segment', 'text', (c) => c.notNull())
    .addColumn('display_position', 'integer', (c) => c.notNull())
    .addColumn('fi_account_status', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('aggregation_status_code', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('aggregation_attempt_at', 'bigint')
    .addColumn('aggregation_success_at', 'bigint')
    .addColumn('first_aggregated_at', 'bigint')
    .addColumn('history_from', 'bigint')
    .addColumn('historic_loaded_at', 'bigint')
    .addColumn('oldest_transaction_at', 'bigint')
    .addColumn('last_transaction_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('accounts_login_ref', ['institution_login_id', 'ref'])
    .execute();
  await startIdentityAt(db, 'accounts', ACCOUNT_ID_START);
  await db.schema.createIndex('accounts_customer').on('accounts').columns(['customer_id', 'institution_id', 'id']).execute();

  await withIdentity(db, db.schema.createTable('positions'), POSITION_ID_START)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('record', 'text', (c) => c.notNull())
    .addUniqueConstraint('positions_account_ref', ['account_id', 'ref'])
    .execute();
  await startIdentityAt(db, 'positions', POSITION_ID_START);

  await withIdentity(db, db.schema.createTable('transactions'), TRANSACTION_ID_START)
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('effective_date', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount', 'double precision', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('memo', 'text')
    .addColumn('type', 'text')
    .addColumn('transaction_date', 'bigint')
    .addColumn('posted_date', 'bigint')
    .addColumn('check_num', 'text')
    .addColumn('normalized_payee_name', 'text')
    .addColumn('category', 'text')
    .addColumn('best_representation', 'text')
    .addColumn('country', 'text')
    .addColumn('bonus_amount', 'double precision')
    .addColumn('escrow_amount', 'double precision')
    .addColumn('fee_amount', 'double precision')
    .addColumn('interest_amount', 'double precision')
    .addColumn('principal_amount', 'double precision')
    .addColumn('unit_quantity', 'double precision')
    .addColumn('unit_value', 'double precision')
    .addColumn('investment_transaction_type', 'text')
    .addColumn('ticker', 'text')
    .addColumn('security_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('transactions_account_ref', ['account_id', 'ref'])
    .execute();
  await startIdentityAt(db, 'transactions', TRANSACTION_ID_START);
  // The page and count queries of both transaction lists walk one of these in order and never touch other
  // customers' (or accounts') rows; status rides along so the pending filter needs no table lookup.
  await db.schema.createIndex('transactions_customer_date').on('transactions').columns(['customer_id', 'effective_date', 'id', 'status']).execute();
  await db.schema.createIndex('transactions_account_date').on('transactions').columns(['account_id', 'effective_date', 'id', 'status']).execute();

  await withIdentity(db, db.schema.createTable('aggregation_events'), 1)
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('class', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('record', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('aggregation_events_account').on('aggregation_events').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('aggregation_events_customer').on('aggregation_events').columns(['customer_id', 'id']).execute();

  await db.schema
    .createTable('link_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'bigint', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('institution_id', 'integer', (c) => c.notNull())
    .addColumn('institution_login_id', 'bigint', (c) => c.references('institution_logins.id').onDelete('cascade'))
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('state_encrypted', 'text')
    .addColumn('discovered', 'text')
    .addColumn('failure_code', 'integer')
    .addColumn('failure_message', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('link_sessions_expires').on('link_sessions').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['link_sessions', 'aggregation_events', 'transactions', 'positions', 'accounts', 'institution_logins']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('customers').dropColumn('clock_offset_seconds').execute();
}
