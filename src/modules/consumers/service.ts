/**
 * Consumers (docs/consumers.md): the person a customer stands for, whom reports name. One per customer, removed with
 * it. Personal data is kept sealed (AES-256-GCM, key derived from the master key) in one column; only ids and dates
 * are in clear.
 */
import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import type { ConsumerUpdate, NewConsumer } from '../../contract/schemas/consumers.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { epochSeconds } from '../../platform/clock.js';
import type { Runtime } from '../../platform/dependencies.js';
import { decryptValue, encryptValue } from '../../platform/secrets.js';
import { getCustomerForPartner } from '../customers/service.js';
import { type BirthDate, type ConsumerData, type ConsumerRecord, type CreatedConsumerRecord, toConsumerRecord, toCreatedConsumerRecord } from './records.js';
import * as repo from './repository.js';
import type { ConsumerRow } from './table.js';

type Deps = Pick<Runtime, 'database' | 'clock' | 'keys'>;
export type NewConsumerInput = Static<typeof NewConsumer>;
export type ConsumerChanges = Static<typeof ConsumerUpdate>;

const KEY_PURPOSE = 'consumer-personal-data';

function seal(deps: Pick<Runtime, 'keys'>, data: ConsumerData): string {
  return encryptValue(deps.keys.derive(KEY_PURPOSE), JSON.stringify(data));
}

function open(deps: Pick<Runtime, 'keys'>, row: ConsumerRow): ConsumerData {
  return JSON.parse(decryptValue(deps.keys.derive(KEY_PURPOSE), row.data_encrypted)) as ConsumerData;
}

// Formats (docs/consumers.md, "Fields").
const SSN = /^\d{3}-?\d{2}-?\d{4}$/;
const PHONE = /^[0-9+()\-. ]+$/;
const PHONE_MAX = 15;
const PHONE_MIN_DIGITS = 7;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_MAX = 254;
const ZIP = /^\d{5}(-\d{4})?$/;
const TEXT_MAX = 255;
const URL_MIN = 2;
const URL_MAX = 999;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const EARLIEST_BIRTH_YEAR = 1900;
/** The states, the District of Columbia, the territories and the military post codes. */
const US_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY ' +
    'AS GU MP PR VI UM AA AE AP'
  ).split(' '),
);

function invalid(field: string, rule: string): ServiceError {
  return new ServiceError('ConsumerFieldInvalid', `Invalid format for field consumer.${field}. ${rule}`);
}

/** A text field trimmed; refused when longer than `max` or holding control characters. Blank is undefined. */
function cleanText(field: string, value: string | undefined, max = TEXT_MAX): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (CONTROL.test(v)) throw invalid(field, 'Control characters are not allowed.');
  if (v.length > max) throw invalid(field, `At most ${max} characters are allowed.`);
  return v;
}

/** A field the consumer cannot be without: blank is the 10005 of a missing one. */
function requiredText(field: string, value: string | undefined): string {
  const v = cleanText(field, value);
  if (v === undefined) throw new ServiceError('MissingParameter', `Missing parameter (${field})`);
  return v;
}

function cleanState(field: string, value: string | undefined): string | undefined {
  const v = cleanText(field, value);
  if (v === undefined) return undefined;
  const code = v.toUpperCase();
  if (!US_STATES.has(code)) throw invalid(field, 'Required format is a two-letter US state code, such as UT.');
  return code;
}

function cleanZip(field: string, value: string | undefined): string | undefined {
  const v = cleanText(field, value);
  if (v !== undefined && !ZIP.test(v)) throw invalid(field, 'Required format is 5 digits, or ZIP+4 (84123-4567).');
  return v;
}

function cleanPhone(field: string, value: string | undefined): string | undefined {
  const v = cleanText(field, value);
  if (v === undefined) return undefined;
  if (v.length > PHONE_MAX || !PHONE.test(v) || v.replace(/\D/g, '').length < PHONE_MIN_DIGITS) {
    throw invalid(field, `Required format is at most ${PHONE_MAX} characters of digits, spaces and + ( ) - . with at least ${PHONE_MIN_DIGITS} digits.`);
  }
  return v;
}

function cleanEmail(field: string, value: string | undefined): string | undefined {
  const v = cleanText(field, value, EMAIL_MAX);
  if (v !== undefined && !EMAIL.test(v)) throw invalid(field, 'Required format is an e-mail address (name@example.com).');
  return v;
}

