import type { Static } from 'typebox';
import type { CustomerRow } from '../../modules/customers/table.js';
import type { Customer } from '../../contract/schemas/customers.js';

/** A customer as the API shows it: absent optional fields are left out. */
export function toCustomer(row: CustomerRow): Static<typeof Customer> {
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
