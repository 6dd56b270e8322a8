/**
 * A fixed-rate, fixed-payment loan that renews in the same terms when paid off, defined on absolute months:
 * month `start` disburses the principal, months start+1 .. start+term carry payments 1 .. term, and the next
 * cycle begins the month after the last payment. Balances are closed-form, so any month is computed directly.
 */
import { parseMonth } from './calendar.js';

export interface LoanPayment {
  /** 1-based payment number within the cycle. */
  number: number;
  principal: number;
  interest: number;
}

export class Amortisation {
  readonly principal: number;
  /** Monthly rate. */
  readonly rate: number;
  readonly term: number;
  readonly start: number;
  /** The regular payment (principal and interest) in cents; the last payment of a cycle differs slightly. */
  readonly payment: number;

  constructor(principalCents: number, annualRatePercent: number, termMonths: number, startMonth: string) {
    this.principal = principalCents;
    this.rate = annualRatePercent / 100 / 12;
    this.term = termMonths;
    this.start = parseMonth(startMonth);
    this.payment =
      this.rate === 0 ? Math.ceil(principalCents / termMonths) : Math.round((principalCents * this.rate) / (1 - Math.pow(1 + this.rate, -termMonths)));
  }

  /** Position of a month in its cycle: 0 is the disbursement month, 1..term the payment months. */
  cycleMonth(month: number): number {
    const length = this.term + 1;
    return (((month - this.start) % length) + length) % length;
  }

  /** The first month of the cycle that contains `month`. */
  cycleStart(month: number): number {
    return month - this.cycleMonth(month);
  }

  /** Principal outstanding after `k` payments, in cents. */
  balanceAfter(k: number): number {
    if (k <= 0) return this.principal;
    if (k >= this.term) return 0;
    if (this.rate === 0) return Math.max(0, this.principal - this.payment * k);
    const growth = Math.pow(1 + this.rate, k);
    return Math.max(0, Math.round(this.principal * growth - (this.payment * (growth - 1)) / this.rate));
  }

  /** Principal owed at the start of a month (0 in a disbursement month, before the new loan is paid out). */
  owedAtStart(month: number): number {
    const j = this.cycleMonth(month);
    return j === 0 ? 0 : this.balanceAfter(j - 1);
  }

  /** The payment made in a month, or undefined in a disbursement month. */
  paymentIn(month: number): LoanPayment | undefined {
    const k = this.cycleMonth(month);
    if (k === 0) return undefined;
    const before = this.balanceAfter(k - 1);
    const principal = before - this.balanceAfter(k);
    const interest = k < this.term ? this.payment - principal : Math.round(before * this.rate);
    return { number: k, principal, interest };
  }

  /** Interest paid by the first `k` payments of a cycle. */
  interestOfPayments(k: number): number {
    if (k <= 0) return 0;
    if (k < this.term) return this.payment * k - (this.principal - this.balanceAfter(k));
    const beforeLast = this.balanceAfter(this.term - 1);
    return this.interestOfPayments(this.term - 1) + Math.round(beforeLast * this.rate);
  }
}
