/**
 * An account's history as its bank's OFX download gives it, for benchmarks that need a customer with months or years
 * of realistic activity: pay every other week, rent, bills and subscriptions on their days of the month, and card
 * purchases, cash and transfers every day in between (a few a day), from a seeded generator so every run stores the
 * same data. The file ends today (UTC) and states the closing balance, so an upload also derives the account's daily
 * balances over the whole period, as a real download does.
 */
import { Prng } from '../../src/modules/institutions/catalog/prng.js';

const DAY_MS = 86_400_000;

/** Where an account's purchases go: a merchant and the range of its amounts. */
const MERCHANTS: readonly [name: string, min: number, max: number][] = [
  ['SAFEWAY #1482', 12, 140],
  ['TRADER JOES #552', 15, 95],
  ['WHOLE FOODS MKT 10234', 20, 160],
  ['STARBUCKS STORE 04127', 3, 14],
  ['PEETS COFFEE 0218', 3, 12],
  ['SHELL OIL 57442118', 25, 70],
  ['CHEVRON 0093311', 25, 75],
  ['AMAZON MKTPLACE PMTS', 8, 120],
  ['AMZN Mktp US', 6, 80],
  ['TARGET T-1923', 10, 150],
  ['CVS/PHARMACY #09381', 5, 45],
  ['WALGREENS #4471', 4, 40],
  ['CHIPOTLE 0876', 9, 28],
  ['MCDONALDS F31876', 5, 18],
  ['UBER TRIP', 8, 45],
  ['LYFT RIDE', 7, 40],
  ['DOORDASH ORDER', 15, 60],
  ['HOME DEPOT #6612', 10, 220],
  ['COSTCO WHSE #0481', 40, 260],
  ['APPLE.COM/BILL', 1, 15],
  ['SQ *BLUE BOTTLE COFFEE', 4, 12],
  ['TST* THE LOCAL DINER', 14, 60],
  ['PARKING METER CITY OF SF', 2, 10],
  ['BART CLIPPER RELOAD', 20, 50],
];

/** Paid on a fixed day of every month. */
const MONTHLY: readonly [day: number, name: string, min: number, max: number][] = [
  [1, 'OAKWOOD APARTMENTS RENT', 1650, 1650],
  [4, 'PACIFIC GAS AND ELECTRIC', 70, 180],
  [9, 'COMCAST CABLE COMM', 89.99, 89.99],
  [12, 'NETFLIX.COM', 15.49, 15.49],
  [15, 'GEICO AUTO INSURANCE', 112.4, 112.4],
  [18, 'SPOTIFY USA', 11.99, 11.99],
  [20, 'VERIZON WIRELESS PAYMENT', 85, 95],
  [26, 'PLANET FITNESS CLUB FEE', 24.99, 24.99],
];

function ymd(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
}

export interface HistoryTransaction {
  fitId: string;
  /** YYYYMMDD. */
  date: string;
  amount: number;
  name: string;
  type: 'CREDIT' | 'DEBIT' | 'POS' | 'ATM' | 'XFER' | 'DIRECTDEP' | 'FEE';
}

export interface AccountHistory {
  acctId: string;
  transactions: HistoryTransaction[];
  /** The balance after the last day. */
  closingBalance: number;
  firstDay: string;
  lastDay: string;
}

/**
 * `days` days of activity of one checking account ending today (UTC), about `transactions` transactions in all
 * (the everyday ones are drawn per day around the average that makes the total).
 */
