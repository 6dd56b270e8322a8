/**
 * The books of one test profile at one institution: a pure function of (institution, profile, calendar month).
 *
 * Every account has a closed-form balance at the start of each month, `startCents(m)`, and a list of entries
 * for each month whose amounts add up to exactly `startCents(m + 1) - startCents(m)`. Scheduled items (pay,
 * bills, transfers, card and loan payments, interest) are computed directly; the flexible remainder becomes
 * day-to-day spending (spending.ts). Investment accounts are the exception: their cash is carried forward
 * month by month from the account's opening (cheap arithmetic, memoised), because trades depend on holdings.
 *
 * So any month can be produced without replaying history, two customers with the same profile see the same
 * books, and a balance "now" is the month-start balance of last month plus what has posted since.
 */
import type { TransactionCategory } from '../categories.js';
import { Amortisation } from './amortisation.js';
import { ACH_TIME, type LedgerEntry, masked, POSTING_HOUR, sumCents } from './entries.js';
import {
  businessDayInMonth,
  dayInMonth,
  dayOf,
  dayStart,
  daysInMonth,
  firstDayOfMonth,
  isWeekend,
  monthOfDay,
  monthOfYear,
  parseDay,
  parseMonth,
} from './calendar.js';
import { describe, spendMonth, type SpendingPlace } from './spending.js';
import { MIXES, merchant } from './merchants.js';
import type {
  AccountSpec,
  BillSpec,
  CardSpec,
  CheckingSpec,
  IncomeSpec,
  InvestmentSpec,
  LineOfCreditSpec,
  LoanSpec,
  ProfileSpec,
  SavingsSpec,
  TransferSpec,
} from './profile-spec.js';
import { noiseOf, Random, seedOf } from './random.js';
import { incomePerUnit, priceOn, type Security, security } from './securities.js';

/** The posting time of an entry, epoch seconds. */
export function postedAt(e: LedgerEntry): number {
  return e.lag === 0 ? dayStart(e.day) + e.time : dayStart(e.day + e.lag) + POSTING_HOUR * 3600;
}

export function transactionAt(e: LedgerEntry): number {
  return dayStart(e.day) + e.time;
}

function byDate(a: LedgerEntry, b: LedgerEntry): number {
  return a.day - b.day || a.time - b.time;
}

/** An account's identity at the institution: stable for a profile at an institution. */
export interface AccountIdentity {
  ref: string;
  number: string;
  last4: string;
  /** Masked number shown in statement text of other accounts. */
  masked: string;
}

/** The Luhn check digit of a string of digits (card numbers, payment coupons). */
export function luhnDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

function identityOf(seed: number, spec: AccountSpec): AccountIdentity {
  const a = seedOf(seed, spec.key, 'number-a');
  const b = seedOf(seed, spec.key, 'number-b');
  const ref = String(1_000_000_000 + (seedOf(seed, spec.key, 'ref') % 8_999_999_999));
  if (spec.type === 'creditCard') {
    const body = `4${String(a % 1_000_000).padStart(6, '0')}${String(b % 100_000_000).padStart(8, '0')}`;
    const full = body + luhnDigit(body);
    const last4 = full.slice(-4);
    return { ref, number: `XXXXXXXXXXXX${last4}`, last4, masked: masked(last4) };
  }
  const number = `${100_000 + (a % 900_000)}${String(b % 10_000).padStart(4, '0')}`;
  const last4 = number.slice(-4);
  return { ref, number, last4, masked: masked(last4) };
}

/** Money moving on a schedule; emits its entries for one side (account) and month. */
interface Flow {
  readonly accounts: readonly string[];
  emit(month: number, key: string, out: LedgerEntry[]): void;
}

export abstract class AccountModel<S extends AccountSpec = AccountSpec> {
  readonly identity: AccountIdentity;

  constructor(
    readonly ledger: Ledger,
    readonly spec: S,
    readonly position: number,
  ) {
    this.identity = identityOf(ledger.seed, spec);
  }

  get key(): string {
    return this.spec.key;
  }

  /** The balance in cents counting every entry dated before the first day of `month`. */
  abstract startCents(month: number): number;

  /** The entries dated in `month`, in no particular order; they add up to startCents(month + 1) - startCents(month). */
  abstract monthEntries(month: number): LedgerEntry[];

  protected rng(month: number, purpose: string): Random {
    return Random.of(this.ledger.seed, this.key, purpose, month);
  }

  protected noise(month: number, purpose = 'start'): number {
    return noiseOf(this.ledger.seed, this.key, purpose, month);
  }
}

/** Where an account's purchases happen: debit card purchases on a deposit account, or card purchases. */
function spendingPlace(ledger: Ledger, onCard: boolean, foreignFee = 0): SpendingPlace {
  return { seed: ledger.seed, city: ledger.spec.owner.city, state: ledger.spec.owner.state, onCard, foreignFee };
}

export class CheckingModel extends AccountModel<CheckingSpec> {
  startCents(month: number): number {
    return Math.round(this.spec.level * 100 * (1 + this.swing * this.noise(month)));
  }

  /** By default the month-start balance swings by 30% of a month's spending, at most 20% of the level. */
  private get swing(): number {
    return this.spec.swing ?? Math.min(0.2, (0.3 * this.spec.spend.typical) / this.spec.level);
  }

