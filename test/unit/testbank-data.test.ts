import { describe, expect, it } from 'vitest';
import { TRANSACTION_CATEGORIES } from '../../src/connectors/categories.js';
import { type AccountOfType, type AccountType, type ConnectorAccount, type ConnectorTransaction, TRANSACTION_TYPES } from '../../src/connectors/connector.js';
import { monthIndex } from '../../src/connectors/testbank/calendar.js';
import { sumCents } from '../../src/connectors/testbank/entries.js';
import { Ledger } from '../../src/connectors/testbank/ledger.js';
import { TEST_PROFILES } from '../../src/connectors/testbank/profiles.js';
import { transactionsBetween } from '../../src/connectors/testbank/records.js';
import { accounts, DAY, isMoney, NOW, signIn, transactions } from '../helpers/testbank.js';

const TWO_YEARS = 730 * DAY;
const DATA_PROFILES = TEST_PROFILES.filter((p) => !p.signInFailure && !p.mfa && p.accounts.length > 0).map((p) => p.id);

async function everything(profile: string, institutionId = 101732, now = NOW) {
  const session = await signIn(profile, institutionId, now);
  const list = await accounts(session, institutionId, now);
  const txs = new Map<string, ConnectorTransaction[]>();
  for (const a of list) txs.set(a.ref, await transactions(session, a.ref, now - TWO_YEARS, now, institutionId, now));
  return { session, list, txs };
}

function byType<T extends AccountType>(list: ConnectorAccount[], type: T): AccountOfType<T> {
  const found = list.find((a) => a.type === type);
  if (!found) throw new Error(`no ${type} account`);
  return found as AccountOfType<T>;
}

// The detail fields the interface lists for each account type, with their JavaScript types.
const N = 'number';
const S = 'string';
const B = 'boolean';
const LOAN_FIELDS = {
  payoffAmount: N,
  principalBalance: N,
  escrowBalance: N,
  interestRate: S,
  autoPayEnrolled: S,
  collateral: S,
  currentSchool: S,
  firstMortgage: S,
  originalSchool: S,
  recurringPaymentAmount: N,
  lender: S,
  availableBalanceAmount: N,
  endingBalanceAmount: N,
  loanTermType: S,
  paymentsMade: N,
  balloonAmount: N,
  projectedInterest: N,
  interestPaidLtd: N,
  interestRateType: S,
  loanPaymentType: S,
  paymentsRemaining: N,
  loanMinAmtDue: N,
  loanPaymentFreq: S,
  paymentMinAmount: N,
  loanMinAmtDueDate: N,
  firstPaymentDate: N,
};
const INVESTMENT_FIELDS = {
  marginBalance: N,
  availableCashBalance: N,
  currentBalance: N,
  vestedBalance: N,
  currentLoanBalance: N,
  loanRate: N,
  marginAllowed: B,
  cashAccountAllowed: B,
  employeeDeferPreTaxAmount: N,
  employeePreTaxAmount: N,
  employeePreTaxPercentage: N,
  employerYearToDate: N,
  rolloverContributionAmount: N,
  allowedCheckWriting: S,
  allowedOptionTrade: S,
  dailyChange: N,
  margin: N,
  percentageChange: N,
  loanPaymentAmount: N,
  loanNextPaymentDate: N,
};
const LINE_FIELDS = {
  interestRate: S,
  creditAvailableAmount: N,
  paymentMinAmount: N,
  statementCloseBalance: N,
  locPrincipalBalance: N,
  paymentDueDate: N,
  statementEndDate: N,
};
const DEPOSIT_FIELDS = { availableBalanceAmount: N, periodInterestRate: S };
// The Position fields the interface lists (id is assigned by the service).
const POSITION_FIELDS = {
  symbol: S,
  fundName: S,
  quantity: N,
  marketValue: S,
  changePercent: N,
  costBasis: N,
  dailyChange: N,
  memo: S,
  empPretaxContribAmount: N,
  heldInAccount: S,
  holdType: S,
  maturityValue: N,
  units: N,
  unitPrice: N,
  type: S,
  status: S,
  invSecurityType: S,
  securityCurrencyRate: S,
  averageCost: N,
  cashAccount: B,
  faceValue: N,
  holdingId: S,
  securitySubType: S,
  rate: N,
  unitType: S,
  todayGLDollar: N,
  todayGLPercent: N,
  totalGLDollar: N,
  totalGLPercent: N,
  costBasisPerShare: N,
  enterpriseSymbol: S,
  localMarketValue: N,
  localPrice: N,
  securityId: S,
  reinvestmentCapGains: S,
  reinvestmentDividend: S,
  expirationDate: N,
  originalPurchaseDate: N,
};

