/** Consumers as the contract's records, and the personal data they are made of. No queries. */
import type { Static } from 'typebox';
import type { Consumer, ConsumerEndUser, CreatedConsumer } from '../../contract/schemas/consumers.js';
import type { ConsumerRow } from './table.js';

export type ConsumerRecord = Static<typeof Consumer>;
export type CreatedConsumerRecord = Static<typeof CreatedConsumer>;
export type EndUserRecord = Static<typeof ConsumerEndUser>;

/** A calendar day, all three parts checked. */
export interface BirthDate {
  year: number;
  month: number;
  dayOfMonth: number;
}

/** What the sealed column holds: the consumer's personal data as checked and cleaned, absent fields left out. */
export interface ConsumerData {
  firstName: string;
  lastName: string;
  state: string;
  address?: string;
  city?: string;
  zip?: string;
  phone?: string;
  /** Nine digits, without hyphens. */
  ssn?: string;
  birthday?: BirthDate;
  email?: string;
  suffix?: string;
  endUser?: EndUserRecord;
}

/**
 * A consumer as the API shows it. The reference requires every field of the record although a consumer may be created
 * without most of them: a field not given is an empty string (the birthday an empty object), never left out, so that
 * clients generated from the reference read it. The SSN shows only its last four digits.
 */
export function toConsumerRecord(row: ConsumerRow, data: ConsumerData): ConsumerRecord {
  return {
    id: row.id,
    firstName: data.firstName,
    lastName: data.lastName,
    customerId: Number(row.customer_id),
    address: data.address ?? '',
    city: data.city ?? '',
    state: data.state,
    zip: data.zip ?? '',
    phone: data.phone ?? '',
    ssn: data.ssn?.slice(-4) ?? '',
    birthday: data.birthday ? { ...data.birthday } : {},
    email: data.email ?? '',
    createdDate: Number(row.created_at),
    ...(data.suffix !== undefined ? { suffix: data.suffix } : {}),
    ...(data.endUser !== undefined ? { endUser: data.endUser } : {}),
  };
}

export function toCreatedConsumerRecord(row: ConsumerRow): CreatedConsumerRecord {
  return { id: row.id, createdDate: Number(row.created_at), customerId: Number(row.customer_id) };
}