/** Nine digits without hyphens. The message never repeats the value. */
function cleanSsn(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (!SSN.test(v)) throw invalid('ssn', 'Required format is 9 digits, with or without hyphens (123-45-6789).');
  return v.replace(/-/g, '');
}

/** A birth date: every part given, a real calendar day, from 1900 to today. An empty object is no birthday. */
function cleanBirthday(value: Partial<BirthDate> | undefined, now: number): BirthDate | undefined {
  if (value === undefined) return undefined;
  const { year, month, dayOfMonth } = value;
  if (year === undefined && month === undefined && dayOfMonth === undefined) return undefined;
  if (year === undefined || month === undefined || dayOfMonth === undefined) throw invalid('birthday', 'Required are year, month and dayOfMonth.');
  const day = new Date(Date.UTC(year, month - 1, dayOfMonth));
  const real = year >= 1000 && day.getUTCFullYear() === year && day.getUTCMonth() === month - 1 && day.getUTCDate() === dayOfMonth;
  if (!real) throw invalid('birthday', 'Required is a calendar day: a four-digit year, a month from 1 to 12 and a day of that month.');
  if (year < EARLIEST_BIRTH_YEAR || day.getTime() > now * 1000) throw invalid('birthday', `Required is a day from ${EARLIEST_BIRTH_YEAR} to today.`);
  return { year, month, dayOfMonth };
}

function cleanEndUser(value: NewConsumerInput['endUser']): ConsumerData['endUser'] {
  if (value === undefined) return undefined;
  const url = cleanText('endUser.url', value.url, URL_MAX);
  if (url !== undefined && url.length < URL_MIN) throw invalid('endUser.url', `Required are ${URL_MIN} to ${URL_MAX} characters.`);
  const email = cleanEmail('endUser.email', value.email);
  return {
    name: requiredText('endUser.name', value.name),
    address: requiredText('endUser.address', value.address),
    city: requiredText('endUser.city', value.city),
    state: cleanState('endUser.state', requiredText('endUser.state', value.state))!,
    zip: cleanZip('endUser.zip', requiredText('endUser.zip', value.zip))!,
    phone: cleanPhone('endUser.phone', requiredText('endUser.phone', value.phone))!,
    ...(email !== undefined ? { email } : {}),
    ...(url !== undefined ? { url } : {}),
  };
}

/** Leaves out what is undefined, so the sealed document holds only what was given. */
function compact(data: Record<string, unknown>): ConsumerData {
  return Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) as unknown as ConsumerData;
}

/** Either of each pair must be there (the reference's conditionally required fields). */
function requireEitherOf(data: ConsumerData): void {
  if (data.ssn === undefined && data.birthday === undefined)
    throw new ServiceError('MissingParameter', 'Missing parameter (ssn or birthday): give either or both.');
  if (data.phone === undefined && data.email === undefined)
    throw new ServiceError('MissingParameter', 'Missing parameter (phone or email): give either or both.');
}

/** The optional fields of a body, checked and cleaned; a field the body does not have stays undefined. */
function optionalFields(input: ConsumerChanges, now: number) {
  return {
    address: cleanText('address', input.address),
    city: cleanText('city', input.city),
    zip: cleanZip('zip', input.zip),
    phone: cleanPhone('phone', input.phone),
    ssn: cleanSsn(input.ssn),
    birthday: cleanBirthday(input.birthday, now),
    email: cleanEmail('email', input.email),
    suffix: cleanText('suffix', input.suffix),
    endUser: cleanEndUser(input.endUser),
  };
}

function newConsumerId(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Create Consumer: the partner's customer (404 otherwise) gets its consumer, checked field by field (10100 for a
 * format, 10005 for what is missing); a second one is refused with 409 (11000), also when two requests race.
 */
