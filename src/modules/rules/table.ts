import type { Generated, Selectable } from 'kysely';

/** A partner's transaction rule (service.ts). */
export interface RuleTable {
  /** Service-assigned, from 9100000000 up. */
  id: Generated<number>;
  partner_id: string;
  name: string | null;
  /** Lower applies first; rules of one position in id order. */
  position: number;
  /** The conditions, JSON (the contract's RuleCondition[]). */
  conditions: string;
  /** The actions, JSON (the contract's RuleAction[]). */
  actions: string;
  created_at: number;
  updated_at: number;
}

export type RuleRow = Selectable<RuleTable>;

/** What the source gave for a transaction a rule changed: applying the rules again starts from these. */
export interface TransactionRuleSourceTable {
  transaction_id: number;
  partner_id: string;
  category: string | null;
  normalized_payee_name: string | null;
  memo: string | null;
  updated_at: number;
}

export type TransactionRuleSourceRow = Selectable<TransactionRuleSourceTable>;
