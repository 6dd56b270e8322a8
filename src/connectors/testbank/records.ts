/**
 * Turns the ledger into the records the engine receives: accounts (balances, details, positions) and
 * transactions (refs, pending state, categorization), all as of the customer's `now`.
 */
import type {
  Categorization,
  ConnectorAccount,
  ConnectorPosition,
  ConnectorTransaction,
  DepositDetail,
  InvestmentDetail,
  LineOfCreditDetail,
  LoanDetail,
} from '../connector.js';
import {
  businessDayInMonth,
  dayInMonth,
  dayOf,
  dayStart,
  firstDayOfMonth,
  isWeekend,
  monthIndex,
  monthOfDay,
  SECONDS_PER_DAY,
  yearOfMonth,
  ymd,
} from './calendar.js';
import { bestRepresentation } from '../categorize.js';
import { ACH_TIME, dollars, type LedgerEntry } from './entries.js';
import {
  type AccountModel,
  CardModel,
  CheckingModel,
  deferralCents,
  InvestmentModel,
  type Ledger,
  LineOfCreditModel,
  LoanModel,
  luhnDigit,
  paydays,
  postedAt,
  SavingsModel,
  transactionAt,
} from './ledger.js';
import { loanPaymentOf, ownershipOf } from './identity.js';
import { testRoutingNumber } from './institutions.js';
import { priceOn, type Security } from './securities.js';

/** How far back the test bank serves transactions. */
export const HISTORY_DAYS = 730;

function categorization(e: LedgerEntry): Categorization {
  return { normalizedPayeeName: e.payee, category: e.category, bestRepresentation: bestRepresentation(e.description, e.memo), country: e.country };
}

/** The record of one entry as of `now` (which must be at or after its transaction date). */
function transactionRecord(model: AccountModel, e: LedgerEntry, ref: string, now: number): ConnectorTransaction {
  const posted = postedAt(e);
  const pending = posted > now;
  const t: ConnectorTransaction = {
    ref,
    accountRef: model.identity.ref,
    amount: dollars(pending ? (e.pendingCents ?? e.cents) : e.cents),
    status: pending ? 'pending' : 'active',
    description: e.description,
    type: e.type,
    transactionDate: transactionAt(e),
    categorization: categorization(e),
  };
  if (e.memo) t.memo = e.memo;
  if (!pending) t.postedDate = posted;
  if (e.checkNum) t.checkNum = e.checkNum;
  if (e.bonusCents !== undefined) t.bonusAmount = dollars(e.bonusCents);
  if (e.escrowCents !== undefined) t.escrowAmount = dollars(e.escrowCents);
  if (e.feeCents !== undefined) t.feeAmount = dollars(e.feeCents);
  if (e.interestCents !== undefined) t.interestAmount = dollars(e.interestCents);
  if (e.principalCents !== undefined) t.principalAmount = dollars(e.principalCents);
  if (e.units !== undefined) t.unitQuantity = e.units;
  if (e.unitPrice !== undefined) t.unitValue = e.unitPrice;
  if (e.invType) t.investmentTransactionType = e.invType;
  if (e.ticker) t.ticker = e.ticker;
  if (e.securityId) t.securityId = e.securityId;
  return t;
}

/** The entries of a month with their refs: `<accountRef>-<YYYYMMDD>-<n>`, n counting within the day. */
function withRefs(ledger: Ledger, model: AccountModel, month: number): { entry: LedgerEntry; ref: string }[] {
  let day = -1;
  let n = 0;
  return ledger.entries(model.key, month).map((entry) => {
    if (entry.day !== day) {
      day = entry.day;
      n = 0;
    }
    n++;
    return { entry, ref: `${model.identity.ref}-${ymd(entry.day)}-${String(n).padStart(3, '0')}` };
  });
}

/** The earliest transaction date the institution still serves at `now`. */
export function historyStart(now: number): number {
  return now - HISTORY_DAYS * SECONDS_PER_DAY;
}

/** Transactions dated in [from, to], limited to the served history up to now, oldest first. */
export function transactionsBetween(ledger: Ledger, model: AccountModel, from: number, to: number, now: number): ConnectorTransaction[] {
  const start = Math.max(from, historyStart(now));
  const end = Math.min(to, now);
  const out: ConnectorTransaction[] = [];
  if (start > end) return out;
  for (let m = monthOfDay(dayOf(start)); m <= monthOfDay(dayOf(end)); m++) {
    for (const { entry, ref } of withRefs(ledger, model, m)) {
      const at = transactionAt(entry);
      if (at >= start && at <= end) out.push(transactionRecord(model, entry, ref, now));
    }
  }
  return out;
}

