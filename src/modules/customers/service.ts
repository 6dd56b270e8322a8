import type { Database, Executor } from '../../platform/db/database.js';
import { stampedMemo } from '../../platform/db/stamped-memo.js';
import { whenReady } from '../../platform/when-ready.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { epochSeconds, type Clock } from '../../platform/clock.js';
import { getInstitution } from '../institutions/service.js';
import type { InstitutionRow } from '../institutions/table.js';
import { isTestInstitution } from '../../connectors/testbank/institutions.js';
import type { Caller } from '../partners/service.js';
import * as repo from './repository.js';
import type { CustomerRow, CustomerType } from './table.js';

/** What customer operations need. */
export interface CustomerContext {
  database: Database;
  clock: Clock;
}

const USERNAME_CHARS = /^[A-Za-z0-9!@.#$%&*_+-]+$/;
const USERNAME_CHAR = /[A-Za-z0-9!@.#$%&*_+-]/;

function describeChar(c: string): string {
  if (c === ' ') return 'a space';
  const code = c.codePointAt(0)!;
  if (code < 32 || code === 127) return `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `"${c}"`;
}

/**
 * The username policy: 6 to 255 characters, each an ASCII letter, a digit or one of ! @ . # $ % & * _ - +.
 * Returns what is wrong, or undefined when the username is fine.
 */
export function usernamePolicyViolation(username: string): string | undefined {
  if (!USERNAME_CHARS.test(username)) {
    const bad = [...username].find((c) => !USERNAME_CHAR.test(c))!;
    const what = bad.codePointAt(0)! > 127 ? `non-ASCII characters such as ${describeChar(bad)} are not allowed` : `${describeChar(bad)} is not allowed`;
    return `it may contain only ASCII letters, digits and ! @ . # $ % & * _ - + (${what})`;
  }
  if (username.length < 6 || username.length > 255) return `it must be 6 to 255 characters long (it has ${username.length})`;
  return undefined;
}

const NAME = /^[\p{L}\p{M}\p{N} '\u2019.,-]*$/u;

/** A first or last name as stored: trimmed, blank becomes null; refused with 45003 when it has odd characters. */
function cleanName(field: string, value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!v) return null;
  if (v.length > 255) throw new ServiceError('InvalidNameCharacters', `Invalid character in name fields: ${field} is longer than 255 characters.`);
  if (!NAME.test(v))
    throw new ServiceError('InvalidNameCharacters', `Invalid character in name fields: ${field} may contain only letters, digits, spaces and ' . , -`);
  return v;
}

const blankToNull = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v.trim());

export interface NewCustomer {
  username: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
  phone?: string | undefined;
  email?: string | undefined;
  applicationId?: string | undefined;
}

/**
 * Adds a customer of the calling partner. Testing customers may be added on every plan; active customers need
 * a production plan (401 ActiveCustomerNotAllowed on Test Drive). Usernames are unique per partner (409).
 */
export async function createCustomer(ctx: CustomerContext, caller: Caller, type: CustomerType, input: NewCustomer): Promise<CustomerRow> {
  if (type === 'active' && caller.plan !== 'production') throw new ServiceError('ActiveCustomerNotAllowed');
  const violation = usernamePolicyViolation(input.username);
  if (violation) throw new ServiceError('UsernamePolicy', `Username is not as per the policy: ${violation}.`);
  const firstName = cleanName('firstName', input.firstName) ?? null;
  const lastName = cleanName('lastName', input.lastName) ?? null;
  const db = ctx.database.kysely;
  if (await repo.findCustomerByUsername(db, caller.partnerId, input.username)) throw new ServiceError('UsernameNotAvailable');
  const now = epochSeconds(ctx.clock);
  try {
    return await repo.insertCustomer(db, {
      partner_id: caller.partnerId,
      username: input.username,
      first_name: firstName,
      last_name: lastName,
      phone: blankToNull(input.phone),
      email: blankToNull(input.email),
      application_id: blankToNull(input.applicationId),
      type,
      created_at: now,
      updated_at: now,
    });
  } catch (e) {
    // Two requests raced for the same username: the unique constraint let one through.
    if (await repo.findCustomerByUsername(db, caller.partnerId, input.username)) throw new ServiceError('UsernameNotAvailable');
    throw e;
  }
}

