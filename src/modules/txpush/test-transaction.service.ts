/**
 * Create TxPUSH Test Transaction: injects a transaction into a test institution account, as if the institution had
 * reported it, so a partner can see its listener receive a transaction `created` and an account `modified` event.
 */
import { ServiceError } from '../../contract/errors/service-error.js';
import { randomString } from '../../platform/secrets.js';
import { accountRecord, getAccountRow } from '../aggregation/accounts.service.js';
import { customerNow, type Engine } from '../aggregation/engine.js';
import { recordEvents } from '../aggregation/events.service.js';
import { toTransactionEventRecord } from '../aggregation/records.js';
import { updateAccountRow } from '../aggregation/accounts.repository.js';
import { insertTransactionRow, transactionDateRange } from '../aggregation/transactions.repository.js';
import { getCustomerForPartner } from '../customers/service.js';
import { isTestInstitution } from '../../connectors/testbank/institutions.js';

export interface TestTransactionInput {
  amount: number;
  description: string;
  /** Default active. */
  status?: 'active' | 'pending';
  /** Epoch seconds; defaults to transactionDate. For a pending transaction, the date it is expected to post. */
  postedDate?: number;
  transactionDate: number;
}

/** Test transactions carry refs the institution never uses, so a refresh cannot mistake them for its own. */
const TEST_REF_PREFIX = 'txpush-test:';

/**
 * Stores the transaction on the account (an active one moves the balance by its amount), and records a transaction
 * `created` and an account `modified` event in the same database transaction, which notify the account's
 * subscriptions. Only for accounts at test institutions, and only after the account's initial aggregation.
 */
export async function createTestTransaction(
  engine: Engine,
  partnerId: string,
  customerId: string,
  accountId: string,
  input: TestTransactionInput,
): Promise<{ id: number; createdDate: number }> {
  const status = input.status ?? 'active';
  if (!Number.isFinite(input.amount)) throw new ServiceError('InvalidParameter', 'Invalid parameter (amount): it must be a finite number.');
  return engine.runtime.database.kysely.transaction().execute(async (tx) => {
    const customer = await getCustomerForPartner(tx, partnerId, customerId);
    const account = await getAccountRow(tx, customer, accountId);
    if (!isTestInstitution(Number(account.institution_id))) {
      throw new ServiceError(
        'TestTransactionNotSupported',
        `Account ${account.id} is at institution ${account.institution_id}, which is not a test institution: test transactions are only for test institution accounts.`,
      );
    }
    if (account.first_aggregated_at === null) {
      throw new ServiceError(
        'InitialAggregationRequired',
        `Account ${account.id} has not been aggregated yet: refresh it (POST /aggregation/v1/customers/${customer.id}/accounts) before adding test transactions.`,
      );
    }
    const now = customerNow(engine, customer);
    const description = input.description.trim();
    const row = await insertTransactionRow(tx, {
      partner_id: partnerId,
      customer_id: customer.id,
      account_id: account.id,
      ref: TEST_REF_PREFIX + randomString(24),
      effective_date: input.transactionDate,
      status,
      amount: input.amount,
      description,
      memo: null,
      type: null,
      transaction_date: input.transactionDate,
      posted_date: status === 'active' ? (input.postedDate ?? input.transactionDate) : (input.postedDate ?? null),
      check_num: null,
      normalized_payee_name: description,
      category: 'Uncategorized',
      best_representation: description,
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
      created_at: now,
      updated_at: now,
    });
    const range = await transactionDateRange(tx, account.id);
    const updated = await updateAccountRow(tx, account.id, {
      ...(status === 'active' ? { balance: Math.round((account.balance + input.amount) * 100) / 100 } : {}),
      oldest_transaction_at: range.oldest,
      last_transaction_at: range.last,
      updated_at: now,
    });
    const scope = { partnerId, customerId: customer.id, accountId: account.id };
    await recordEvents(engine, tx, [
      { class: 'transaction', type: 'created', ...scope, record: toTransactionEventRecord(row) },
      { class: 'account', type: 'modified', ...scope, record: await accountRecord(tx, updated) },
    ]);
    return { id: Number(row.id), createdDate: Number(row.created_at) };
  });
}