function expectFields(record: object | undefined, fields: Record<string, string>, label: string): void {
  expect(record, label).toBeDefined();
  for (const [name, type] of Object.entries(fields)) {
    expect(typeof (record as Record<string, unknown>)[name], `${label}.${name}`).toBe(type);
  }
}

function cusipValid(cusip: string): boolean {
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const c = cusip[i] as string;
    let v = /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
    if (i % 2 === 1) v *= 2;
    sum += Math.floor(v / 10) + (v % 10);
  }
  return String((10 - (sum % 10)) % 10) === cusip[8];
}

describe('test bank determinism', () => {
  it('gives two customers with the same profile at the same time identical accounts and transactions', async () => {
    const first = await everything('profile_03', 102105);
    const second = await everything('profile_03', 102105);
    expect(second.list).toEqual(first.list);
    expect([...second.txs]).toEqual([...first.txs]);
    expect(second.session).toEqual(first.session);
  });

  it('produces the same books from scratch, without any cache', async () => {
    const { list, txs } = await everything('profile_02');
    const spec = TEST_PROFILES.find((p) => p.id === 'profile_02')!;
    const fresh = new Ledger(spec, 101732);
    for (const model of fresh.models) {
      expect(transactionsBetween(fresh, model, NOW - TWO_YEARS, NOW, NOW)).toEqual(txs.get(model.identity.ref));
    }
    expect(fresh.models.map((m) => m.identity.ref)).toEqual(list.map((a) => a.ref));
  });

  it('gives the same profile different books at different institutions', async () => {
    const a = await everything('profile_01', 101732);
    const b = await everything('profile_01', 102105);
    expect(b.list.map((x) => x.type)).toEqual(a.list.map((x) => x.type));
    expect(b.list.map((x) => x.ref)).not.toEqual(a.list.map((x) => x.ref));
    expect(b.list.map((x) => x.balance)).not.toEqual(a.list.map((x) => x.balance));
  });
});