  monthEntries(month: number): LedgerEntry[] {
    const out = this.ledger.flowEntries(this.key, month);
    const rng = this.rng(month, 'own');
    const start = this.startCents(month);
    for (let i = 0; i < (this.spec.atm ?? 0); i++) {
      const day = firstDayOfMonth(month) + rng.int(0, daysInMonth(month) - 1);
      const amount = rng.pick([40, 60, 60, 80, 100, 100, 120, 200]) * 100;
      const foreign = rng.chance(0.3);
      const where = `${1000 + rng.int(0, 8999)} ${this.ledger.spec.owner.city} ${this.ledger.spec.owner.state}`;
      const time = rng.int(9 * 3600, 22 * 3600);
      out.push({
        day,
        time,
        lag: 0,
        cents: -amount,
        type: 'atm',
        description: `ATM WITHDRAWAL ${foreign ? 'NON-FINBANK ' : ''}${where}`,
        payee: 'ATM Withdrawal',
        category: 'Cash & ATM',
        country: 'USA',
      });
      if (foreign) {
        out.push({
          day,
          time: time + 1,
          lag: 0,
          cents: -350,
          feeCents: 350,
          type: 'fee',
          description: 'NON-FINBANK ATM FEE',
          memo: where,
          payee: 'FinBank',
          category: 'ATM Fee',
          country: 'USA',
        });
      }
    }
    const lastBusinessDay = businessDayInMonth(month, 31);
    if (this.spec.apy) {
      const interest = Math.round((start * this.spec.apy) / 100 / 12);
      if (interest > 0) {
        out.push({
          day: lastBusinessDay,
          time: 3600,
          lag: 0,
          cents: interest,
          interestCents: interest,
          type: 'interest',
          description: 'INTEREST PAYMENT',
          payee: 'FinBank',
          category: 'Interest Income',
          country: 'USA',
        });
      }
    }
    if (this.spec.fee && start < this.spec.fee.waiveAbove * 100) {
      const fee = Math.round(this.spec.fee.amount * 100);
      out.push({
        day: lastBusinessDay,
        time: 3600,
        lag: 0,
        cents: -fee,
        feeCents: fee,
        type: 'serviceCharge',
        description: 'MONTHLY MAINTENANCE FEE',
        memo: `Balance below $${this.spec.fee.waiveAbove}`,
        payee: 'FinBank',
        category: 'Service Fee',
        country: 'USA',
      });
    }
    if (this.spec.overdraft) out.push(...this.overdrafts(start, out));
    const flex = this.startCents(month + 1) - start - sumCents(out);
    out.push(
      ...spendMonth(MIXES[this.spec.spend.mix], spendingPlace(this.ledger, false), month, flex, this.spec.spend.typical * 100, this.rng(month, 'spend')),
    );
    return out;
  }

  /**
   * The fees of the month's scheduled debits that the balance (month start plus scheduled items, in date order)
   * cannot cover: paid into the red with an overdraft fee (one a day) down to the overdraft limit, returned unpaid
   * beyond it (the debit and its return the same day, and an NSF fee). Only debits that post at once are judged.
   */
  private overdrafts(start: number, scheduled: readonly LedgerEntry[]): LedgerEntry[] {
    const { fee, limit } = this.spec.overdraft!;
    const feeCents = Math.round(fee * 100);
    const floor = -Math.round(limit * 100);
    const out: LedgerEntry[] = [];
    const charged = new Set<number>();
    const base = { lag: 0, cents: -feeCents, feeCents, type: 'fee', payee: 'FinBank', category: 'Bank Fee', country: 'USA' } as const;
    let balance = start;
    for (const e of [...scheduled].sort(byDate)) {
      const next = balance + e.cents;
      if (e.cents >= 0 || next >= 0 || e.lag > 0) {
        balance = next;
        continue;
      }
      if (next < floor) {
        out.push(
          { ...e, time: e.time + 1, cents: -e.cents, type: 'credit', description: `RETURNED ITEM ${e.description}`, memo: 'Insufficient funds' },
          { ...base, day: e.day, time: e.time + 2, description: 'NSF RETURNED ITEM FEE', memo: e.description },
        );
        balance -= feeCents;
      } else {
        balance = next;
        if (!charged.has(e.day)) {
          charged.add(e.day);
          out.push({ ...base, day: e.day, time: e.time + 1, description: 'OVERDRAFT FEE', memo: `Paid item ${e.description}` });
          balance -= feeCents;
        }
      }
    }
    return out;
  }
}

/**
 * A savings account that grows through the year (a fixed monthly transfer in plus interest) and, once a year in
 * `cycleMonth`, moves the year's savings to another account. Within a cycle the balance follows the
 * compound-interest formula, so every month is closed-form.
 */
export class SavingsModel extends AccountModel<SavingsSpec> {
  /** Net fixed transfer per month, in cents. */
  private deposit = 0;

  setMonthlyDeposit(cents: number): void {
    this.deposit = cents;
  }

  private get monthlyRate(): number {
    return this.spec.apy / 100 / 12;
  }

  /** The cycle (year) a month belongs to and its position 0..11; position 11 is the sweep month. */
  private cycleOf(month: number): { cycle: number; k: number } {
    const offset = month - (this.spec.cycleMonth % 12); // a cycle starts the month after the sweep month
    const cycle = Math.floor(offset / 12);
    return { cycle, k: offset - cycle * 12 };
  }

  private cycleLevel(cycle: number): number {
    const level = this.spec.level * 100;
    const amplitude = Math.min(0.1 * level, 0.3 * 12 * Math.max(this.deposit, (0.1 * level) / 12));
    return Math.round(level + amplitude * noiseOf(this.ledger.seed, this.key, 'cycle', cycle));
  }

  startCents(month: number): number {
    const { cycle, k } = this.cycleOf(month);
    const base = this.cycleLevel(cycle);
    const r = this.monthlyRate;
    if (r === 0) return base + this.deposit * k;
    const growth = Math.pow(1 + r, k);
    return Math.round((base + this.deposit / r) * growth - this.deposit / r);
  }

  /** Interest credited in a sweep month (in other months interest is whatever the formula adds). */
  private sweepMonthInterest(month: number): number {
    return Math.round(this.startCents(month) * this.monthlyRate);
  }

  /** Cents moved to `sweepTo` in a month (negative: moved in from it); 0 outside the sweep month. */
  sweepCents(month: number): number {
    if (this.cycleOf(month).k !== 11) return 0;
    return this.startCents(month) + this.deposit + this.sweepMonthInterest(month) - this.startCents(month + 1);
  }

