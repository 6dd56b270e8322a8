/**
 * Create TxPUSH Test Transaction: injects a transaction into a test institution account, as if the institution had
 * reported it, so a partner can see its listener receive a transaction `created` and an account `modified` event.
 */
import { ServiceError } from '../../contract/errors/service-error.js';
import { randomString } from '../../platform/secrets.js';
import { getAccountRow } from '../aggregation/accounts.service.js';
import { customerNow, type Engine } from '../aggregation/engine.js';
import { injectTransaction } from '../aggregation/injected.service.js';
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
    const row = await injectTransaction(engine, tx, customer, account, {
      ref: TEST_REF_PREFIX + randomString(24),
      amount: input.amount,
      description: input.description.trim(),
      category: 'Uncategorized',
      status,
      transactionDate: input.transactionDate,
      postedDate: status === 'active' ? (input.postedDate ?? input.transactionDate) : (input.postedDate ?? null),
      now,
    });
    return { id: Number(row.id), createdDate: Number(row.created_at) };
  });
}