export function accountHistory(options: { acctId: string; days: number; transactions: number; seed: number; today?: number }): AccountHistory {
  // The catalogue's seeded generator (mulberry32): the same seed gives the same history.
  const prng = new Prng(options.seed);
  const rand = () => prng.next();
  const today = Math.floor((options.today ?? Date.now()) / DAY_MS) * DAY_MS;
  const first = today - (options.days - 1) * DAY_MS;
  const amount = (min: number, max: number) => Math.round((min + (max - min) * rand() ** 2) * 100) / 100;
  // Recurring entries (pay every 14 days, the monthly ones) come first; the everyday ones make up the rest of the total.
  const recurring = Math.round(options.days / 14 + (options.days / 30.4) * MONTHLY.length);
  const perDay = Math.max(0, options.transactions - recurring) / options.days;
  const pay = Math.round((2000 + rand() * 1500) * 100) / 100;
  const payOffset = Math.floor(rand() * 14);
  let balance = 4000 + Math.round(rand() * 6000);
  const opening = balance;
  const transactions: HistoryTransaction[] = [];
  let n = 0;
  const add = (ms: number, value: number, name: string, type: HistoryTransaction['type']) => {
    transactions.push({ fitId: `${options.acctId}-${++n}`, date: ymd(ms), amount: value, name, type });
    balance = Math.round((balance + value) * 100) / 100;
  };
  for (let d = 0; d < options.days; d++) {
    const ms = first + d * DAY_MS;
    const dom = new Date(ms).getUTCDate();
    if ((d + payOffset) % 14 === 0) add(ms, pay, 'ACME CORP PAYROLL PPD', 'DIRECTDEP');
    for (const [day, name, min, max] of MONTHLY) if (dom === day) add(ms, -amount(min, max), name, 'DEBIT');
    // Poisson draw of the day's everyday transactions (Knuth's method: the average is small).
    let count = 0;
    for (let p = rand(), limit = Math.exp(-perDay); p > limit; p *= rand()) count++;
    for (let i = 0; i < count; i++) {
      const r = rand();
      if (r < 0.04) add(ms, -20 * (1 + Math.floor(rand() * 10)), 'ATM WITHDRAWAL 0042 MARKET ST', 'ATM');
      else if (r < 0.07) add(ms, -amount(50, 600), 'ONLINE TRANSFER TO SAVINGS', 'XFER');
      else if (r < 0.1) add(ms, amount(20, 400), 'VENMO CASHOUT', 'CREDIT');
      else if (r < 0.12) add(ms, amount(5, 250), 'ZELLE PAYMENT FROM J SMITH', 'CREDIT');
      else if (r < 0.121) add(ms, -35, 'NSF FEE', 'FEE');
      else {
        const [name, min, max] = MERCHANTS[Math.floor(rand() * MERCHANTS.length)]!;
        add(ms, -amount(min, max), name, 'POS');
      }
    }
  }
  // Keep the account funded overall, as a real account would be: what the everyday spending left short comes back as
  // transfers in, spread over the months (about one a month).
  const shortfall = opening - balance;
  if (shortfall > 0) {
    const months = Math.max(1, Math.round(options.days / 30.4));
    for (let m = 0; m < months; m++)
      add(
        first + Math.floor(((m + 0.5) * options.days) / months) * DAY_MS,
        Math.round((shortfall / months) * 100) / 100,
        'ONLINE TRANSFER FROM SAVINGS',
        'XFER',
      );
    transactions.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }
  return { acctId: options.acctId, transactions, closingBalance: balance, firstDay: ymd(first), lastDay: ymd(today) };
}

/** The account's OFX 1.02 download: one checking statement over its period, with its closing balance. */
export function ofxDownload(history: AccountHistory, bankId = '121000248'): string {
  const list = history.transactions
    .map((t) => `<STMTTRN><TRNTYPE>${t.type}<DTPOSTED>${t.date}<TRNAMT>${t.amount.toFixed(2)}<FITID>${t.fitId}<NAME>${t.name}</STMTTRN>`)
    .join('\n');
  return `OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

<OFX>
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>${history.lastDay}<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
<BANKACCTFROM><BANKID>${bankId}<ACCTID>${history.acctId}<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>${history.firstDay}<DTEND>${history.lastDay}
${list}
</BANKTRANLIST><LEDGERBAL><BALAMT>${history.closingBalance.toFixed(2)}<DTASOF>${history.lastDay}</LEDGERBAL>
<AVAILBAL><BALAMT>${history.closingBalance.toFixed(2)}<DTASOF>${history.lastDay}</AVAILBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1>
</OFX>
`;
}