  monthEntries(month: number): LedgerEntry[] {
    const out = this.ledger.flowEntries(this.key, month);
    const interest = this.startCents(month + 1) - this.startCents(month) - sumCents(out);
    if (interest !== 0) {
      out.push({
        day: businessDayInMonth(month, 31),
        time: 3600,
        lag: 0,
        cents: interest,
        interestCents: interest,
        type: 'interest',
        description: 'INTEREST PAYMENT',
        memo: `APY ${this.spec.apy.toFixed(2)}%`,
        payee: 'FinBank',
        category: 'Interest Income',
        country: 'USA',
      });
    }
    return out;
  }
}

/** A credit card: its statement balance (month start) is closed-form; it is paid in full or in part each month. */
export class CardModel extends AccountModel<CardSpec> {
  startCents(month: number): number {
    return -Math.round(this.spec.level * 100 * (1 + (this.spec.swing ?? 0.25) * this.noise(month)));
  }

  /** Interest charged on the carried balance at the start of a month (0 for cards paid in full). */
  interestCents(month: number): number {
    if (this.spec.pay === 'full') return 0;
    return Math.round((-this.startCents(month) * this.spec.apr) / 100 / 12);
  }

  /** The payment made in a month from `payFrom`. */
  paymentCents(month: number): number {
    const statement = -this.startCents(month);
    if (this.spec.pay === 'full') return statement;
    return Math.min(statement, Math.max(2500, Math.round(statement * this.spec.pay)));
  }

  monthEntries(month: number): LedgerEntry[] {
    const out = this.ledger.flowEntries(this.key, month);
    const first = firstDayOfMonth(month);
    const interest = this.interestCents(month);
    if (interest > 0) {
      out.push({
        day: first,
        time: 3600,
        lag: 0,
        cents: -interest,
        interestCents: interest,
        type: 'interest',
        description: 'PURCHASE INTEREST CHARGE',
        memo: `APR ${this.spec.apr.toFixed(2)}%`,
        payee: 'FinBank',
        category: 'Finance Charge',
        country: 'USA',
      });
    }
    if (this.spec.annualFee && monthOfYear(month) === (this.spec.feeMonth ?? 1)) {
      const fee = Math.round(this.spec.annualFee * 100);
      out.push({
        day: first,
        time: 3700,
        lag: 0,
        cents: -fee,
        feeCents: fee,
        type: 'fee',
        description: 'ANNUAL MEMBERSHIP FEE',
        payee: 'FinBank',
        category: 'Fees & Charges',
        country: 'USA',
      });
    }
    if (this.spec.cashBack && monthOfYear(month) % 3 === 1) {
      const reward = Math.round(-this.startCents(month) * 3 * this.spec.cashBack);
      if (reward > 0) {
        out.push({
          day: first + 2,
          time: 3600,
          lag: 0,
          cents: reward,
          bonusCents: reward,
          type: 'credit',
          description: 'CASH BACK REWARD REDEMPTION',
          payee: 'FinBank',
          category: 'Bonus',
          country: 'USA',
        });
      }
    }
    const flex = this.startCents(month + 1) - this.startCents(month) - sumCents(out);
    const typical = this.spec.pay === 'full' ? this.spec.level : this.spec.level * this.spec.pay;
    out.push(
      ...spendMonth(
        MIXES[this.spec.mix],
        spendingPlace(this.ledger, true, this.spec.foreignFee ?? 0.03),
        month,
        flex,
        Math.round(typical * 100),
        this.rng(month, 'spend'),
      ),
    );
    return out;
  }
}

/** An installment loan or mortgage: balances and payment splits come from its amortisation schedule. */
export class LoanModel extends AccountModel<LoanSpec> {
  readonly schedule: Amortisation;

  constructor(ledger: Ledger, spec: LoanSpec, position: number) {
    super(ledger, spec, position);
    this.schedule = new Amortisation(Math.round(spec.principal * 100), spec.rate, spec.termMonths, spec.start);
  }

  get escrowCents(): number {
    return Math.round((this.spec.escrow ?? 0) * 100);
  }

  startCents(month: number): number {
    return -this.schedule.owedAtStart(month);
  }

  /** The full payment drawn from `payFrom` in a month (principal, interest and escrow), or 0. */
  paymentCents(month: number): number {
    const p = this.schedule.paymentIn(month);
    return p ? p.principal + p.interest + this.escrowCents : 0;
  }

  paymentDay(month: number): number {
    return businessDayInMonth(month, this.spec.payDay);
  }

  monthEntries(month: number): LedgerEntry[] {
    const out = this.ledger.flowEntries(this.key, month);
    const payment = this.schedule.paymentIn(month);
    if (!payment) {
      out.push({
        day: dayInMonth(month, 5),
        time: ACH_TIME,
        lag: 0,
        cents: -this.schedule.principal,
        principalCents: this.schedule.principal,
        type: 'debit',
        description: 'LOAN DISBURSEMENT',
        memo: this.spec.collateral,
        payee: this.spec.lender,
        category: 'Loans',
        country: 'USA',
      });
      return out;
    }
    const day = this.paymentDay(month);
    out.push({
      day,
      time: ACH_TIME + 60,
      lag: 0,
      cents: -payment.interest,
      interestCents: payment.interest,
      type: 'interest',
      description: 'INTEREST CHARGED',
      memo: `Rate ${this.spec.rate.toFixed(3)}%`,
      payee: this.spec.lender,
      category: 'Loan Interest',
      country: 'USA',
    });
    if (this.escrowCents > 0) {
      out.push({
        day,
        time: ACH_TIME + 120,
        lag: 0,
        cents: -this.escrowCents,
        escrowCents: this.escrowCents,
        type: 'transfer',
        description: 'ESCROW DEPOSIT',
        memo: 'Property tax and homeowners insurance',
        payee: this.spec.lender,
        category: 'Property Tax',
        country: 'USA',
      });
    }
    return out;
  }
}

