/** Customer rows as the contract's records. No queries. */
import type { Static } from 'typebox';
import type { CreatedCustomer, Customer } from '../../contract/schemas/customers.js';
import type { CustomerRow } from './table.js';

export type CustomerRecord = Static<typeof Customer>;
export type CreatedCustomerRecord = Static<typeof CreatedCustomer>;

/** A customer as the API shows it: absent optional fields are left out. */
export function toCustomerRecord(row: CustomerRow): CustomerRecord {
  return {
    id: String(row.id),
    username: row.username,
    ...(row.first_name !== null ? { firstName: row.first_name } : {}),
    ...(row.last_name !== null ? { lastName: row.last_name } : {}),
    ...(row.phone !== null ? { phone: row.phone } : {}),
    ...(row.email !== null ? { email: row.email } : {}),
    type: row.type,
    createdDate: row.created_at,
    lastModifiedDate: row.updated_at,
    ...(row.application_id !== null ? { applicationId: row.application_id } : {}),
  };
}

/** What adding a customer answers (the v1 calls' schema leaves the username out when serialising). */
export function toCreatedCustomerRecord(row: CustomerRow): CreatedCustomerRecord {
  return { id: String(row.id), username: row.username, createdDate: row.created_at };
}