/** Markets close at weekends: quotes on Saturday and Sunday are Friday's. */
function quoteDay(day: number): number {
  let d = day;
  while (isWeekend(d)) d--;
  return d;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : round2((part / whole) * 100);
}

function depositDetail(ledger: Ledger, model: CheckingModel | SavingsModel, now: number): DepositDetail {
  const b = ledger.balanceAt(model.key, now);
  return { availableBalanceAmount: dollars(b.cleared + b.pendingDebits), periodInterestRate: (model.spec.apy ?? 0).toFixed(2) };
}

function loanDetail(model: LoanModel, now: number): LoanDetail {
  const month = monthOfDay(dayOf(now));
  const schedule = model.schedule;
  const j = schedule.cycleMonth(month);
  const paidThisMonth = j >= 1 && now >= dayStart(model.paymentDay(month)) + ACH_TIME;
  const made = paidThisMonth ? j : Math.max(0, j - 1);
  // In a renewal month the new loan is paid out on the 5th; before that nothing is owed.
  const disbursed = j >= 1 || now >= dayStart(dayInMonth(month, 5)) + ACH_TIME;
  const owed = disbursed ? schedule.balanceAfter(made) : 0;
  const nextMonth = paidThisMonth || j === 0 ? month + 1 : month;
  const lastPaymentDay = made === 0 ? firstDayOfMonth(schedule.cycleStart(month)) : model.paymentDay(paidThisMonth ? month : month - 1);
  const accrued = Math.round(owed * schedule.rate * Math.min(1, (dayOf(now) - lastPaymentDay) / 30));
  const next = model.paymentCents(nextMonth);
  const regular = schedule.payment + model.escrowCents;
  const escrowMonths = (((month - schedule.start) % 12) + 12) % 12;
  return {
    payoffAmount: dollars(owed + accrued),
    principalBalance: dollars(owed),
    escrowBalance: dollars(model.escrowCents * (escrowMonths + 2)),
    interestRate: model.spec.rate.toFixed(3),
    autoPayEnrolled: 'Y',
    collateral: model.spec.collateral,
    currentSchool: model.spec.school?.current ?? '',
    firstMortgage: model.spec.type === 'mortgage' ? 'Y' : 'N',
    originalSchool: model.spec.school?.original ?? '',
    recurringPaymentAmount: dollars(regular),
    lender: model.spec.lender,
    availableBalanceAmount: 0,
    endingBalanceAmount: dollars(schedule.owedAtStart(month)),
    loanTermType: model.spec.termType,
    paymentsMade: made,
    balloonAmount: 0,
    projectedInterest: dollars(schedule.interestOfPayments(schedule.term) - schedule.interestOfPayments(made)),
    interestPaidLtd: dollars(schedule.interestOfPayments(made)),
    interestRateType: 'FIXED',
    loanPaymentType: model.escrowCents > 0 ? 'PRINCIPAL_INTEREST_AND_ESCROW' : 'PRINCIPAL_AND_INTEREST',
    paymentsRemaining: schedule.term - made,
    loanMinAmtDue: dollars(next),
    loanPaymentFreq: 'MONTHLY',
    paymentMinAmount: dollars(next),
    loanMinAmtDueDate: dayStart(model.paymentDay(nextMonth)),
    firstPaymentDate: dayStart(model.paymentDay(schedule.cycleStart(month) + 1)),
  };
}

function lineDetail(ledger: Ledger, model: LineOfCreditModel, now: number): LineOfCreditDetail {
  const month = monthOfDay(dayOf(now));
  const b = ledger.balanceAt(model.key, now);
  const dueDay = businessDayInMonth(month, model.spec.payDay);
  const paid = now >= dayStart(dueDay) + ACH_TIME;
  return {
    interestRate: model.spec.apr.toFixed(3),
    creditAvailableAmount: dollars(Math.max(0, model.spec.limit * 100 + b.cleared + b.pendingDebits)),
    paymentMinAmount: paid ? 0 : dollars(model.paymentCents(month)),
    statementCloseBalance: dollars(-model.startCents(month)),
    locPrincipalBalance: dollars(-b.cleared),
    paymentDueDate: dayStart(paid ? businessDayInMonth(month + 1, model.spec.payDay) : dueDay),
    statementEndDate: dayStart(firstDayOfMonth(month) - 1),
  };
}

interface Holding {
  security: Security;
  units: number;
  price: number;
  previous: number;
  value: number;
  cost: number;
}