/** A home equity line of credit: drawn by checks to contractors, paid monthly (2% plus interest). */
export class LineOfCreditModel extends AccountModel<LineOfCreditSpec> {
  startCents(month: number): number {
    return -Math.round(this.spec.level * 100 * (1 + (this.spec.swing ?? 0.15) * this.noise(month)));
  }

  interestCents(month: number): number {
    return Math.round((-this.startCents(month) * this.spec.apr) / 100 / 12);
  }

  paymentCents(month: number): number {
    return Math.max(10_000, Math.round(-this.startCents(month) * 0.02)) + this.interestCents(month);
  }

  monthEntries(month: number): LedgerEntry[] {
    const out = this.ledger.flowEntries(this.key, month);
    const interest = this.interestCents(month);
    out.push({
      day: firstDayOfMonth(month),
      time: 3600,
      lag: 0,
      cents: -interest,
      interestCents: interest,
      type: 'interest',
      description: 'INTEREST CHARGE',
      memo: `Variable APR ${this.spec.apr.toFixed(3)}%`,
      payee: 'FinBank',
      category: 'Loan Interest',
      country: 'USA',
    });
    const flex = this.startCents(month + 1) - this.startCents(month) - sumCents(out);
    const rng = this.rng(month, 'draws');
    const day = firstDayOfMonth(month) + rng.int(2, daysInMonth(month) - 2);
    if (flex < 0) {
      const pieces = -flex > 400_000 ? 2 : 1;
      let left = -flex;
      for (let i = 0; i < pieces; i++) {
        const amount = i === pieces - 1 ? left : Math.round(left * rng.between(0.3, 0.7));
        left -= amount;
        const payee = rng.pick(['Valley Contractors', 'Sunrise Roofing', 'Evergreen Landscaping', 'Summit Plumbing']);
        const checkNum = String(2001 + ((month * 3 + i) % 997));
        out.push({
          day: Math.min(day + i * 6, firstDayOfMonth(month) + daysInMonth(month) - 1),
          time: ACH_TIME,
          lag: rng.int(1, 4),
          cents: -amount,
          principalCents: amount,
          type: 'check',
          checkNum,
          description: `HELOC CHECK ${checkNum}`,
          memo: payee.toUpperCase(),
          payee,
          category: 'Home Improvement',
          country: 'USA',
        });
      }
    } else if (flex > 0) {
      out.push({
        day,
        time: ACH_TIME,
        lag: 0,
        cents: flex,
        principalCents: flex,
        type: 'payment',
        description: 'ADDITIONAL PRINCIPAL PAYMENT',
        memo: 'From external account',
        payee: 'FinBank',
        category: 'Loan Payment',
        country: 'USA',
      });
    }
    return out;
  }
}

/** Holdings and cash of an investment account at the start of a month. */
export interface InvestmentState {
  cash: number;
  /** Units per holding, in thousandths. */
  units: number[];
  /** Cost basis per holding, in cents. */
  cost: number[];
}

/**
 * An investment account. Cash that arrives (contributions, payroll deferrals, loan repayments) is invested the
 * next business day across the holdings by weight; dividends are paid in cash or reinvested; a plan loan is
 * funded by selling. State is carried month by month from the opening month (memoised).
 */
export class InvestmentModel extends AccountModel<InvestmentSpec> {
  readonly securities: Security[];
  readonly opened: number;
  readonly planLoan: Amortisation | undefined;
  private readonly states: InvestmentState[] = [];

  constructor(ledger: Ledger, spec: InvestmentSpec, position: number) {
    super(ledger, spec, position);
    this.securities = spec.holdings.map((h) => security(h.symbol));
    this.opened = parseMonth(spec.opened);
    this.planLoan = spec.planLoan
      ? new Amortisation(Math.round(spec.planLoan.principal * 100), spec.planLoan.rate, spec.planLoan.termMonths, spec.planLoan.start)
      : undefined;
  }

  private initialState(): InvestmentState {
    const openDay = firstDayOfMonth(this.opened);
    return {
      cash: Math.round(this.spec.cash * 100),
      units: this.spec.holdings.map((h) => Math.round(h.units * 1000)),
      cost: this.spec.holdings.map((h, i) => Math.round(h.units * priceOn(this.securities[i] as Security, openDay - 730) * 100)),
    };
  }

  /** State at the start of a month (accounts are as opened for months before their opening). */
  stateAt(month: number): InvestmentState {
    if (month <= this.opened) return this.initialState();
    const index = month - this.opened;
    while (this.states.length <= index) {
      const m = this.opened + this.states.length;
      if (this.states.length === 0) this.states.push(this.initialState());
      else
        this.states.push(
          InvestmentModel.advance(
            this.stateAt(m - 1),
            this.monthEntries(m - 1),
            this.spec.holdings.map((h) => h.symbol),
          ),
        );
    }
    return this.states[index] as InvestmentState;
  }

  /** A state moved forward by entries (all of them, or those posted by a time). */
  static advance(state: InvestmentState, entries: readonly LedgerEntry[], symbols: readonly string[]): InvestmentState {
    const next = { cash: state.cash, units: [...state.units], cost: [...state.cost] };
    for (const e of entries) {
      next.cash += e.cents;
      if (e.ticker === undefined || e.units === undefined) continue;
      const i = symbols.indexOf(e.ticker);
      if (i < 0) continue;
      const units = Math.round(e.units * 1000);
      if (e.invType === 'sold') {
        const held = next.units[i] as number;
        next.cost[i] = Math.round(((next.cost[i] as number) * (held - units)) / Math.max(held, 1));
        next.units[i] = held - units;
      } else {
        next.units[i] = (next.units[i] as number) + units;
        next.cost[i] = (next.cost[i] as number) - e.cents;
      }
    }
    return next;
  }

  startCents(month: number): number {
    return this.stateAt(month).cash;
  }

