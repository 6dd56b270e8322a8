import type { Selectable } from 'kysely';

export interface ConsumerTable {
  /** 32 hexadecimal digits, random. */
  id: string;
  partner_id: string;
  /** Unique: a customer has at most one consumer. */
  customer_id: number;
  /** The consumer's personal data (ConsumerData), sealed with the consumers' key. */
  data_encrypted: string;
  created_at: number;
  updated_at: number;
}

export type ConsumerRow = Selectable<ConsumerTable>;
