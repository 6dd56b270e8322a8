/** ACH details: a deposit account's routing and full account numbers, as v1 and v3 (payment instructions) answer them. */
import type { Static } from 'typebox';
import type { AchDetails, PaymentInstructions } from '../../contract/schemas/payments.js';
import type { Runtime } from '../../platform/dependencies.js';
import { getCustomerAccountRow } from '../aggregation/accounts.service.js';
import { achNumbers } from './products.rules.js';

export type AchDetailsRecord = Static<typeof AchDetails>;
export type PaymentInstructionsRecord = Static<typeof PaymentInstructions>;

/** Get Account ACH Details (v1): 404 for another partner's ids, 400 (14020) where the account has no ACH numbers. */
export async function getAchDetails(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
): Promise<AchDetailsRecord> {
  const { routingNumber, accountNumber } = achNumbers(await getCustomerAccountRow(runtime, partnerId, customerId, accountId));
  return { routingNumber, realAccountNumber: accountNumber };
}

/**
 * Get Account ACH Details with RTP/FedNow (v3): the ACH instruction alone, since no source Ledgerlink reads says
 * whether an account takes RTP or FedNow payments; the number is the account's own (tanEnabled false).
 */
export async function getPaymentInstructions(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
): Promise<PaymentInstructionsRecord> {
  const { routingNumber, accountNumber } = achNumbers(await getCustomerAccountRow(runtime, partnerId, customerId, accountId));
  return { paymentInstruction: [{ type: 'ach', accountNumber, tanEnabled: false, descriptors: [{ type: 'routingNumber', value: routingNumber }] }] };
}