  private trade(day: number, i: number, amountCents: number, kind: 'purchased' | 'dividendReinvest' | 'sold', out: LedgerEntry[]): number {
    const s = this.securities[i] as Security;
    const price = priceOn(s, day);
    const thousandths = kind === 'sold' ? Math.ceil((amountCents / (price * 100)) * 1000) : Math.floor((amountCents / (price * 100)) * 1000);
    if (thousandths <= 0) return 0;
    const units = thousandths / 1000;
    const value = Math.round(units * price * 100);
    const verb = kind === 'sold' ? 'YOU SOLD' : kind === 'dividendReinvest' ? 'REINVESTMENT' : 'YOU BOUGHT';
    out.push({
      day,
      time: 14 * 3600 + 1800 + i * 60,
      lag: 1,
      cents: kind === 'sold' ? value : -value,
      type: kind === 'sold' ? 'credit' : 'debit',
      description: `${verb} ${s.name.toUpperCase()} (${s.symbol})`,
      memo: `${units.toFixed(3)} @ $${price.toFixed(2)}`,
      payee: s.name,
      category: kind === 'sold' ? 'Sell' : 'Buy',
      country: 'USA',
      units,
      unitPrice: price,
      invType: kind,
      ticker: s.symbol,
      securityId: s.cusip,
    });
    return value;
  }

  /** Invests `amountCents` across the holdings by weight on `day`. */
  private invest(day: number, amountCents: number, out: LedgerEntry[]): void {
    const total = this.spec.holdings.reduce((s, h) => s + h.weight, 0);
    this.spec.holdings.forEach((h, i) => {
      if (h.weight > 0) this.trade(day, i, Math.floor((amountCents * h.weight) / total), 'purchased', out);
    });
  }

  monthEntries(month: number): LedgerEntry[] {
    if (month < this.opened) return [];
    const state = this.stateAt(month);
    const out = this.ledger.flowEntries(this.key, month);
    const last = firstDayOfMonth(month) + daysInMonth(month) - 1;
    const nextBusinessDay = (day: number) => {
      let d = day + 1;
      while (isWeekend(d)) d++;
      return d > last ? day : d;
    };
    // Money that arrived is invested the next business day, one order per holding per day.
    const arrivals = new Map<number, number>();
    for (const e of out) if (e.cents > 0) arrivals.set(nextBusinessDay(e.day), (arrivals.get(nextBusinessDay(e.day)) ?? 0) + e.cents);
    for (const [day, amount] of arrivals) this.invest(day, amount, out);
    if (this.planLoan && this.planLoan.cycleMonth(month) === 0) {
      // A new plan loan: sell by weight on the 3rd to fund the disbursement on the 5th.
      const total = this.spec.holdings.reduce((s, h) => s + h.weight, 0);
      this.spec.holdings.forEach((h, i) => {
        if (h.weight > 0) this.trade(businessDayInMonth(month, 3), i, Math.ceil((this.planLoan!.principal * h.weight) / total), 'sold', out);
      });
    }
    const payDay = businessDayInMonth(month, 20);
    this.securities.forEach((s, i) => {
      const perUnit = incomePerUnit(s, month, payDay);
      const income = Math.round(((state.units[i] as number) / 1000) * perUnit * 100);
      if (income <= 0) return;
      const coupon = s.kind === 'bond';
      out.push({
        day: payDay,
        time: ACH_TIME,
        lag: 0,
        cents: income,
        type: coupon ? 'interest' : 'dividend',
        interestCents: coupon ? income : undefined,
        description: `${coupon ? 'INTEREST' : 'DIVIDEND RECEIVED'} ${s.name.toUpperCase()} (${s.symbol})`,
        payee: s.name,
        category: coupon ? 'Interest Income' : 'Dividend & Cap Gains',
        country: 'USA',
        invType: coupon ? 'interest' : 'dividend',
        ticker: s.symbol,
        securityId: s.cusip,
      });
      if (this.spec.reinvest && !coupon) this.trade(payDay, i, income, 'dividendReinvest', out);
    });
    if (!this.spec.reinvest && state.cash > 0) {
      const interest = Math.round((state.cash * 0.005) / 12);
      if (interest > 0) {
        out.push({
          day: businessDayInMonth(month, 31),
          time: 3600,
          lag: 0,
          cents: interest,
          interestCents: interest,
          type: 'interest',
          description: 'INTEREST ON CASH BALANCE',
          payee: 'FinBank',
          category: 'Interest Income',
          country: 'USA',
          invType: 'interest',
        });
      }
    }
    return out;
  }

  /** Holdings and cash counting what has posted by `now` (settled positions). */
  settledAt(now: number): InvestmentState {
    const month = monthOfDay(dayOf(now));
    let state = this.stateAt(month - 1);
    const symbols = this.spec.holdings.map((h) => h.symbol);
    for (const m of [month - 1, month]) {
      state = InvestmentModel.advance(
        state,
        this.ledger.entries(this.key, m).filter((e) => postedAt(e) <= now),
        symbols,
      );
    }
    return state;
  }
}

/** The statement name of an account in other accounts' text, e.g. `SAVINGS XXXXXX1234`. */
function label(model: AccountModel): string {
  const word: Record<AccountSpec['type'], string> = {
    checking: 'CHECKING',
    savings: 'SAVINGS',
    creditCard: 'CARD',
    loan: 'LOAN',
    mortgage: 'MORTGAGE',
    lineOfCredit: 'LINE OF CREDIT',
    investment: 'BROKERAGE',
    investmentTaxDeferred: '401K',
    roth: 'ROTH IRA',
  };
  return `${word[model.spec.type]} ${model.identity.masked}`;
}