/** Customer ids are numeric strings; anything else cannot name a customer. */
export function parseCustomerId(customerId: string | number): number | undefined {
  const text = String(customerId).trim();
  if (!/^\d{1,16}$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}

/**
 * The calling partner's customer with this id. An unknown id, a malformed one and another partner's customer
 * all give the same 404 ResourceNotFound ("Customer not found."), so ids of other partners cannot be probed.
 */
export async function getCustomerForPartner(db: Executor, partnerId: string, customerId: string | number): Promise<CustomerRow> {
  const id = parseCustomerId(customerId);
  const row = id === undefined ? undefined : await repo.findCustomer(db, partnerId, id);
  if (!row) throw customerNotFound();
  return row;
}

/**
 * getCustomerForPartner for reads outside any transaction: the row is kept in memory until a partner, token or
 * customer changes (StampedMemo; `stamp`: the change stamp the request took on arrival; now when absent), so the hot
 * reads (transaction and account lists) cost no statement for it, and get the row at once, without a promise.
 */
export function readCustomerForPartner(
  database: Database,
  partnerId: string,
  customerId: string | number,
  stamp?: string,
): Readonly<CustomerRow> | Promise<Readonly<CustomerRow>> {
  const id = parseCustomerId(customerId);
  if (id === undefined) throw customerNotFound();
  return whenReady(
    stampedMemo<CustomerRow>(database, 'customer').read(`${partnerId}\n${id}`, () => repo.findCustomer(database.kysely, partnerId, id), stamp),
    (row) => {
      if (!row) throw customerNotFound();
      return row;
    },
  );
}

/** A malformed id and a missing customer are the same 404. */
function customerNotFound(): ServiceError {
  return new ServiceError('ResourceNotFound', 'Customer not found.');
}

export interface CustomerQuery {
  search?: string | undefined;
  username?: string | undefined;
  /** '' or absent: every type. */
  type?: string | undefined;
  start: number;
  limit: number;
}

export interface CustomerPage {
  found: number;
  displaying: number;
  moreAvailable: boolean;
  customers: CustomerRow[];
}

const isCustomerType = (t: string): t is CustomerType => t === 'testing' || t === 'active';

/** Get Customers: filters, then pages (start is the 1-based index of the first record). */
export async function listCustomers(db: Executor, partnerId: string, query: CustomerQuery): Promise<CustomerPage> {
  const type = query.type?.trim() ?? '';
  if (type !== '' && !isCustomerType(type))
    throw new ServiceError('InvalidCustomerType', `Invalid customer type. Use testing, active, or leave type empty for all (got "${type}").`);
  const search = query.search?.trim() ? query.search.trim() : undefined;
  const filter = { search, username: query.username, type: type === '' ? undefined : type };
  const { found, rows } = await repo.listCustomers(db, partnerId, filter, query.start - 1, query.limit);
  return { found, displaying: rows.length, moreAvailable: query.start - 1 + rows.length < found, customers: rows };
}

/**
 * Modify Customer: sets firstName and/or lastName (a blank value clears it). At least one of them must be
 * present (10025 otherwise).
 */
export async function modifyCustomer(
  ctx: CustomerContext,
  partnerId: string,
  customerId: string,
  changes: { firstName?: string | undefined; lastName?: string | undefined },
): Promise<void> {
  const customer = await getCustomerForPartner(ctx.database.kysely, partnerId, customerId);
  const firstName = cleanName('firstName', changes.firstName);
  const lastName = cleanName('lastName', changes.lastName);
  if (firstName === undefined && lastName === undefined) throw new ServiceError('NoDataToUpdate', 'No data to update: send firstName, lastName or both.');
  await repo.updateCustomer(
    ctx.database.kysely,
    partnerId,
    customer.id,
    {
      ...(firstName !== undefined ? { first_name: firstName } : {}),
      ...(lastName !== undefined ? { last_name: lastName } : {}),
    },
    epochSeconds(ctx.clock),
  );
}

/**
 * Delete Customer: removes the customer and, through ON DELETE CASCADE foreign keys, everything it owns
 * (institution logins, accounts, transactions, subscriptions), in one transaction.
 */
export async function deleteCustomer(ctx: CustomerContext, partnerId: string, customerId: string): Promise<void> {
  await ctx.database.kysely.transaction().execute(async (tx) => {
    const customer = await getCustomerForPartner(tx, partnerId, customerId);
    await repo.deleteCustomerRow(tx, partnerId, customer.id);
  });
}

/**
 * Whether this customer may link accounts at this institution: testing customers only at test institutions
 * (class testfi); active customers at any institution, test ones included (so a production integration can be
 * tried end to end without real credentials).
 */
export function customerMayUseInstitution(customer: Pick<CustomerRow, 'type'>, institutionId: number): boolean {
  return customer.type === 'active' || isTestInstitution(institutionId);
}

/**
 * Checks that the customer may link accounts at the institution and returns the institution:
 * 404 InstitutionNotFound for an unknown id, 403 InstitutionNotAllowed when the rule above forbids it.
 */
export async function assertCanLinkAt(database: Database, customer: Pick<CustomerRow, 'type'>, institutionId: number): Promise<InstitutionRow> {
  const institution = await getInstitution(database, institutionId);
  if (!customerMayUseInstitution(customer, institution.id)) {
    throw new ServiceError(
      'InstitutionNotAllowed',
      `Testing customers can link accounts only at test institutions (such as 101732 FinBank); ${institution.id} ${institution.name} is not one.`,
    );
  }
  return institution;
}
