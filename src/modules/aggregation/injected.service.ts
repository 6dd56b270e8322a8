/**
 * Transactions Ledgerlink itself puts on an aggregated account, as if the institution had reported them: TxPUSH test
 * transactions and micro entry deposits. Their refs start with a prefix the institution never uses, so a refresh
 * cannot mistake them for its own.
 */
import type { Executor } from '../../platform/db/database.js';
import type { CustomerRow } from '../customers/table.js';
import { updateAccountRow } from './accounts.repository.js';
import { accountRecord } from './accounts.service.js';
import type { Engine } from './engine.js';
import { recordEvents } from './events.service.js';
import { toTransactionEventRecord } from './records.js';
import type { AccountRow, TransactionRow } from './table.js';
import { insertTransactionRow, transactionDateRange } from './transactions.repository.js';

export interface InjectedTransaction {
  ref: string;
  amount: number;
  description: string;
  memo?: string | null;
  category: string;
  status: 'active' | 'pending';
  transactionDate: number;
  /** For a pending transaction, the date it is expected to post (or null). */
  postedDate: number | null;
  /** Customer clock, epoch seconds. */
  now: number;
}

/**
 * Stores the transaction on the account (an active one moves the balance by its amount) and records a transaction
 * `created` and an account `modified` event, in the caller's database transaction.
 */
export async function injectTransaction(
  engine: Engine,
  tx: Executor,
  customer: CustomerRow,
  account: AccountRow,
  input: InjectedTransaction,
): Promise<TransactionRow> {
  const row = await insertTransactionRow(tx, {
    partner_id: customer.partner_id,
    customer_id: customer.id,
    account_id: account.id,
    ref: input.ref,
    effective_date: input.transactionDate,
    status: input.status,
    amount: input.amount,
    description: input.description,
    memo: input.memo ?? null,
    type: null,
    transaction_date: input.transactionDate,
    posted_date: input.postedDate,
    check_num: null,
    normalized_payee_name: input.description,
    category: input.category,
    best_representation: input.description,
    country: 'USA',
    bonus_amount: null,
    escrow_amount: null,
    fee_amount: null,
    interest_amount: null,
    principal_amount: null,
    unit_quantity: null,
    unit_value: null,
    investment_transaction_type: null,
    ticker: null,
    security_id: null,
    created_at: input.now,
    updated_at: input.now,
  });
  const range = await transactionDateRange(tx, account.id);
  const updated = await updateAccountRow(tx, account.id, {
    ...(input.status === 'active' ? { balance: Math.round((account.balance + input.amount) * 100) / 100 } : {}),
    oldest_transaction_at: range.oldest,
    last_transaction_at: range.last,
    updated_at: input.now,
  });
  const scope = { partnerId: customer.partner_id, customerId: customer.id, accountId: account.id };
  await recordEvents(engine, tx, [
    { class: 'transaction', type: 'created', ...scope, record: toTransactionEventRecord(row) },
    { class: 'account', type: 'modified', ...scope, record: await accountRecord(tx, updated) },
  ]);
  return row;
}
