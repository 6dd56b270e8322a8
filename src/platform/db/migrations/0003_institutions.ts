import { sql, type Kysely } from 'kysely';

type Column = [name: string, type: 'integer' | 'text', notNull: boolean];

const COLUMNS: Column[] = [
  ['id', 'integer', true],
  ['name', 'text', true],
  ['display_name', 'text', true],
  ['account_type_description', 'text', true],
  ['class', 'text', true],
  ['status', 'text', true],
  ['url_home_app', 'text', true],
  ['url_logon_app', 'text', true],
  ['url_product_app', 'text', true],
  ['url_forgot_password', 'text', true],
  ['url_online_registration', 'text', true],
  ['oauth_enabled', 'integer', true],
  ['phone', 'text', true],
  ['email', 'text', true],
  ['currency', 'text', true],
  ['special_text', 'text', true],
  ['special_instructions', 'text', false],
  ['special_instructions_title', 'text', false],
  ['time_zone', 'text', false],
  ['new_institution_id', 'integer', false],
  ['oauth_institution_id', 'integer', false],
  ['requires_service_callout', 'integer', true],
  ['external_data', 'text', false],
  ['trans_agg', 'integer', true],
  ['voa', 'integer', true],
  ['voi', 'integer', true],
  ['state_agg', 'integer', true],
  ['ach', 'integer', true],
  ['aha', 'integer', true],
  ['avail_balance', 'integer', true],
  ['account_owner', 'integer', true],
  ['loan_payment_details', 'integer', true],
  ['student_loan_data', 'integer', true],
  ['liability_data', 'integer', true],
  ['bill_pay_data', 'integer', true],
  ['address_line1', 'text', true],
  ['address_line2', 'text', true],
  ['city', 'text', true],
  ['state', 'text', true],
  ['postal_code', 'text', true],
  ['country', 'text', true],
  ['primary_color', 'text', true],
  ['ps_overall', 'text', true],
  ['ps_trans_agg', 'text', true],
  ['ps_voa', 'text', true],
  ['ps_voi', 'text', true],
  ['ps_state_agg', 'text', true],
  ['ps_ach', 'text', true],
  ['ps_aha', 'text', true],
  ['search_rank', 'integer', true],
  // The catalogue version that last changed the row (null: as loaded), so processes can re-read only what changed.
  ['changed_version', 'integer', false],
];

/**
 * The institution catalogue's tables. The rows are loaded on first start by ensureInstitutionCatalog
 * (src/modules/institutions/seed.service.ts), which openRuntime calls: a migration would make every new database pay
 * for 10,000 inserts, also the many throwaway databases of tests that never look at institutions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  let table = db.schema.createTable('institutions');
  for (const [name, type, notNull] of COLUMNS) {
    table = table.addColumn(name, type, (c) => (name === 'id' ? c.primaryKey() : notNull ? c.notNull() : c));
  }
  await table.execute();
  await db.schema.createIndex('institutions_changed_version').on('institutions').column('changed_version').execute();

  // One counter that moves whenever any institution changes: processes compare it to refresh their copy.
  await db.schema
    .createTable('institution_catalog')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into institution_catalog (id, version) values (1, 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('institution_catalog').execute();
  await db.schema.dropTable('institutions').execute();
}