export async function createConsumer(deps: Deps, partnerId: string, customerId: string, input: NewConsumerInput): Promise<CreatedConsumerRecord> {
  const db = deps.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const now = epochSeconds(deps.clock);
  const data = compact({
    firstName: requiredText('firstName', input.firstName),
    lastName: requiredText('lastName', input.lastName),
    state: cleanState('state', requiredText('state', input.state)),
    ...optionalFields(input, now),
  });
  requireEitherOf(data);
  const exists = () => new ServiceError('ConsumerExists', `A consumer already exists for customer ${customer.id}`);
  if (await repo.findConsumerOfCustomer(db, customer.id)) throw exists();
  try {
    const row = await repo.insertConsumer(db, {
      id: newConsumerId(),
      partner_id: partnerId,
      customer_id: customer.id,
      data_encrypted: seal(deps, data),
      created_at: now,
      updated_at: now,
    });
    return toCreatedConsumerRecord(row);
  } catch (e) {
    // Another request created it meanwhile: the unique customer_id let only one through.
    if (await repo.findConsumerOfCustomer(db, customer.id)) throw exists();
    throw e;
  }
}

const CONSUMER_ID = /^[0-9a-f]{32}$/;
/** The fields a consumer has (a body's other members are ignored). */
const CONSUMER_FIELDS = [
  'firstName',
  'lastName',
  'state',
  'address',
  'city',
  'zip',
  'phone',
  'ssn',
  'birthday',
  'email',
  'suffix',
  'endUser',
] as const satisfies readonly (keyof ConsumerChanges)[];

/** The partner's consumer row; an unknown id, a malformed one and another partner's all give the same 404. */
async function consumerRowForPartner(deps: Deps, partnerId: string, consumerId: string): Promise<ConsumerRow> {
  const id = consumerId.trim().toLowerCase();
  const row = CONSUMER_ID.test(id) ? await repo.findConsumer(deps.database.kysely, partnerId, id) : undefined;
  if (!row) throw new ServiceError('ResourceNotFound', `Cannot find consumer with id ${consumerId}.`);
  return row;
}

/** Get Consumer. */
export async function getConsumer(deps: Deps, partnerId: string, consumerId: string): Promise<ConsumerRecord> {
  const row = await consumerRowForPartner(deps, partnerId, consumerId);
  return toConsumerRecord(row, open(deps, row));
}

/** The consumer of the partner's customer (404 for another partner's customer), or undefined when it has none. */
export async function findConsumerOfCustomer(deps: Deps, partnerId: string, customerId: string): Promise<ConsumerRecord | undefined> {
  const customer = await getCustomerForPartner(deps.database.kysely, partnerId, customerId);
  const row = await repo.findConsumerOfCustomer(deps.database.kysely, customer.id);
  return row ? toConsumerRecord(row, open(deps, row)) : undefined;
}

/** Get Consumer for Customer: 404 when the customer is not the partner's or has no consumer. */
export async function getConsumerOfCustomer(deps: Deps, partnerId: string, customerId: string): Promise<ConsumerRecord> {
  const consumer = await findConsumerOfCustomer(deps, partnerId, customerId);
  if (!consumer) throw new ServiceError('ResourceNotFound', `Cannot find consumer for customer with id ${customerId}.`);
  return consumer;
}

/**
 * Modify Consumer: the fields given replace the stored ones, the others stay. A blank optional field clears it; the
 * required ones (firstName, lastName, state) cannot be blank, and ssn or birthday and phone or email must remain. A
 * body with no field is 10025.
 */
export async function modifyConsumer(deps: Deps, partnerId: string, consumerId: string, changes: ConsumerChanges): Promise<void> {
  const row = await consumerRowForPartner(deps, partnerId, consumerId);
  const given = CONSUMER_FIELDS.filter((k) => changes[k] !== undefined);
  if (given.length === 0) throw new ServiceError('NoDataToUpdate', 'No data to update: send at least one field of the consumer.');
  const now = epochSeconds(deps.clock);
  const cleaned: Record<string, unknown> = {
    ...(changes.firstName !== undefined ? { firstName: requiredText('firstName', changes.firstName) } : {}),
    ...(changes.lastName !== undefined ? { lastName: requiredText('lastName', changes.lastName) } : {}),
    ...(changes.state !== undefined ? { state: cleanState('state', requiredText('state', changes.state)) } : {}),
    ...optionalFields(changes, now),
  };
  const merged: Record<string, unknown> = { ...open(deps, row) };
  for (const key of given) merged[key] = cleaned[key];
  const data = compact(merged);
  requireEitherOf(data);
  await repo.updateConsumerData(deps.database.kysely, partnerId, row.id, seal(deps, data), now);
}