describe('test bank accounts', () => {
  it.each([
    ['profile_01', ['checking', 'savings']],
    ['profile_02', ['checking', 'savings', 'creditCard', 'loan', 'mortgage', 'lineOfCredit', 'investment', 'investmentTaxDeferred', 'roth']],
    ['profile_03', ['checking', 'savings', 'creditCard', 'creditCard', 'loan', 'mortgage', 'investmentTaxDeferred']],
    ['profile_04', ['checking', 'savings', 'creditCard', 'creditCard', 'creditCard', 'checking', 'creditCard']],
    ['refresh_103', ['checking', 'savings', 'creditCard']],
    ['student', ['creditCard']],
    ['small_business', ['checking', 'savings', 'creditCard', 'loan']],
    ['retiree', ['checking', 'savings', 'creditCard', 'investment', 'roth']],
    [
      'many_accounts',
      [
        'checking',
        'checking',
        'checking',
        'savings',
        'savings',
        'savings',
        'creditCard',
        'creditCard',
        'creditCard',
        'investment',
        'investmentTaxDeferred',
        'roth',
      ],
    ],
    ['no_accounts', []],
  ])('%s has the accounts its description promises', async (profile, types) => {
    const list = await accounts(await signIn(profile));
    expect(list.map((a) => a.type)).toEqual(types);
  });

  it('gives every account a stable identity, masked display, currency, status and position', async () => {
    for (const profile of DATA_PROFILES) {
      const list = await accounts(await signIn(profile));
      expect(new Set(list.map((a) => a.ref)).size).toBe(list.length);
      list.forEach((a, i) => {
        expect(a).toMatchObject({ currency: 'USD', status: 'active', financialinstitutionAccountStatus: 'OPEN', displayPosition: i + 1, balanceDate: NOW });
        expect(a.accountNumberDisplay).toMatch(/^\d{4}$/);
        expect(a.number.endsWith(a.accountNumberDisplay)).toBe(true);
        expect(a.name.length).toBeGreaterThan(0);
        expect(a.accountNickname.length).toBeGreaterThan(0);
        expect(isMoney(a.balance)).toBe(true);
        expect(['personal', 'business']).toContain(a.marketSegment);
        if (a.type === 'checking' || a.type === 'savings') expect(a.realAccountNumberLast4).toBe(a.accountNumberDisplay);
        if (a.type === 'creditCard') expect(a.number).toMatch(/^X{12}\d{4}$/);
      });
    }
  });

  it('marks business accounts as the business market segment', async () => {
    const list = await accounts(await signIn('small_business'));
    expect(list.every((a) => a.marketSegment === 'business')).toBe(true);
  });

  it('signs balances: positive for deposits and investments, negative for cards, loans and credit lines', async () => {
    for (const profile of DATA_PROFILES) {
      for (const a of await accounts(await signIn(profile))) {
        if (['checking', 'savings', 'investment', 'investmentTaxDeferred', 'roth'].includes(a.type))
          expect(a.balance, `${profile} ${a.name}`).toBeGreaterThan(0);
        else expect(a.balance, `${profile} ${a.name}`).toBeLessThan(0);
      }
    }
  });

  it('fills every detail field of every type in profile_02, with the type the interface gives it', async () => {
    const list = await accounts(await signIn('profile_02'));
    expectFields(byType(list, 'checking').detail, DEPOSIT_FIELDS, 'checking');
    expectFields(byType(list, 'savings').detail, DEPOSIT_FIELDS, 'savings');
    expect('detail' in byType(list, 'creditCard')).toBe(false);
    for (const type of ['loan', 'mortgage'] as const) {
      const detail = byType(list, type).detail;
      expectFields(detail, LOAN_FIELDS, type);
      for (const [name, t] of Object.entries(LOAN_FIELDS)) {
        const isSchool = name === 'currentSchool' || name === 'originalSchool';
        if (t === S && !(type === 'mortgage' && isSchool)) expect((detail as unknown as Record<string, string>)[name], `${type}.${name}`).not.toBe('');
      }
      expect(['Y', 'N']).toContain(detail.autoPayEnrolled);
      expect(detail.firstMortgage).toBe(type === 'mortgage' ? 'Y' : 'N');
      expect(Number.isInteger(detail.paymentsMade) && Number.isInteger(detail.paymentsRemaining)).toBe(true);
      expect(detail.principalBalance).toBe(-byType(list, type).balance);
      expect(detail.loanMinAmtDueDate).toBeGreaterThan(NOW);
    }
    expectFields(byType(list, 'lineOfCredit').detail, LINE_FIELDS, 'lineOfCredit');
    for (const type of ['investment', 'investmentTaxDeferred', 'roth'] as const) {
      const fields = type === 'investmentTaxDeferred' ? INVESTMENT_FIELDS : { ...INVESTMENT_FIELDS, loanNextPaymentDate: 'undefined' };
      expectFields(byType(list, type).detail, fields, type);
    }
    const plan = byType(list, 'investmentTaxDeferred').detail;
    expect(plan.currentLoanBalance).toBeGreaterThan(0);
    expect(plan.employeePreTaxPercentage).toBe(8);
  });

  it('gives investment accounts positions with every position field, consistent values and valid CUSIPs', async () => {
    const list = await accounts(await signIn('profile_02'));
    for (const type of ['investment', 'investmentTaxDeferred', 'roth'] as const) {
      const account = byType(list, type);
      expect(account.position.length).toBeGreaterThan(1);
      let value = account.detail.availableCashBalance;
      for (const p of account.position) {
        const fields: Record<string, string> = { ...POSITION_FIELDS, ref: S };
        if (p.type !== 'bond') fields.expirationDate = 'undefined';
        expectFields(p, fields, `${type} ${p.symbol}`);
        expect(p.marketValue).toMatch(/^\d+\.\d{2}$/);
        expect(Number(p.marketValue)).toBeCloseTo(p.quantity * p.unitPrice, 1);
        expect(p.totalGLDollar).toBeCloseTo(Number(p.marketValue) - p.costBasis, 1);
        expect(cusipValid(p.securityId), p.securityId).toBe(true);
        value += Number(p.marketValue);
      }
      expect(account.balance).toBeCloseTo(value, 1);
      expect(account.detail.currentBalance).toBe(account.balance);
    }
    const bond = byType(list, 'investment').position.find((p) => p.type === 'bond');
    expect(bond?.expirationDate).toBe(Date.UTC(2034, 1, 15) / 1000);
    expect(bond?.faceValue).toBeGreaterThan(0);
  });

  it('gives well-formed records at any date, including months where a loan is paid off and renewed', async () => {
    const dates = [
      '2022-02-27T08:00:00Z',
      '2024-02-29T23:59:59Z',
      '2029-04-03T10:00:00Z',
      '2029-04-20T12:00:00Z',
      '2029-07-10T12:00:00Z',
      '2029-11-02T12:00:00Z',
      '2031-12-31T23:00:00Z',
    ];
    const bad: string[] = [];
    const walk = (v: unknown, path: string): void => {
      if (typeof v === 'number' && !Number.isFinite(v)) bad.push(path);
      else if (typeof v === 'string' && v.includes('NaN')) bad.push(path);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
    };
    for (const date of dates) {
      const now = Date.parse(date) / 1000;
      for (const profile of DATA_PROFILES) {
        const session = await signIn(profile, 101732, now);
        for (const a of await accounts(session, 101732, now)) {
          walk(a, `${date} ${profile} ${a.name}`);
          if (a.type === 'loan' || a.type === 'mortgage') {
            expect(a.detail.principalBalance, `${date} ${profile} ${a.name}`).toBeCloseTo(-a.balance, 2);
            expect(a.detail.paymentsMade + a.detail.paymentsRemaining).toBeGreaterThan(0);
          }
          walk(await transactions(session, a.ref, now - 40 * DAY, now, 101732, now), `${date} ${profile} ${a.name} transactions`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('keeps balances believable years before and after today', async () => {
    for (const year of [2022, 2028, 2035]) {
      const now = Math.floor(Date.UTC(year, 5, 10, 15) / 1000);
      for (const profile of ['profile_01', 'profile_02', 'profile_03']) {
        for (const a of await accounts(await signIn(profile, 101732, now), 101732, now)) {
          if (a.type === 'checking' || a.type === 'savings') expect(a.balance, `${year} ${profile} ${a.name}`).toBeGreaterThan(0);
          if (a.type === 'creditCard') expect(-a.balance, `${year} ${profile} ${a.name}`).toBeLessThan(15_000);
          if (a.type === 'loan' || a.type === 'mortgage') expect(a.balance, `${year} ${profile} ${a.name}`).toBeLessThanOrEqual(0);
        }
      }
    }
  });
});

describe('test bank transactions', () => {
  it('categorizes every transaction with a payee, a known category, a clean best representation and a country', async () => {
    const categories = new Set<string>(TRANSACTION_CATEGORIES);
    const wrong: unknown[] = [];
    let count = 0;
    for (const profile of DATA_PROFILES) {
      const { txs } = await everything(profile);
      for (const t of [...txs.values()].flat()) {
        const c = t.categorization;
        count++;
        if (!c.normalizedPayeeName || !categories.has(c.category) || !/^[A-Z]{2,}( [A-Z]{2,})*$/.test(c.bestRepresentation) || !/^[A-Z]{3}$/.test(c.country)) {
          wrong.push({ profile, description: t.description, ...c });
        }
      }
    }
    expect(count).toBeGreaterThan(40_000);
    expect(wrong).toEqual([]);
  });

  it('gives transactions stable unique refs, types, money amounts and consistent dates and status, oldest first', async () => {
    const types = new Set<string>(TRANSACTION_TYPES);
    const { txs } = await everything('profile_02');
    for (const [ref, list] of txs) {
      expect(new Set(list.map((t) => t.ref)).size).toBe(list.length);
      let previous = 0;
      for (const t of list) {
        expect(t.accountRef).toBe(ref);
        expect(types.has(t.type), t.type).toBe(true);
        expect(isMoney(t.amount)).toBe(true);
        expect(t.amount).not.toBe(0);
        expect(t.transactionDate).toBeGreaterThanOrEqual(previous);
        previous = t.transactionDate;
        if (t.status === 'active') expect(t.postedDate).toBeGreaterThanOrEqual(t.transactionDate);
        else expect(t.postedDate).toBeUndefined();
        expect(t.postedDate === undefined || t.postedDate <= NOW).toBe(true);
      }
    }
  });

  it('has two years of recurring payroll, rent, subscriptions, transfers, interest, fees and card spending', async () => {
    const { list, txs } = await everything('profile_01');
    const checking = txs.get(byType(list, 'checking').ref)!;
    const payroll = checking.filter((t) => t.type === 'directDeposit');
    expect(payroll.length).toBeGreaterThanOrEqual(50);
    expect(new Set(payroll.map((t) => t.amount))).toEqual(new Set([1850]));
    expect(checking.filter((t) => t.categorization.category === 'Mortgage & Rent').length).toBeGreaterThanOrEqual(23);
    expect(checking.filter((t) => t.categorization.normalizedPayeeName === 'Netflix').length).toBeGreaterThanOrEqual(23);
    expect(checking.filter((t) => t.type === 'pointOfSale').length).toBeGreaterThan(500);
    expect(checking.some((t) => t.type === 'atm')).toBe(true);
    expect(checking.some((t) => t.type === 'fee' && t.feeAmount === -t.amount)).toBe(true);
    expect(checking.some((t) => t.type === 'interest')).toBe(true);
    const savings = txs.get(byType(list, 'savings').ref)!;
    const toSavings = checking.filter((t) => t.description.startsWith('ONLINE TRANSFER TO SAVINGS'));
    for (const t of toSavings) expect(savings.some((s) => s.transactionDate === t.transactionDate && s.amount === -t.amount)).toBe(true);
    expect(Math.min(...checking.map((t) => t.transactionDate))).toBeLessThan(NOW - 725 * DAY);
  });

  it('splits loan payments into principal, interest and escrow, and investment trades into units and price', async () => {
    const { list, txs } = await everything('profile_02');
    const payments = txs.get(byType(list, 'mortgage').ref)!.filter((t) => t.type === 'payment');
    expect(payments.length).toBeGreaterThanOrEqual(23);
    for (const p of payments) {
      expect((p.principalAmount ?? 0) + (p.interestAmount ?? 0) + (p.escrowAmount ?? 0)).toBeCloseTo(p.amount, 2);
      expect(p.escrowAmount).toBe(520);
    }
    const buys = txs.get(byType(list, 'investment').ref)!.filter((t) => t.investmentTransactionType === 'purchased');
    expect(buys.length).toBeGreaterThan(20);
    for (const b of buys) {
      expect(b.unitQuantity! * b.unitValue!).toBeCloseTo(-b.amount, 1);
      expect(b.ticker && b.securityId).toBeTruthy();
    }
    expect(txs.get(byType(list, 'investment').ref)!.some((t) => t.type === 'dividend')).toBe(true);
    expect(txs.get(byType(list, 'creditCard').ref)!.some((t) => t.bonusAmount !== undefined && t.bonusAmount > 0)).toBe(true);
  });

  it('gives profile_04 more than 20,000 transactions over two years', async () => {
    const { txs } = await everything('profile_04');
    expect([...txs.values()].reduce((n, list) => n + list.length, 0)).toBeGreaterThanOrEqual(20_000);
  });

  it('serves only the last two years up to now, whatever range is asked', async () => {
    const session = await signIn('profile_01');
    const ref = (await accounts(session))[0]!.ref;
    const all = await transactions(session, ref, NOW - 5 * 365 * DAY, NOW + 365 * DAY);
    expect(Math.min(...all.map((t) => t.transactionDate))).toBeGreaterThanOrEqual(NOW - TWO_YEARS);
    expect(Math.max(...all.map((t) => t.transactionDate))).toBeLessThanOrEqual(NOW);
    const recent = await transactions(session, ref, NOW - 180 * DAY, NOW);
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.length).toBeLessThan(all.length);
    expect(all.filter((t) => t.transactionDate >= NOW - 180 * DAY)).toEqual(recent);
    const month = await transactions(session, ref, NOW - 60 * DAY, NOW - 30 * DAY);
    expect(month.every((t) => t.transactionDate >= NOW - 60 * DAY && t.transactionDate <= NOW - 30 * DAY)).toBe(true);
    expect(await transactions(session, ref, NOW, NOW - DAY)).toEqual([]);
  });
});

describe('test bank balances', () => {
  it('keeps every month of every account consistent: the entries of a month add up to the change of its opening balance', () => {
    for (const spec of TEST_PROFILES) {
      const ledger = new Ledger(spec, 101732);
      for (const model of ledger.models) {
        for (let m = monthIndex(2023, 1); m <= monthIndex(2027, 12); m++) {
          expect(sumCents(ledger.entries(model.key, m)), `${spec.id} ${model.key} ${m}`).toBe(model.startCents(m + 1) - model.startCents(m));
        }
      }
    }
  });

  it('moves each balance by exactly the transactions that posted in between', async () => {
    for (const profile of ['profile_01', 'profile_02', 'profile_03', 'student', 'small_business', 'retiree']) {
      const t1 = NOW - 700 * DAY;
      const before = await accounts(await signIn(profile, 101732, t1), 101732, t1);
      const session = await signIn(profile);
      for (const after of await accounts(session)) {
        const earlier = before.find((a) => a.ref === after.ref)!;
        const posted = (await transactions(session, after.ref, t1 - 10 * DAY, NOW)).filter((t) => t.postedDate !== undefined && t.postedDate > t1);
        const moved = posted.reduce((s, t) => s + Math.round(t.amount * 100), 0) / 100;
        const cash = (a: ConnectorAccount) => ('position' in a ? a.detail.availableCashBalance : a.balance);
        expect(cash(after) - cash(earlier), `${profile} ${after.name}`).toBeCloseTo(moved, 2);
      }
    }
  });

  it('shows pending debits in the available balance of deposit accounts', async () => {
    for (const profile of DATA_PROFILES) {
      const session = await signIn(profile);
      for (const a of await accounts(session)) {
        if (a.type !== 'checking' && a.type !== 'savings') continue;
        const pending = (await transactions(session, a.ref, NOW - 10 * DAY, NOW)).filter((t) => t.status === 'pending' && t.amount < 0);
        const expected = a.balance + pending.reduce((s, t) => s + t.amount, 0);
        expect(a.detail.availableBalanceAmount, `${profile} ${a.name}`).toBeCloseTo(expected, 2);
      }
    }
  });
});

describe('test bank time', () => {
  it('posts pending transactions as time passes, keeping their refs, with tips added to restaurant bills', async () => {
    const session = await signIn('profile_04');
    const list = await accounts(session);
    let posted = 0;
    let tipped = 0;
    for (const [a, now] of list.flatMap((a) => [0, 1, 2, 3, 4, 5, 6].map((d) => [a, NOW + d * DAY] as const))) {
      const pending = (await transactions(session, a.ref, now - 10 * DAY, now, 101732, now)).filter((t) => t.status === 'pending');
      const later = await transactions(session, a.ref, now - 10 * DAY, now, 101732, now + 5 * DAY);
      for (const p of pending) {
        const same = later.find((t) => t.ref === p.ref);
        expect(same).toMatchObject({ status: 'active', transactionDate: p.transactionDate, description: p.description });
        expect(same!.postedDate).toBeGreaterThan(now);
        posted++;
        if (same!.amount !== p.amount) {
          expect(Math.abs(same!.amount)).toBeGreaterThan(Math.abs(p.amount));
          tipped++;
        }
      }
    }
    expect(posted).toBeGreaterThan(10);
    expect(tipped).toBeGreaterThan(0);
  });

  it('adds new transactions as the clock advances, and keeps the old ones', async () => {
    const session = await signIn('profile_03');
    for (const a of await accounts(session)) {
      const now = await transactions(session, a.ref, NOW - 180 * DAY, NOW);
      const later = await transactions(session, a.ref, NOW - 180 * DAY, NOW + 3 * DAY, 101732, NOW + 3 * DAY);
      const refs = new Set(later.map((t) => t.ref));
      expect(now.every((t) => refs.has(t.ref))).toBe(true);
      if (a.type === 'checking' || a.type === 'creditCard') expect(later.filter((t) => t.transactionDate > NOW).length, a.name).toBeGreaterThan(0);
    }
  });

  it('moves balances when the clock advances', async () => {
    const before = await accounts(await signIn('profile_03'));
    const later = NOW + 7 * DAY;
    const after = await accounts(await signIn('profile_03', 101732, later), 101732, later);
    expect(after.map((a) => a.ref)).toEqual(before.map((a) => a.ref));
    expect(after.filter((a, i) => a.balance !== before[i]!.balance).length).toBeGreaterThanOrEqual(3);
  });
});
