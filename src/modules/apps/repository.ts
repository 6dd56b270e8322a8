import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type {
  AppRegistrationRow,
  AppRegistrationTable,
  AppStatusLetter,
  ThirdPartyAccessKeyRow,
  ThirdPartyAccessKeyTable,
  ThirdPartyAccessProductRow,
  ThirdPartyAccessProductTable,
} from './table.js';

export async function insertApp(db: Executor, row: Insertable<AppRegistrationTable>): Promise<AppRegistrationRow> {
  return db.insertInto('app_registrations').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findPartnerApp(db: Executor, partnerId: string, id: number): Promise<AppRegistrationRow | undefined> {
  return db.selectFrom('app_registrations').selectAll().where('partner_id', '=', partnerId).where('id', '=', id).executeTakeFirst();
}

export async function findAppById(db: Executor, id: number): Promise<AppRegistrationRow | undefined> {
  return db.selectFrom('app_registrations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findPartnerAppByApplicationId(db: Executor, partnerId: string, applicationId: string): Promise<AppRegistrationRow | undefined> {
  return db.selectFrom('app_registrations').selectAll().where('partner_id', '=', partnerId).where('application_id', '=', applicationId).executeTakeFirst();
}

export async function updateApp(db: Executor, id: number, changes: Updateable<AppRegistrationTable>): Promise<AppRegistrationRow | undefined> {
  return db.updateTable('app_registrations').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/**
 * Approves a pending registration whose sandbox approval time has come; undefined when it is no longer pending or
 * was modified since (another request approved it, or a modification moved its time).
 */
export async function approveDueApp(
  db: Executor,
  row: Pick<AppRegistrationRow, 'id' | 'approve_at'>,
  changes: Updateable<AppRegistrationTable>,
): Promise<AppRegistrationRow | undefined> {
  return db
    .updateTable('app_registrations')
    .set(changes)
    .where('id', '=', row.id)
    .where('status', '=', 'P')
    .where('approve_at', '=', row.approve_at)
    .returningAll()
    .executeTakeFirst();
}

/** The partner's pending registrations whose sandbox approval time has come. */
export async function listDueApps(db: Executor, partnerId: string, now: number): Promise<AppRegistrationRow[]> {
  return db
    .selectFrom('app_registrations')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .where('status', '=', 'P')
    .where('approve_at', 'is not', null)
    .where('approve_at', '<=', now)
    .orderBy('id')
    .execute();
}

export interface AppFilter {
  id?: number;
  applicationId?: string;
  status?: string;
  name?: string;
  submittedFrom?: number;
  modifiedFrom?: number;
}

function filtered(db: Executor, partnerId: string | undefined, filter: AppFilter) {
  let q = db.selectFrom('app_registrations');
  if (partnerId !== undefined) q = q.where('partner_id', '=', partnerId);
  if (filter.id !== undefined) q = q.where('id', '=', filter.id);
  if (filter.applicationId !== undefined) q = q.where('application_id', '=', filter.applicationId);
  if (filter.status !== undefined) q = q.where('status', '=', filter.status as AppStatusLetter);
  if (filter.name !== undefined) q = q.where('app_name', '=', filter.name);
  if (filter.submittedFrom !== undefined) q = q.where('submitted_at', '>=', filter.submittedFrom);
  if (filter.modifiedFrom !== undefined) q = q.where('modified_at', '>=', filter.modifiedFrom);
  return q;
}

/** A page of registrations (the partner's, or every partner's when undefined), oldest first, with their count. */
export async function listApps(
  db: Executor,
  partnerId: string | undefined,
  filter: AppFilter,
  limit: number,
  offset: number,
): Promise<{ found: number; rows: AppRegistrationRow[] }> {
  const count = await filtered(db, partnerId, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await filtered(db, partnerId, filter).selectAll().orderBy('id').limit(limit).offset(offset).execute();
  return { found: Number(count.n), rows };
}

/** How many institution logins each of the partner's apps holds, by application id. */
export async function countLoginsByApp(db: Executor, partnerId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('institution_logins')
    .select(['application_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('partner_id', '=', partnerId)
    .where('application_id', 'is not', null)
    .groupBy('application_id')
    .execute();
  return new Map(rows.map((r) => [String(r.application_id), Number(r.n)]));
}

/** How many customers each of the partner's apps has, by application id. */
export async function countCustomersByApp(db: Executor, partnerId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('customers')
    .select(['application_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('partner_id', '=', partnerId)
    .where('application_id', 'is not', null)
    .groupBy('application_id')
    .execute();
  return new Map(rows.map((r) => [String(r.application_id), Number(r.n)]));
}

/**
 * The institutions an app covers: those of the catalogue that sign in through OAuth, and those listed by sources
 * whose sign-in is a redirect to the bank (Enable Banking), a page at a time, by id, with their count.
 */
export async function listOAuthInstitutions(
  db: Executor,
  redirectSources: readonly string[],
  filter: { institutionId?: number },
  limit: number,
  offset: number,
): Promise<{ found: number; rows: { id: number; name: string }[] }> {
  const base = () => {
    let q = db.selectFrom('institutions').where((eb) => {
      const oauth = eb('oauth_enabled', '=', 1);
      if (redirectSources.length === 0) return oauth;
      return eb.or([
        oauth,
        eb(
          'id',
          'in',
          eb
            .selectFrom('listed_institutions')
            .select('institution_id')
            .where('source', 'in', [...redirectSources])
            .where('listed', '=', 1),
        ),
      ]);
    });
    if (filter.institutionId !== undefined) q = q.where('id', '=', filter.institutionId);
    return q;
  };
  const count = await base()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await base().select(['id', 'name']).orderBy('id').limit(limit).offset(offset).execute();
  return { found: Number(count.n), rows: rows.map((r) => ({ id: Number(r.id), name: r.name })) };
}

export async function setCustomerApplication(db: Executor, partnerId: string, customerId: number, applicationId: string, now: number): Promise<void> {
  await db
    .updateTable('customers')
    .set({ application_id: applicationId, updated_at: now })
    .where('partner_id', '=', partnerId)
    .where('id', '=', customerId)
    .execute();
}

export async function setLoginApplication(db: Executor, loginId: number, applicationId: string, now: number): Promise<void> {
  await db.updateTable('institution_logins').set({ application_id: applicationId, updated_at: now }).where('id', '=', loginId).execute();
}

/** The consent dates of a login's accounts: the earliest start and the earliest end among those that have them. */
export async function loginConsentDates(db: Executor, loginId: number): Promise<{ start: number | null; end: number | null }> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => [eb.fn.min('authorization_start_at').as('start'), eb.fn.min('authorization_end_at').as('end')])
    .where('institution_login_id', '=', loginId)
    .executeTakeFirst();
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return { start: num(row?.start), end: num(row?.end) };
}

/** A login of any of the partner's customers. */
export async function findPartnerLogin(db: Executor, partnerId: string, loginId: number) {
  return db.selectFrom('institution_logins').selectAll().where('partner_id', '=', partnerId).where('id', '=', loginId).executeTakeFirst();
}

// ---------------------------------------------------------------------------------------------------------------
// Third-party access keys

export async function insertAccessKey(db: Executor, row: Insertable<ThirdPartyAccessKeyTable>): Promise<void> {
  await db.insertInto('third_party_access_keys').values(row).execute();
}

export async function findPartnerAccessKey(db: Executor, partnerId: string, receiptId: string): Promise<ThirdPartyAccessKeyRow | undefined> {
  return db
    .selectFrom('third_party_access_keys')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .where('receipt_id', '=', receiptId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function findAccessKeyByHash(db: Executor, keyHash: string): Promise<ThirdPartyAccessKeyRow | undefined> {
  return db.selectFrom('third_party_access_keys').selectAll().where('key_hash', '=', keyHash).where('revoked_at', 'is', null).executeTakeFirst();
}

export async function updateAccessKey(db: Executor, receiptId: string, changes: Updateable<ThirdPartyAccessKeyTable>): Promise<void> {
  await db.updateTable('third_party_access_keys').set(changes).where('receipt_id', '=', receiptId).execute();
}

export async function replaceAccessProducts(db: Executor, receiptId: string, rows: Insertable<ThirdPartyAccessProductTable>[]): Promise<void> {
  await db.deleteFrom('third_party_access_products').where('receipt_id', '=', receiptId).execute();
  if (rows.length > 0) await db.insertInto('third_party_access_products').values(rows).execute();
}

export async function listAccessProducts(db: Executor, receiptId: string): Promise<ThirdPartyAccessProductRow[]> {
  return db.selectFrom('third_party_access_products').selectAll().where('receipt_id', '=', receiptId).orderBy('position').execute();
}

/**
 * Counts one call of a product on an account under the key, if a grant of it allows one now (in its time frame and
 * below its maxCalls); false otherwise. One statement, so simultaneous calls never pass the limit together.
 */
export async function countGrantedCall(db: Executor, receiptId: string, product: string, accountId: number, now: number): Promise<boolean> {
  const grant = await db
    .selectFrom('third_party_access_products')
    .select('position')
    .where('receipt_id', '=', receiptId)
    .where('product', '=', product)
    .where('account_id', '=', accountId)
    .where('start_at', '<=', now)
    .where('end_at', '>=', now)
    .where((eb) => eb.or([eb('max_calls', 'is', null), eb('calls', '<', eb.ref('max_calls'))]))
    .orderBy('position')
    .executeTakeFirst();
  if (!grant) return false;
  const result = await db
    .updateTable('third_party_access_products')
    .set((eb) => ({ calls: eb('calls', '+', 1) }))
    .where('receipt_id', '=', receiptId)
    .where('position', '=', grant.position)
    .where((eb) => eb.or([eb('max_calls', 'is', null), eb('calls', '<', eb.ref('max_calls'))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