/** The days an income is paid in a month. */
export function paydays(income: IncomeSpec, month: number): number[] {
  const first = firstDayOfMonth(month);
  const last = first + daysInMonth(month) - 1;
  switch (income.schedule) {
    case 'biweekly': {
      const anchor = parseDay(income.anchor ?? '2025-01-03');
      const days: number[] = [];
      for (let d = first + ((((anchor - first) % 14) + 14) % 14); d <= last; d += 14) days.push(d);
      return days;
    }
    case 'semimonthly':
      return [businessDayInMonth(month, 15), businessDayInMonth(month, 31)];
    case 'monthly':
      return [businessDayInMonth(month, income.day ?? 1)];
    case 'businessDays': {
      const days: number[] = [];
      for (let d = first; d <= last; d++) if (!isWeekend(d)) days.push(d);
      return days;
    }
  }
}

/** What each payday puts into the plan: the employee's deferral and the employer's match, in cents. */
export function deferralCents(deferral: NonNullable<IncomeSpec['deferral']>): { own: number; match: number } {
  return {
    own: Math.round(deferral.gross * deferral.percent),
    match: Math.round(deferral.gross * deferral.matchPercent),
  };
}

class IncomeFlow implements Flow {
  readonly accounts: string[];

  constructor(
    private readonly ledger: Ledger,
    private readonly income: IncomeSpec,
  ) {
    this.accounts = [income.to, ...(income.deferral ? [income.deferral.to] : [])];
  }

  emit(month: number, key: string, out: LedgerEntry[]): void {
    const days = paydays(this.income, month);
    const payer = this.income.payer.toUpperCase();
    days.forEach((day, n) => {
      if (key === this.income.to) {
        let amount = Math.round(this.income.net * 100);
        if (this.income.kind === 'payouts') amount = Math.round(amount * (0.55 + 0.9 * Random.of(this.ledger.seed, this.income.key, day).next()));
        const bonus = this.income.bonus && n === 0 && monthOfYear(month) === this.income.bonus.month ? Math.round(this.income.bonus.amount * 100) : 0;
        const entry: LedgerEntry = {
          day,
          time: ACH_TIME - 3600,
          lag: 0,
          cents: amount + bonus,
          type: 'directDeposit',
          payee: this.income.payer,
          country: 'USA',
          ...(this.income.kind === 'payroll'
            ? { description: `${payer} PAYROLL DIR DEP`, memo: bonus ? 'Includes annual bonus' : 'Direct deposit', category: 'Paycheck' }
            : this.income.kind === 'benefit'
              ? { description: `${payer} TREAS 310 XXSOC SEC`, memo: 'Monthly benefit', category: 'Income' }
              : this.income.kind === 'pension'
                ? { description: `${payer} PENSION DIR DEP`, memo: 'Monthly pension', category: 'Income' }
                : {
                    type: 'deposit' as const,
                    description: `${payer} TRANSFER ST-${String(seedOf(this.ledger.seed, day) % 1e8).padStart(8, '0')}`,
                    memo: 'Card sales payout',
                    category: 'Income',
                  }),
        };
        if (bonus) entry.bonusCents = bonus;
        out.push(entry);
      }
      const deferral = this.income.deferral;
      if (deferral && key === deferral.to) {
        const { own, match } = deferralCents(deferral);
        out.push({
          day,
          time: ACH_TIME,
          lag: 0,
          cents: own,
          type: 'deposit',
          invType: 'contribution',
          description: 'EMPLOYEE PRE-TAX DEFERRAL',
          memo: `${deferral.percent}% of pay, ${this.income.payer}`,
          payee: this.income.payer,
          category: 'Investments',
          country: 'USA',
        });
        if (match > 0) {
          out.push({
            day,
            time: ACH_TIME + 60,
            lag: 0,
            cents: match,
            type: 'deposit',
            invType: 'contribution',
            description: 'EMPLOYER MATCHING CONTRIBUTION',
            memo: `${deferral.matchPercent}% of pay`,
            payee: this.income.payer,
            category: 'Investments',
            country: 'USA',
          });
        }
      }
    });
  }
}

class BillFlow implements Flow {
  readonly accounts: string[];

  constructor(
    private readonly ledger: Ledger,
    private readonly bill: BillSpec,
    private readonly index: number,
  ) {
    this.accounts = [bill.from];
  }

  private applies(month: number): boolean {
    if (this.bill.skipEvery && month % this.bill.skipEvery === 0) return false;
    const every = this.bill.every ?? 1;
    return (monthOfYear(month) - 1) % every === ((this.bill.start ?? 1) - 1) % every;
  }

  emit(month: number, key: string, out: LedgerEntry[]): void {
    if (!this.applies(month)) return;
    const m = merchant(this.bill.merchant);
    const seasonal = this.bill.seasonal ? 1 + 0.22 * Math.cos((2 * Math.PI * (monthOfYear(month) - 1)) / 6) : 1;
    const vary = 1 + (this.bill.vary ?? 0) * noiseOf(this.ledger.seed, 'bill', this.index, month);
    const amount = Math.round(this.bill.amount * 100 * seasonal * vary);
    const day = businessDayInMonth(month, this.bill.day);
    const onCard = this.ledger.model(key).spec.type === 'creditCard';
    const rng = Random.of(this.ledger.seed, 'bill', this.index, month);
    const description = describe(
      m,
      { seed: this.ledger.seed, city: this.ledger.spec.owner.city, state: this.ledger.spec.owner.state, onCard, foreignFee: 0 },
      rng,
    );
    if (this.bill.byCheck) {
      const checkNum = String(101 + ((month * 2 + this.index) % 8899));
      out.push({
        day,
        time: ACH_TIME,
        lag: rng.int(1, 4),
        cents: -amount,
        type: 'check',
        checkNum,
        description: `CHECK ${checkNum}`,
        memo: m.name.toUpperCase(),
        payee: m.name,
        category: m.category,
        country: 'USA',
      });
      return;
    }
    out.push({
      day,
      time: ACH_TIME + 300 + this.index,
      lag: onCard ? 1 : 0,
      cents: -amount,
      type: onCard ? 'debit' : 'directDebit',
      description,
      payee: m.name,
      category: m.category,
      country: 'USA',
    });
  }
}

/** Money moving between two accounts of the customer: both sides carry the same amount on the same day. */
class MirroredFlow implements Flow {
  readonly accounts: string[];