function holdings(model: InvestmentModel, now: number): { cash: number; list: Holding[] } {
  const state = model.settledAt(now);
  const today = quoteDay(dayOf(now));
  const previousDay = quoteDay(today - 1);
  const list = model.securities.map((security, i) => {
    const units = (state.units[i] as number) / 1000;
    const price = priceOn(security, today);
    return { security, units, price, previous: priceOn(security, previousDay), value: round2(units * price), cost: dollars(state.cost[i] as number) };
  });
  return { cash: state.cash, list };
}

/** Year-to-date payroll deferrals into a plan: employee and employer parts, in cents, and the per-paycheck deferral. */
function deferralsYtd(ledger: Ledger, model: InvestmentModel, now: number): { own: number; match: number; perPay: number; percent: number } {
  const income = ledger.spec.income.find((i) => i.deferral?.to === model.key);
  if (!income?.deferral) return { own: 0, match: 0, perPay: 0, percent: 0 };
  const month = monthOfDay(dayOf(now));
  let count = 0;
  for (let m = monthIndex(yearOfMonth(month), 1); m <= month; m++) {
    for (const day of paydays(income, m)) if (dayStart(day) + ACH_TIME <= now) count++;
  }
  const { own, match } = deferralCents(income.deferral);
  return { own: own * count, match: match * count, perPay: own, percent: income.deferral.percent };
}

function reinvestedYtd(ledger: Ledger, model: InvestmentModel, now: number, symbol: string): number {
  const month = monthOfDay(dayOf(now));
  let total = 0;
  for (let m = monthIndex(yearOfMonth(month), 1); m <= month; m++) {
    for (const e of ledger.entries(model.key, m)) {
      if (e.invType === 'dividendReinvest' && e.ticker === symbol && postedAt(e) <= now) total -= e.cents;
    }
  }
  return total;
}

function positionRecord(
  ledger: Ledger,
  model: InvestmentModel,
  h: Holding,
  ytdOwn: number,
  totalWeight: number,
  weight: number,
  now: number,
): ConnectorPosition {
  const s = h.security;
  const change = round2(h.units * (h.price - h.previous));
  const bond = s.kind === 'bond';
  const kinds = {
    stock: { type: 'stock', inv: 'STOCKINFO', sub: 'COMMON' },
    etf: { type: 'etf', inv: 'STOCKINFO', sub: 'ETF' },
    fund: { type: 'mutualFund', inv: 'MFINFO', sub: 'OPENEND' },
    money: { type: 'moneyMarket', inv: 'MFINFO', sub: 'MONEYMARKET' },
    bond: { type: 'bond', inv: 'DEBTINFO', sub: 'TREASURY' },
  }[s.kind];
  const ref = `${model.identity.ref}-${s.symbol}`;
  const position: ConnectorPosition = {
    ref,
    symbol: s.symbol,
    fundName: s.name,
    quantity: h.units,
    marketValue: h.value.toFixed(2),
    changePercent: percent(h.price - h.previous, h.previous),
    costBasis: h.cost,
    dailyChange: change,
    memo: bond
      ? `${(s.yield * 100).toFixed(3)}% coupon, quantity in units of $100 face value`
      : model.spec.reinvest
        ? 'Dividends reinvested'
        : 'Dividends paid to cash',
    empPretaxContribAmount: totalWeight > 0 ? dollars(Math.round((ytdOwn * weight) / totalWeight)) : 0,
    heldInAccount: h.value.toFixed(2),
    holdType: s.kind === 'money' ? 'MONEYMARKET' : 'INVESTMENT',
    maturityValue: bond ? round2(h.units * 100) : 0,
    units: h.units,
    unitPrice: h.price,
    type: kinds.type,
    status: 'A',
    invSecurityType: kinds.inv,
    securityCurrencyRate: '1.00',
    averageCost: h.units > 0 ? round2(h.cost / h.units) : 0,
    cashAccount: true,
    faceValue: bond ? round2(h.units * 100) : 0,
    holdingId: ref,
    securitySubType: kinds.sub,
    rate: bond || s.kind === 'money' ? round2(s.yield * 100) : 0,
    unitType: 'SHARES',
    todayGLDollar: change,
    todayGLPercent: percent(h.price - h.previous, h.previous),
    totalGLDollar: round2(h.value - h.cost),
    totalGLPercent: percent(h.value - h.cost, h.cost),
    costBasisPerShare: h.units > 0 ? round2(h.cost / h.units) : 0,
    enterpriseSymbol: `${s.exchange}:${s.symbol}`,
    localMarketValue: h.value,
    localPrice: h.price,
    securityId: s.cusip,
    reinvestmentCapGains: '0.00',
    reinvestmentDividend: dollars(reinvestedYtd(ledger, model, now, s.symbol)).toFixed(2),
    originalPurchaseDate: dayStart(firstDayOfMonth(model.opened) - 730),
  };
  if (s.maturity) position.expirationDate = Date.parse(`${s.maturity}T00:00:00Z`) / 1000;
  return position;
}

