/** Loan payment details: how to pay a loan or mortgage manually, as its institution states it. */
import type { Static } from 'typebox';
import type { LoanPaymentDetails } from '../../contract/schemas/payments.js';
import type { Runtime } from '../../platform/dependencies.js';
import { getCustomerAccountRow } from '../aggregation/accounts.service.js';
import { loanPayment } from './products.rules.js';

export type LoanPaymentDetailsRecord = Static<typeof LoanPaymentDetails>;

/** Epoch seconds as the reference's date-time: `2026-01-15T12:00:00Z`. */
function dateTime(epoch: number): string {
  return new Date(epoch * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Get Loan Payment Details: the loan's number, payment number and address, and what pays it off as of its balance's
 * date (the detail's payoffAmount, where the source gives one). One loan per account: no groups. 400 (14020) for
 * accounts other than loans and mortgages, and loans whose source gives no payment instructions.
 */
export async function getLoanPaymentDetails(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
): Promise<LoanPaymentDetailsRecord> {
  const row = await getCustomerAccountRow(runtime, partnerId, customerId, accountId);
  const { loanNumber, payment } = loanPayment(row);
  const detail = row.detail === null ? {} : (JSON.parse(row.detail) as { payoffAmount?: unknown });
  const payoff =
    typeof detail.payoffAmount === 'number' && detail.payoffAmount > 0 ? { amount: detail.payoffAmount, date: dateTime(Number(row.balance_date)) } : undefined;
  const id = String(row.id);
  return {
    loanNumber,
    loanPaymentNumber: payment.paymentNumber,
    loanPaymentAddress: payment.paymentAddress,
    accountDetail: {
      accountId: id,
      accountNumber: loanNumber,
      accountPaymentNumber: payment.paymentNumber,
      accountPaymentAddress: payment.paymentAddress,
      ...(payoff ? { accountFuturePayoffAmount: payoff.amount, accountFuturePayoffDate: payoff.date } : {}),
      loanDetail: [
        {
          accountId: id,
          loanNumber,
          loanPaymentNumber: payment.paymentNumber,
          loanPaymentAddress: payment.paymentAddress,
          ...(payoff ? { loanFuturePayoffAmount: payoff.amount, loanFuturePayoffDate: payoff.date } : {}),
        },
      ],
    },
  };
}