  constructor(
    private readonly from: AccountModel,
    private readonly to: AccountModel,
    /** Cents moved in a month and the day; 0 moves nothing; negative moves the other way. */
    private readonly plan: (month: number) => { cents: number; day: number },
    private readonly text: {
      out: string;
      in: string;
      category: TransactionCategory;
      outCategory?: TransactionCategory;
      type?: LedgerEntry['type'];
      payee?: string;
    },
    private readonly split?: (month: number) => Partial<LedgerEntry>,
  ) {
    this.accounts = [from.key, to.key];
  }

  emit(month: number, key: string, out: LedgerEntry[]): void {
    const { cents, day } = this.plan(month);
    if (cents === 0) return;
    const [payer, payee] = cents > 0 ? [this.from, this.to] : [this.to, this.from];
    const amount = Math.abs(cents);
    const type = this.text.type ?? 'transfer';
    const base = { day, time: ACH_TIME + 600, lag: 0, type, country: 'USA' } as const;
    if (key === payer.key) {
      out.push({
        ...base,
        cents: -amount,
        description: `${this.text.out} ${label(payee)}`,
        payee: this.text.payee ?? 'FinBank',
        category: this.text.outCategory ?? this.text.category,
      });
    }
    if (key === payee.key) {
      const entry: LedgerEntry = {
        ...base,
        cents: amount,
        description: `${this.text.in} ${label(payer)}`,
        payee: this.text.payee ?? 'FinBank',
        category: this.text.category,
        ...(this.split?.(month) ?? {}),
      };
      if (payee.spec.type === 'investmentTaxDeferred' || payee.spec.type === 'roth' || payee.spec.type === 'investment') {
        entry.type = 'deposit';
        entry.invType ??= 'contribution';
      }
      out.push(entry);
    }
  }
}

/** A payment that arrives from an account at another bank (only this side is visible). */
class ExternalPaymentFlow implements Flow {
  readonly accounts: string[];

  constructor(
    key: string,
    private readonly plan: (month: number) => { cents: number; day: number },
  ) {
    this.accounts = [key];
  }

  emit(month: number, _key: string, out: LedgerEntry[]): void {
    const { cents, day } = this.plan(month);
    if (cents <= 0) return;
    out.push({
      day,
      time: ACH_TIME + 600,
      lag: 0,
      cents,
      type: 'payment',
      description: 'ONLINE PAYMENT THANK YOU',
      memo: 'From external account',
      payee: 'FinBank',
      category: 'Credit Card Payment',
      country: 'USA',
    });
  }
}

/** One-sided payroll deduction into a plan (loan repayments): the employer sends it, nothing leaves checking. */
class PlanLoanRepaymentFlow implements Flow {
  readonly accounts: string[];

  constructor(private readonly model: InvestmentModel) {
    this.accounts = [model.key];
  }

  emit(month: number, _key: string, out: LedgerEntry[]): void {
    const payment = this.model.planLoan?.paymentIn(month);
    if (!payment) return;
    const amount = payment.principal + payment.interest;
    out.push({
      day: businessDayInMonth(month, 15),
      time: ACH_TIME + 120,
      lag: 0,
      cents: amount,
      principalCents: payment.principal,
      interestCents: payment.interest,
      type: 'deposit',
      invType: 'transfer',
      description: 'LOAN REPAYMENT PAYROLL DEDUCTION',
      memo: `Payment ${payment.number} of ${this.model.planLoan!.term}`,
      payee: 'Plan Loan',
      category: 'Loan Payment',
      country: 'USA',
    });
  }
}

/**
 * The books of one profile at one institution. Build once and reuse: it keeps no state but the memoised
 * investment months.
 */
export class Ledger {
  readonly seed: number;
  readonly models: AccountModel[];
  private readonly byKey = new Map<string, AccountModel>();
  private readonly flows = new Map<string, Flow[]>();

  constructor(
    readonly spec: ProfileSpec,
    readonly institutionId: number,
  ) {
    this.seed = seedOf('ledgerlink-testbank', institutionId, spec.id);
    this.models = spec.accounts.map((a, i) => {
      const model = Ledger.modelFor(this, a, i + 1);
      if (this.byKey.has(a.key)) throw new Error(`${spec.id}: duplicate account key ${a.key}`);
      this.byKey.set(a.key, model);
      return model;
    });
    if (new Set(this.models.map((m) => m.identity.ref)).size !== this.models.length) throw new Error(`${spec.id}: account refs collide`);
    this.buildFlows();
  }

  private static modelFor(ledger: Ledger, spec: AccountSpec, position: number): AccountModel {
    switch (spec.type) {
      case 'checking':
        return new CheckingModel(ledger, spec, position);
      case 'savings':
        return new SavingsModel(ledger, spec, position);
      case 'creditCard':
        return new CardModel(ledger, spec, position);
      case 'loan':
      case 'mortgage':
        return new LoanModel(ledger, spec, position);
      case 'lineOfCredit':
        return new LineOfCreditModel(ledger, spec, position);
      default:
        return new InvestmentModel(ledger, spec, position);
    }
  }

  model(key: string): AccountModel {
    const found = this.byKey.get(key);
    if (!found) throw new Error(`${this.spec.id}: no account ${key}`);
    return found;
  }

  private add(flow: Flow): void {
    for (const key of flow.accounts) {
      this.model(key);
      const list = this.flows.get(key) ?? [];
      list.push(flow);
      this.flows.set(key, list);
    }
  }

