import type { Generated, Selectable } from 'kysely';

export type CustomerType = 'testing' | 'active';

export interface CustomerTable {
  /** Service-assigned, numeric, from 1005000000 up. */
  id: Generated<number>;
  partner_id: string;
  /** Unique per partner, case-sensitive. */
  username: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  email: string | null;
  application_id: string | null;
  type: CustomerType;
  created_at: number;
  updated_at: number;
  /** Seconds this customer's clock runs ahead of the service clock (sandbox time travel); 0 normally. */
  clock_offset_seconds: Generated<number>;
  /** Moves on with every committed change to the customer's logins, accounts, positions and transactions (database triggers). */
  data_version: Generated<number>;
}

export type CustomerRow = Selectable<CustomerTable>;