function investmentRecord(ledger: Ledger, model: InvestmentModel, now: number): { balance: number; detail: InvestmentDetail; position: ConnectorPosition[] } {
  const { cash, list } = holdings(model, now);
  const invested = list.reduce((s, h) => s + h.value, 0);
  const total = round2(dollars(cash) + invested);
  const change = round2(list.reduce((s, h) => s + h.units * (h.price - h.previous), 0));
  const ytd = deferralsYtd(ledger, model, now);
  const totalWeight = model.spec.holdings.reduce((s, h) => s + h.weight, 0);
  const month = monthOfDay(dayOf(now));
  const loan = model.planLoan;
  let loanOwed = 0;
  let loanNext: number | undefined;
  if (loan) {
    const j = loan.cycleMonth(month);
    const repayDay = businessDayInMonth(month, 15);
    const paid = j >= 1 && now >= dayStart(repayDay) + ACH_TIME;
    const disbursed = j >= 1 || now >= dayStart(businessDayInMonth(month, 5)) + ACH_TIME;
    loanOwed = disbursed ? loan.balanceAfter(paid ? j : Math.max(0, j - 1)) : 0;
    if (loanOwed > 0) loanNext = dayStart(paid || j === 0 ? businessDayInMonth(month + 1, 15) : repayDay);
  }
  const detail: InvestmentDetail = {
    marginBalance: 0,
    availableCashBalance: dollars(cash),
    currentBalance: total,
    vestedBalance: round2(total - dollars(ytd.match) / 2),
    currentLoanBalance: dollars(loanOwed),
    loanRate: model.spec.planLoan?.rate ?? 0,
    marginAllowed: model.spec.marginAllowed ?? false,
    cashAccountAllowed: true,
    employeeDeferPreTaxAmount: dollars(ytd.perPay),
    employeePreTaxAmount: dollars(ytd.own),
    employeePreTaxPercentage: ytd.percent,
    employerYearToDate: dollars(ytd.match),
    rolloverContributionAmount: model.spec.rollover ?? 0,
    allowedCheckWriting: model.spec.checkWriting ? 'ALLOW' : 'DENY',
    allowedOptionTrade: model.spec.optionTrading ? 'ALLOW' : 'DENY',
    dailyChange: change,
    margin: 0,
    percentageChange: percent(change, total - change),
    loanPaymentAmount: loan && loanOwed > 0 ? dollars(loan.payment) : 0,
  };
  if (loanNext !== undefined) detail.loanNextPaymentDate = loanNext;
  const position = list.map((h, i) => positionRecord(ledger, model, h, ytd.own, totalWeight, model.spec.holdings[i]?.weight ?? 0, now));
  return { balance: total, detail, position };
}

/** The account record as of `now`. */
export function accountRecord(ledger: Ledger, model: AccountModel, now: number): ConnectorAccount {
  const { identity, spec } = model;
  const base = {
    ref: identity.ref,
    number: identity.number,
    ownership: ownershipOf(ledger.spec.owner),
    accountNumberDisplay: identity.last4,
    name: spec.name,
    accountNickname: spec.nickname,
    currency: 'USD',
    balance: dollars(ledger.balanceAt(model.key, now).cleared),
    balanceDate: now,
    status: 'active' as const,
    financialinstitutionAccountStatus: 'OPEN' as const,
    marketSegment: spec.segment ?? 'personal',
    displayPosition: model.position,
  };
  if (model instanceof CheckingModel || model instanceof SavingsModel) {
    return {
      ...base,
      realAccountNumberLast4: identity.last4,
      routingNumber: testRoutingNumber(ledger.institutionId),
      type: model.spec.type,
      detail: depositDetail(ledger, model, now),
    };
  }
  if (model instanceof CardModel) return { ...base, type: 'creditCard' };
  if (model instanceof LoanModel) {
    return { ...base, type: model.spec.type, detail: loanDetail(model, now), payment: loanPaymentOf(model.spec, identity.number, luhnDigit) };
  }
  if (model instanceof LineOfCreditModel) return { ...base, type: 'lineOfCredit', detail: lineDetail(ledger, model, now) };
  if (model instanceof InvestmentModel) {
    const { balance, detail, position } = investmentRecord(ledger, model, now);
    return { ...base, balance, type: model.spec.type, detail, position };
  }
  throw new Error(`No record for account type ${spec.type}`);
}