  private buildFlows(): void {
    this.checkSavingsFlows();
    for (const income of this.spec.income) this.add(new IncomeFlow(this, income));
    this.spec.bills.forEach((bill, i) => this.add(new BillFlow(this, bill, i)));
    for (const t of this.spec.transfers) this.add(this.transferFlow(t));
    const deposits = new Map<string, number>();
    for (const t of this.spec.transfers) {
      deposits.set(t.to, (deposits.get(t.to) ?? 0) + Math.round(t.amount * 100));
      deposits.set(t.from, (deposits.get(t.from) ?? 0) - Math.round(t.amount * 100));
    }
    for (const model of this.models) {
      if (model instanceof SavingsModel) {
        model.setMonthlyDeposit(deposits.get(model.key) ?? 0);
        this.add(
          new MirroredFlow(model, this.model(model.spec.sweepTo), (m) => ({ cents: model.sweepCents(m), day: businessDayInMonth(m, 10) }), {
            out: 'ONLINE TRANSFER TO',
            in: 'ONLINE TRANSFER FROM',
            category: 'Transfer',
          }),
        );
      } else if (model instanceof CardModel) {
        const plan = (m: number) => ({ cents: model.paymentCents(m), day: businessDayInMonth(m, model.spec.payDay) });
        if (model.spec.payFrom) {
          this.add(
            new MirroredFlow(this.model(model.spec.payFrom), model, plan, {
              out: 'FINBANK CARD AUTOPAY',
              in: 'AUTOPAY PAYMENT THANK YOU',
              category: 'Credit Card Payment',
              type: 'payment',
            }),
          );
        } else {
          this.add(new ExternalPaymentFlow(model.key, plan));
        }
      } else if (model instanceof LoanModel) {
        this.add(
          new MirroredFlow(
            this.model(model.spec.payFrom),
            model,
            (m) => ({ cents: model.paymentCents(m), day: model.paymentDay(m) }),
            {
              out: `${model.spec.lender.toUpperCase()} PAYMENT`,
              in: 'PAYMENT RECEIVED FROM',
              category: 'Loan Payment',
              outCategory: model.spec.category,
              type: 'payment',
              payee: model.spec.lender,
            },
            (m) => {
              const p = model.schedule.paymentIn(m);
              return p
                ? {
                    principalCents: p.principal,
                    interestCents: p.interest,
                    ...(model.escrowCents ? { escrowCents: model.escrowCents } : {}),
                    memo: `Payment ${p.number} of ${model.spec.termMonths}`,
                  }
                : {};
            },
          ),
        );
      } else if (model instanceof LineOfCreditModel) {
        this.add(
          new MirroredFlow(
            this.model(model.spec.payFrom),
            model,
            (m) => ({ cents: model.paymentCents(m), day: businessDayInMonth(m, model.spec.payDay) }),
            {
              out: 'FINBANK HELOC PAYMENT',
              in: 'PAYMENT RECEIVED FROM',
              category: 'Loan Payment',
              type: 'payment',
            },
            (m) => ({ interestCents: model.interestCents(m), principalCents: model.paymentCents(m) - model.interestCents(m) }),
          ),
        );
      } else if (model instanceof InvestmentModel && model.planLoan && model.spec.planLoan) {
        const loan = model.planLoan;
        this.add(
          new MirroredFlow(
            model,
            this.model(model.spec.planLoan.to),
            (m) => ({ cents: loan.cycleMonth(m) === 0 ? loan.principal : 0, day: businessDayInMonth(m, 5) }),
            {
              out: 'PLAN LOAN DISBURSEMENT TO',
              in: '401K PLAN LOAN PROCEEDS FROM',
              category: 'Loans',
            },
          ),
        );
        this.add(new PlanLoanRepaymentFlow(model));
      }
    }
  }

  /** A savings account's closed form allows only fixed monthly transfers and its yearly sweep. */
  private checkSavingsFlows(): void {
    const savings = new Set(this.models.filter((m) => m instanceof SavingsModel).map((m) => m.key));
    const used = [
      ...this.spec.income.flatMap((i) => [i.to, i.deferral?.to]),
      ...this.spec.bills.map((b) => b.from),
      ...this.spec.accounts.map((a) => ('payFrom' in a ? a.payFrom : 'planLoan' in a ? a.planLoan?.to : undefined)),
    ];
    for (const key of used) if (key && savings.has(key)) throw new Error(`${this.spec.id}: savings account ${key} can only take fixed transfers`);
  }

  private transferFlow(t: TransferSpec): Flow {
    const to = this.model(t.to);
    const investing = to instanceof InvestmentModel;
    return new MirroredFlow(this.model(t.from), to, (m) => ({ cents: Math.round(t.amount * 100), day: businessDayInMonth(m, t.day) }), {
      out: investing ? 'TRANSFER TO' : this.model(t.from).spec.segment === 'business' ? 'OWNER DRAW TO' : 'ONLINE TRANSFER TO',
      in: investing ? 'CONTRIBUTION FROM' : 'ONLINE TRANSFER FROM',
      category: investing ? 'Investments' : 'Transfer',
    });
  }

  /** The scheduled entries (pay, bills, transfers, payments) of one account in a month. */
  flowEntries(key: string, month: number): LedgerEntry[] {
    const out: LedgerEntry[] = [];
    for (const flow of this.flows.get(key) ?? []) flow.emit(month, key, out);
    return out;
  }

  /** All entries of an account dated in a month, oldest first (stable order). */
  entries(key: string, month: number): LedgerEntry[] {
    return this.model(key).monthEntries(month).sort(byDate);
  }

  /**
   * The cleared balance at `now` (the month-start balance of last month plus everything posted since) and the
   * sum of pending amounts, in cents.
   */
  balanceAt(key: string, now: number): { cleared: number; pending: number; pendingDebits: number } {
    const model = this.model(key);
    const month = monthOfDay(dayOf(now));
    let cleared = model.startCents(month - 1);
    let pending = 0;
    let pendingDebits = 0;
    for (const m of [month - 1, month]) {
      for (const e of this.entries(key, m)) {
        if (transactionAt(e) > now) continue;
        if (postedAt(e) <= now) cleared += e.cents;
        else {
          const shown = e.pendingCents ?? e.cents;
          pending += shown;
          if (shown < 0) pendingDebits += shown;
        }
      }
    }
    return { cleared, pending, pendingDebits };
  }
}
