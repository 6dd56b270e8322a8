import { type Kysely, sql } from 'kysely';

/**
 * What the payment and identity products read of an account beyond its record (modules/payments): the ABA routing
 * number its source states (`routing_number`), its owners as JSON (`owners`), and a loan's manual payment
 * instructions as JSON (`loan_payment`); null where the source gives none.
 *
 * The institutions served through OFX Direct Connect offer ACH details and history from now on: the catalogue's
 * product flags say so (docs/payments.md), moving the catalogue version on so running processes see it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('routing_number', 'text').execute();
  await db.schema.alterTable('accounts').addColumn('owners', 'text').execute();
  await db.schema.alterTable('accounts').addColumn('loan_payment', 'text').execute();
  await sql`update institution_catalog set version = version + 1 where id = 1`.execute(db);
  await sql`update institutions
    set ach = 1, aha = 1, avail_balance = 1, account_owner = 0, loan_payment_details = 0, ps_ach = 'online', ps_aha = 'online',
      changed_version = (select version from institution_catalog where id = 1)
    where id in (select institution_id from ofx_servers)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('loan_payment').execute();
  await db.schema.alterTable('accounts').dropColumn('owners').execute();
  await db.schema.alterTable('accounts').dropColumn('routing_number').execute();
}
