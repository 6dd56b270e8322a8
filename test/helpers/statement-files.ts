/**
 * Statement files built for tests from the formats' rules (OFX 1.x SGML, CSV), of any size: large hostile ones
 * for the cost tests, small ones with planted values for the rest.
 */
import { Prng } from '../../src/modules/institutions/catalog/prng.js';

export interface OfxStatementTransaction {
  fitId: string;
  /** YYYYMMDD. */
  date: string;
  amount: number;
  name: string;
}

export interface OfxStatementAccount {
  acctId: string;
  transactions: OfxStatementTransaction[];
  balance?: number;
  currency?: string;
}

const OFX_HEADER = `OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

`;

/** An OFX 1.02 bank statement file with one statement per account. */
export function ofxStatementFile(accounts: OfxStatementAccount[], asOf = '20260331'): string {
  const statements = accounts.map((a, i) => {
    const list = a.transactions
      .map(
        (t) =>
          `<STMTTRN><TRNTYPE>${t.amount < 0 ? 'DEBIT' : 'CREDIT'}<DTPOSTED>${t.date}<TRNAMT>${t.amount.toFixed(2)}<FITID>${t.fitId}<NAME>${t.name}</STMTTRN>`,
      )
      .join('\n');
    return `<STMTTRNRS><TRNUID>${i + 1}<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>${a.currency ?? 'USD'}
<BANKACCTFROM><BANKID>121000248<ACCTID>${a.acctId}<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20260101<DTEND>${asOf}
${list}
</BANKTRANLIST><LEDGERBAL><BALAMT>${(a.balance ?? 100).toFixed(2)}<DTASOF>${asOf}</LEDGERBAL></STMTRS></STMTTRNRS>`;
  });
  return `${OFX_HEADER}<OFX>
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>${asOf}<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1>
${statements.join('\n')}
</BANKMSGSRSV1>
</OFX>
`;
}

/** A day of 2026 as YYYYMMDD (day 0 is January 1st). */
export function ofxDay(day: number): string {
  return new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10).replace(/-/g, '');
}

/** A CSV export (Date,Description,Amount) of `rows` rows, each description padded to make rows of about `rowBytes`. */
export function csvStatementFile(rows: number, rowBytes = 32): string {
  const lines = ['Date,Description,Amount'];
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.UTC(2026, 0, 1 + (i % 360)));
    const date = `${String(day.getUTCMonth() + 1).padStart(2, '0')}/${String(day.getUTCDate()).padStart(2, '0')}/2026`;
    const head = `${date},SHOP ${i} `;
    const amount = `,-${(1 + (i % 500)).toFixed(2)}`;
    lines.push(`${head}${'X'.repeat(Math.max(0, rowBytes - head.length - amount.length))}${amount}`);
  }
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// Realistic statements of every format, written from one generated ledger: accounts whose transactions run forward
// a few a day over a statement period (card purchases, bills, pay, transfers, checks, cash), amounts with cents,
// descriptions as banks write them. Deterministic for a seed.

/** What a generated transaction is, which decides how each format writes it. */
export type LedgerKind = 'card' | 'atm' | 'check' | 'directDebit' | 'standingOrder' | 'salary' | 'transferOut' | 'transferIn' | 'deposit' | 'fee' | 'interest';

export interface LedgerTransaction {
  /** The bank's reference, unique in the account (an OFX FITID, a camt AcctSvcrRef, MT940's bank reference). */
  id: string;
  /** The booking (posted) day, in days since 1970-01-01. */
  day: number;
  /** The value (transaction) day: a card purchase is booked a day or two after it was made. */
  valueDay: number;
  /** Minutes after midnight it was made. */
  minute: number;
  /** Signed amount in cents, money out negative. */
  cents: number;
  kind: LedgerKind;
  /** The counterparty as the bank names it: a merchant and its store, an employer, a payee. */
  name: string;
  /** The bank's longer text: the card and terminal, the remittance information. */
  memo: string;
  /** A category as Quicken writes it (`Auto:Fuel`). */
  category: string;
  checkNumber?: number;
  /** SEPA details of a EUR transfer or direct debit. */
  sepa?: { iban: string; bic: string; endToEndId: string; mandateId?: string; creditorId?: string };
}

export interface LedgerAccount {
  /** The account number (USD ledgers) or IBAN (EUR ledgers). */
  id: string;
  name: string;
  currency: 'USD' | 'EUR';
  /** The balance before its first transaction, in cents. */
  openingCents: number;
  transactions: LedgerTransaction[];
}

export interface LedgerOptions {
  /** Transactions in all, spread over as many accounts as they fill (the last one's period is cut at its start). */
  transactions: number;
  currency: 'USD' | 'EUR';
  /** The last day of every account's statement period, YYYY-MM-DD. */
  endDate?: string;
  /** Days each account's statement period covers. */
  days?: number;
  seed?: number;
}

const DAY_MS = 86_400_000;
const epochDay = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const dateOfDay = (day: number) => new Date(day * DAY_MS);
/** YYYY-MM-DD of an epoch day. */
const isoOfDay = (day: number) => dateOfDay(day).toISOString().slice(0, 10);
const ymdOfDay = (day: number) => isoOfDay(day).replace(/-/g, '');

interface Random {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** Cents between min and max, skewed towards the low end as shop receipts are. */
  cents(min: number, max: number): number;
  digits(count: number): string;
}

/** The catalogue's seeded generator (mulberry32), so a ledger is the same on every run, with what ledgers draw. */
function random(seed: number): Random {
  const prng = new Prng(seed);
  const next = () => prng.next();
  return {
    next,
    int: (min, max) => prng.int(min, max),
    pick: (items) => prng.pick(items),
    cents: (min, max) => Math.round(min + (max - min) * next() ** 3),
    digits: (count) => Array.from({ length: count }, () => String(prng.int(0, 9))).join(''),
  };
}

/** A merchant: its name as card statements show it, its category, and what a purchase there costs (cents). */
type Merchant = readonly [name: string, category: string, min: number, max: number];

const US_MERCHANTS: readonly Merchant[] = [
  ['KROGER #0412', 'Groceries', 800, 18_000],
  ['WHOLEFDS MKT #10231', 'Groceries', 1200, 16_000],
  ["TRADER JOE'S #552", 'Groceries', 900, 12_000],
  ['COSTCO WHSE #0339', 'Groceries', 4000, 35_000],
  ['SHELL OIL 57444212800', 'Auto:Fuel', 2000, 7500],
  ['CHEVRON 0203945', 'Auto:Fuel', 2000, 7500],
  ['STARBUCKS STORE 08412', 'Dining:Coffee', 350, 1600],
  ['DUNKIN #348112', 'Dining:Coffee', 250, 1200],
  ['SQ *BLUE BOTTLE COFFEE', 'Dining:Coffee', 400, 1500],
  ['CHIPOTLE 1842', 'Dining', 900, 3500],
  ["MCDONALD'S F12345", 'Dining', 500, 2200],
  ['PANERA BREAD #601345', 'Dining', 800, 3000],
  ['TST* THE GREEK KITCHEN', 'Dining', 1500, 8000],
  ['TARGET T-1423', 'Shopping', 500, 20_000],
  ['WAL-MART #2391', 'Shopping', 500, 20_000],
  ['AMAZON MKTPLACE PMTS AMZN.COM/BILL', 'Shopping', 600, 15_000],
  ['BEST BUY 00001234', 'Shopping:Electronics', 1500, 80_000],
  ['CVS/PHARMACY #04521', 'Healthcare:Pharmacy', 400, 6000],
  ['WALGREENS #12054', 'Healthcare:Pharmacy', 400, 6000],
  ['THE HOME DEPOT #6512', 'Home:Improvement', 1000, 30_000],
  ["LOWE'S #1042", 'Home:Improvement', 1000, 25_000],
  ['UBER *TRIP HELP.UBER.COM', 'Travel:Rideshare', 800, 4500],
  ['LYFT *RIDE', 'Travel:Rideshare', 800, 4500],
  ['PARKMOBILE', 'Auto:Parking', 150, 1800],
  ['CHEWY.COM', 'Pets', 2000, 12_000],
  ['APPLE.COM/BILL', 'Subscriptions', 99, 1999],
];

const US_CITIES = ['COLUMBUS OH', 'AUSTIN TX', 'DENVER CO', 'PORTLAND OR', 'RALEIGH NC', 'PHOENIX AZ', 'MADISON WI', 'TAMPA FL'];
const US_PEOPLE = ['JOHN SMITH', 'MARIA GARCIA', 'DAVID JOHNSON', 'EMILY CHEN', 'JAMES WILLIAMS', 'SARAH MILLER', 'ROBERT BROWN', 'LINDA DAVIS'];
const US_EMPLOYERS = ['ACME CORP', 'GLOBEX LLC', 'INITECH INC', 'UMBRELLA HEALTH', 'STARK INDUSTRIES'];

/** Monthly bills: name, category, day of the month, amount range (cents). */
const US_BILLS: readonly (readonly [string, string, number, number, number])[] = [
  ['WF HOME MTG AUTO PAY', 'Housing:Mortgage', 1, 145_000, 145_000],
  ['DUKE ENERGY', 'Utilities:Electric', 14, 6000, 21_000],
  ['COMCAST CABLE', 'Utilities:Internet', 18, 8999, 8999],
  ['VERIZON WIRELESS', 'Utilities:Phone', 22, 7500, 14_000],
  ['GEICO AUTO', 'Insurance:Auto', 5, 11_200, 11_200],
  ['NETFLIX.COM', 'Subscriptions', 7, 1549, 1549],
  ['SPOTIFY USA', 'Subscriptions', 12, 1199, 1199],
  ['PLANET FITNESS', 'Health:Fitness', 17, 2499, 2499],
  ['CITY OF COLUMBUS UTILITIES', 'Utilities:Water', 25, 4000, 9000],
];

const EU_MERCHANTS: readonly Merchant[] = [
  ['REWE Markt GmbH', 'Lebensmittel', 600, 12_000],
  ['EDEKA Center Kraus', 'Lebensmittel', 600, 11_000],
  ['Lidl sagt Danke', 'Lebensmittel', 500, 9000],
  ['ALDI SUED', 'Lebensmittel', 500, 8000],
  ['dm-drogerie markt', 'Drogerie', 300, 4500],
  ['ROSSMANN', 'Drogerie', 300, 4000],
  ['ARAL Station', 'Auto:Tanken', 2500, 9000],
  ['Shell Deutschland Oil GmbH', 'Auto:Tanken', 2500, 9000],
  ['Baeckerei Zoeller', 'Essen:Baeckerei', 250, 1400],
  ['Starbucks Coffee Deutschland', 'Essen:Kaffee', 350, 1200],
  ['Vapiano', 'Essen:Restaurant', 1200, 4500],
  ['IKEA Deutschland GmbH', 'Haushalt', 1500, 25_000],
  ['MediaMarkt', 'Einkauf:Elektronik', 1500, 30_000],
  ['DB Vertrieb GmbH', 'Reisen:Bahn', 1500, 14_000],
  ['MVG Automaten', 'Reisen:Nahverkehr', 330, 5800],
  ['Apotheke am Markt', 'Gesundheit', 400, 5000],
  ['H+M Hennes + Mauritz', 'Einkauf:Kleidung', 1000, 12_000],
];

const EU_CITIES = ['Muenchen', 'Berlin', 'Hamburg', 'Koeln', 'Frankfurt', 'Stuttgart', 'Leipzig', 'Nuernberg'];
const EU_PEOPLE = ['Anna Schneider', 'Lukas Mueller', 'Sophie Wagner', 'Jonas Becker', 'Marie Hoffmann', 'Felix Schulz', 'Laura Fischer'];
const EU_EMPLOYERS = ['ACME Software GmbH', 'Globex Logistik AG', 'Initech Consulting GmbH', 'Nordwind Energie GmbH'];
const EU_BICS = ['COBADEFFXXX', 'DEUTDEMMXXX', 'HYVEDEMMXXX', 'BYLADEM1001', 'GENODEF1M01', 'INGDDEFFXXX'];

/** Monthly SEPA direct debits: creditor, category, day of the month, amount range (cents), remittance text. */
const EU_BILLS: readonly (readonly [string, string, number, number, number, string])[] = [
  ['Stadtwerke Muenchen GmbH', 'Wohnen:Strom', 15, 8400, 8400, 'Abschlag Strom und Gas'],
  ['Telefonica Germany GmbH + Co. OHG', 'Wohnen:Telefon', 20, 2999, 4599, 'Mobilfunk Rechnung'],
  ['Vodafone GmbH', 'Wohnen:Internet', 3, 3999, 3999, 'Kabel Internet Rechnung'],
  ['Allianz Versicherungs-AG', 'Versicherung', 1, 4870, 4870, 'Beitrag Kfz-Versicherung'],
  ['Netflix International B.V.', 'Abonnements', 9, 1399, 1399, 'Netflix Monatsabo'],
  ['Spotify AB', 'Abonnements', 12, 1099, 1099, 'Spotify Premium'],
  ['Urban Sports GmbH', 'Gesundheit:Sport', 1, 5900, 5900, 'Mitgliedsbeitrag'],
  ['Amazon Payments Europe S.C.A.', 'Einkauf', 24, 1200, 9000, 'Amazon.de Bestellung'],
];

/** The ISO 7064 check digits of a German IBAN for a bank code and account number. */
function germanIban(bankCode: string, account: string): string {
  const bban = `${bankCode}${account.padStart(10, '0')}`;
  // D = 13, E = 14, then 00 for the check digits.
  const numeric = `${bban}131400`;
  let rest = 0;
  for (const digit of numeric) rest = (rest * 10 + Number(digit)) % 97;
  return `DE${String(98 - rest).padStart(2, '0')}${bban}`;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** One account's activity over its period: a few card purchases a day, monthly bills, pay, transfers, cash. */
function accountActivity(index: number, options: Required<LedgerOptions>): LedgerAccount {
  const r = random(options.seed * 7919 + index);
  const eu = options.currency === 'EUR';
  const last = epochDay(options.endDate);
  const first = last - options.days + 1;
  const bankCode = eu ? r.pick(['70150000', '10010010', '20050550', '37040044', '50010517']) : '';
  // Distinct last four digits, which name the account.
  const lastFour = pad((index * 7919 + 1234) % 10_000, 4);
  const number = eu ? `${r.digits(6)}${lastFour}` : `${r.int(1, 9)}${r.digits(5)}${lastFour}`;
  const id = eu ? germanIban(bankCode, number) : number;
  const city = eu ? r.pick(EU_CITIES) : r.pick(US_CITIES);
  const employer = eu ? r.pick(EU_EMPLOYERS) : r.pick(US_EMPLOYERS);
  const pay = eu ? r.int(420_000, 600_000) : r.int(300_000, 420_000);
  const card = r.digits(4);
  const merchants = eu ? EU_MERCHANTS : US_MERCHANTS;
  // Each account shops at some of the merchants, most at a few of them.
  const local = Array.from({ length: 12 }, () => r.pick(merchants));
  const transactions: LedgerTransaction[] = [];
  let sequence = 0;
  let checkNumber = r.int(1001, 4000);
  const add = (day: number, t: Omit<LedgerTransaction, 'id' | 'day' | 'valueDay' | 'minute'> & { valueDay?: number; minute?: number }) => {
    sequence++;
    transactions.push({
      // 16 characters, the most SWIFT's bank reference holds.
      id: `${ymdOfDay(day)}${pad(index % 1000, 3)}${pad(sequence, 5)}`,
      day,
      valueDay: t.valueDay ?? day,
      minute: t.minute ?? r.int(6 * 60, 22 * 60),
      ...t,
    });
  };
  const sepa = (mandate?: boolean) => ({
    iban: germanIban(r.pick(['70150000', '10070000', '43060967', '76050101']), r.digits(10)),
    bic: r.pick(EU_BICS),
    endToEndId: `E2E${r.digits(13)}`,
    ...(mandate ? { mandateId: `M-${r.digits(8)}`, creditorId: `DE${r.digits(2)}ZZZ${r.digits(11)}` } : {}),
  });

  for (let day = first; day <= last; day++) {
    const date = dateOfDay(day);
    const weekday = date.getUTCDay();
    const dom = date.getUTCDate();
    const month = `${pad(date.getUTCMonth() + 1, 2)}/${date.getUTCFullYear()}`;
    const lastOfMonth = dateOfDay(day + 1).getUTCDate() === 1;
    // Pay: every other Friday in the US, the last working day of the month in Europe.
    const lastWorkingDay = (lastOfMonth && weekday !== 0 && weekday !== 6) || (weekday === 5 && dateOfDay(day + 3).getUTCDate() <= 2);
    const payday = eu ? lastWorkingDay : weekday === 5 && (day - first) % 14 < 7;
    if (payday) {
      const cents = pay + r.int(-1500, 1500);
      if (eu)
        add(day, {
          cents,
          kind: 'salary',
          name: employer,
          memo: `Gehalt ${month} Personalnr. ${pad(index + 10_000, 6)}`,
          category: 'Einkommen:Gehalt',
          sepa: sepa(),
        });
      else add(day, { cents, kind: 'salary', name: `${employer} PAYROLL`, memo: `DIRECT DEP PPD ID: 9${r.digits(9)}`, category: 'Income:Salary' });
    }
    if (dom === 1) {
      if (eu)
        add(day, {
          cents: -r.int(95_000, 135_000),
          kind: 'standingOrder',
          name: 'Hausverwaltung Bergmann',
          memo: `Miete ${month} Wohnung 3.OG links`,
          category: 'Wohnen:Miete',
          sepa: sepa(),
        });
    }
    for (const [name, category, billDay, min, max, text] of eu ? EU_BILLS : US_BILLS.map((b) => [...b, ''] as const)) {
      if (dom !== billDay) continue;
      const cents = -r.cents(min, max);
      if (eu) add(day, { cents, kind: 'directDebit', name, memo: `${text} ${month} Kundennr. ${r.digits(8)}`, category, sepa: sepa(true) });
      else add(day, { cents, kind: 'directDebit', name, memo: `ACH DEBIT ${name} PAYMENT PPD ID: ${r.digits(10)} WEB`, category });
    }
    // A few card purchases a day: fewer on Sundays.
    const purchases = weekday === 0 ? r.int(0, 1) : r.int(1, 4);
    for (let p = 0; p < purchases; p++) {
      const [merchant, category, min, max] = r.next() < 0.7 ? r.pick(local) : r.pick(merchants);
      const made = day - (r.next() < 0.6 ? 1 : r.next() < 0.5 ? 0 : 2);
      const minute = r.int(7 * 60, 22 * 60);
      const time = `${pad(Math.floor(minute / 60), 2)}:${pad(minute % 60, 2)}`;
      const madeDate = dateOfDay(made);
      const memo = eu
        ? `${merchant}//${city}/DE ${isoOfDay(made)}T${time}:${pad(r.int(0, 59), 2)} KFN 1 VJ 2812 Kartenzahlung`
        : `POS PURCHASE ${pad(madeDate.getUTCMonth() + 1, 2)}/${pad(madeDate.getUTCDate(), 2)} ${time} CARD ${card} ${merchant} ${city}`;
      add(day, { cents: -r.cents(min, max), kind: 'card', name: eu ? merchant : `${merchant} ${city}`, memo, category, valueDay: made, minute });
    }
    const roll = r.next();
    if (roll < 0.05) {
      const cents = -r.pick([2000, 4000, 6000, 8000, 10_000, 20_000]);
      if (eu)
        add(day, {
          cents,
          kind: 'atm',
          name: 'Bargeldauszahlung',
          memo: `GA NR${r.digits(8)} BLZ${bankCode} ${pad(dom, 2)}.${pad(date.getUTCMonth() + 1, 2)}/${pad(r.int(8, 21), 2)}.${pad(r.int(0, 59), 2)}UHR ${city.toUpperCase()}`,
          category: 'Bargeld',
        });
      else
        add(day, {
          cents,
          kind: 'atm',
          name: `ATM WITHDRAWAL ${r.digits(6)} ${city}`,
          memo: `ATM WITHDRAWAL ${r.digits(6)} ${r.int(100, 9999)} MAIN ST ${city}`,
          category: 'Cash',
        });
    } else if (roll < 0.1) {
      const person = eu ? r.pick(EU_PEOPLE) : r.pick(US_PEOPLE);
      const cents = -r.cents(1500, 60_000);
      if (eu)
        add(day, {
          cents,
          kind: 'transferOut',
          name: person,
          memo: r.pick(['Geschenk', 'Anteil Urlaub', 'Miete Garage', `Rechnung 2026-${r.digits(4)}`, 'Danke fuers Auslegen']),
          category: 'Ueberweisung',
          sepa: sepa(),
        });
      else
        add(day, {
          cents,
          kind: 'transferOut',
          name: `ZELLE PAYMENT TO ${person}`,
          memo: `ZELLE PAYMENT TO ${person} JPM99${r.digits(7)}`,
          category: 'Transfer',
        });
    } else if (roll < 0.13) {
      const person = eu ? r.pick(EU_PEOPLE) : r.pick(US_PEOPLE);
      const cents = r.cents(1500, 45_000);
      if (eu)
        add(day, {
          cents,
          kind: 'transferIn',
          name: person,
          memo: r.pick(['Rueckzahlung', 'Anteil Essen', 'Konzertkarten', 'Auslage Einkauf']),
          category: 'Ueberweisung',
          sepa: sepa(),
        });
      else
        add(day, {
          cents,
          kind: 'transferIn',
          name: `ZELLE PAYMENT FROM ${person}`,
          memo: `ZELLE PAYMENT FROM ${person} BAC${r.digits(8)}`,
          category: 'Transfer',
        });
    } else if (roll < 0.16 && !eu) {
      add(day, {
        cents: -r.cents(2500, 90_000),
        kind: 'check',
        name: `CHECK ${checkNumber}`,
        memo: `CHECK ${checkNumber} PAID`,
        category: 'Checks',
        checkNumber,
      });
      checkNumber++;
    } else if (roll < 0.18 && !eu) {
      add(day, { cents: r.cents(2000, 80_000), kind: 'deposit', name: 'MOBILE DEPOSIT', memo: `MOBILE DEPOSIT REF ${r.digits(9)}`, category: 'Income:Other' });
    }
    if (lastOfMonth) {
      if (eu) add(day, { cents: -495, kind: 'fee', name: 'Kontofuehrungsentgelt', memo: `Entgelt Kontofuehrung ${month}`, category: 'Bankgebuehren' });
      else add(day, { cents: r.int(1, 250), kind: 'interest', name: 'INTEREST PAYMENT', memo: `INTEREST PAID ${month}`, category: 'Income:Interest' });
    }
  }
  return {
    id,
    name: eu ? `Girokonto ${id.slice(-4)}` : `Everyday Checking ${id.slice(-4)}`,
    currency: options.currency,
    openingCents: r.int(250_000, 1_200_000),
    transactions,
  };
}

/**
 * Accounts holding `transactions` transactions in all: each a statement period of a few a day, ending on
 * `endDate`; the last account keeps only its latest ones.
 */
export function statementLedger(options: LedgerOptions): LedgerAccount[] {
  const full: Required<LedgerOptions> = { endDate: '2026-06-30', days: 365, seed: 1, ...options };
  const accounts: LedgerAccount[] = [];
  let left = full.transactions;
  while (left > 0) {
    const account = accountActivity(accounts.length, full);
    const dropped = account.transactions.splice(0, Math.max(0, account.transactions.length - left));
    account.openingCents += dropped.reduce((sum, t) => sum + t.cents, 0);
    left -= account.transactions.length;
    accounts.push(account);
  }
  return accounts;
}

/** The number of transactions of a ledger. */
export const ledgerSize = (accounts: LedgerAccount[]) => accounts.reduce((n, a) => n + a.transactions.length, 0);

const closingCents = (a: LedgerAccount) => a.openingCents + a.transactions.reduce((sum, t) => sum + t.cents, 0);
const money = (cents: number) => (cents / 100).toFixed(2);
const escapeMarkup = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** The days an account's transactions cover, first and last. */
const periodOf = (a: LedgerAccount) => ({ first: a.transactions[0]?.day ?? 0, last: a.transactions.at(-1)?.day ?? 0 });

/** Months (YYYY-MM) an account's transactions fall in, each with its transactions, in order. */
function byMonth(a: LedgerAccount): { month: string; transactions: LedgerTransaction[]; openingCents: number }[] {
  const months: { month: string; transactions: LedgerTransaction[]; openingCents: number }[] = [];
  let balance = a.openingCents;
  for (const t of a.transactions) {
    const month = isoOfDay(t.day).slice(0, 7);
    if (months.at(-1)?.month !== month) months.push({ month, transactions: [], openingCents: balance });
    months.at(-1)!.transactions.push(t);
    balance += t.cents;
  }
  return months;
}

const OFX_TRNTYPE: Record<LedgerKind, string> = {
  card: 'POS',
  atm: 'ATM',
  check: 'CHECK',
  directDebit: 'DIRECTDEBIT',
  standingOrder: 'REPEATPMT',
  salary: 'DIRECTDEP',
  transferOut: 'XFER',
  transferIn: 'XFER',
  deposit: 'DEP',
  fee: 'FEE',
  interest: 'INT',
};

/** An OFX date-time at the transaction's minute, US Eastern time as US banks write it. */
const ofxTime = (day: number, minute: number) => `${ymdOfDay(day)}${pad(Math.floor(minute / 60), 2)}${pad(minute % 60, 2)}00.000[-5:EST]`;

/** The element tree of a bank statement download, as [name, value or children] pairs, for either OFX syntax. */
type OfxNode = [string, string | OfxNode[]];

function ofxTree(accounts: LedgerAccount[], qfx: boolean): OfxNode {
  const server = ofxTime(epochDay('2026-07-01'), 8 * 60);
  const signon: OfxNode[] = [
    [
      'STATUS',
      [
        ['CODE', '0'],
        ['SEVERITY', 'INFO'],
      ],
    ],
    ['DTSERVER', server],
    ['LANGUAGE', 'ENG'],
    [
      'FI',
      [
        ['ORG', 'B1'],
        ['FID', '10898'],
      ],
    ],
    ...(qfx ? ([['INTU.BID', '10898']] as OfxNode[]) : []),
  ];
  const statements = accounts.map((a, i): OfxNode => {
    const { first, last } = periodOf(a);
    const list: OfxNode[] = [
      ['DTSTART', ofxTime(first, 0)],
      ['DTEND', ofxTime(last, 23 * 60 + 59)],
    ];
    for (const t of a.transactions) {
      const trn: OfxNode[] = [
        ['TRNTYPE', OFX_TRNTYPE[t.kind]],
        ['DTPOSTED', ofxTime(t.day, 12 * 60)],
        ['DTUSER', ofxTime(t.valueDay, t.minute)],
        ['TRNAMT', money(t.cents)],
        ['FITID', t.id],
      ];
      if (t.checkNumber !== undefined) trn.push(['CHECKNUM', String(t.checkNumber)]);
      // OFX names are at most 32 characters; the rest of the bank's text is the memo.
      trn.push(['NAME', escapeMarkup(t.name.slice(0, 32))], ['MEMO', escapeMarkup(t.memo)]);
      list.push(['STMTTRN', trn]);
    }
    const closing = money(closingCents(a));
    return [
      'STMTTRNRS',
      [
        ['TRNUID', String(i + 1)],
        [
          'STATUS',
          [
            ['CODE', '0'],
            ['SEVERITY', 'INFO'],
          ],
        ],
        [
          'STMTRS',
          [
            ['CURDEF', a.currency],
            [
              'BANKACCTFROM',
              [
                ['BANKID', '121000248'],
                ['ACCTID', a.id],
                ['ACCTTYPE', 'CHECKING'],
              ],
            ],
            ['BANKTRANLIST', list],
            [
              'LEDGERBAL',
              [
                ['BALAMT', closing],
                ['DTASOF', ofxTime(last, 23 * 60 + 59)],
              ],
            ],
            [
              'AVAILBAL',
              [
                ['BALAMT', closing],
                ['DTASOF', ofxTime(last, 23 * 60 + 59)],
              ],
            ],
          ],
        ],
      ],
    ];
  });
  return [
    'OFX',
    [
      ['SIGNONMSGSRSV1', [['SONRS', signon]]],
      ['BANKMSGSRSV1', statements],
    ],
  ];
}

/** OFX 1.x SGML: leaves unclosed, one element a line, CRLF line ends. */
function sgml(node: OfxNode, out: string[]): void {
  const [name, content] = node;
  if (typeof content === 'string') out.push(`<${name}>${content}`);
  else {
    out.push(`<${name}>`);
    for (const child of content) sgml(child, out);
    out.push(`</${name}>`);
  }
}

/** OFX 2.x XML: every element closed, indented by two spaces a level. */
function xml(node: OfxNode, depth: number, out: string[]): void {
  const [name, content] = node;
  const indent = '  '.repeat(depth);
  if (typeof content === 'string') out.push(`${indent}<${name}>${content}</${name}>`);
  else {
    out.push(`${indent}<${name}>`);
    for (const child of content) xml(child, depth + 1, out);
    out.push(`${indent}</${name}>`);
  }
}

const SGML_HEADER = (version: string) =>
  `OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:${version}\r\nSECURITY:NONE\r\nENCODING:USASCII\r\nCHARSET:1252\r\nCOMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n`;

/** An OFX 1.02 (SGML) bank statement download of every account, as US banks' "Download to Money" files. */
export function ofx1LedgerFile(accounts: LedgerAccount[]): string {
  const out: string[] = [];
  sgml(ofxTree(accounts, false), out);
  return `${SGML_HEADER('102')}${out.join('\r\n')}\r\n`;
}

/** A QFX (Quicken Web Connect) download: OFX 1.02 SGML with Intuit's INTU.BID in the sign-on. */
export function qfxLedgerFile(accounts: LedgerAccount[]): string {
  const out: string[] = [];
  sgml(ofxTree(accounts, true), out);
  return `${SGML_HEADER('102')}${out.join('\r\n')}\r\n`;
}

/** An OFX 2.2 (XML) bank statement download of every account. */
export function ofx2LedgerFile(accounts: LedgerAccount[]): string {
  const out = [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>',
  ];
  xml(ofxTree(accounts, false), 0, out);
  return `${out.join('\n')}\n`;
}

const csvCell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
const usDate = (day: number) => {
  const d = dateOfDay(day);
  return `${pad(d.getUTCMonth() + 1, 2)}/${pad(d.getUTCDate(), 2)}/${d.getUTCFullYear()}`;
};

/**
 * A CSV export of several accounts, as business online banking writes one: account name and number, the
 * transaction and posting dates, description, memo, signed amount and running balance; each account's rows in date
 * order.
 */
export function csvLedgerFile(accounts: LedgerAccount[]): string {
  const lines = ['Account Name,Account Number,Date,Posted Date,Description,Memo,Amount,Balance'];
  for (const a of accounts) {
    let balance = a.openingCents;
    for (const t of a.transactions) {
      balance += t.cents;
      lines.push([a.name, a.id, usDate(t.valueDay), usDate(t.day), csvCell(t.name), csvCell(t.memo), money(t.cents), money(balance)].join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Quicken's date: the day padded with a space, and years from 2000 after an apostrophe (`3/ 2'26`). */
const quickenDate = (day: number) => {
  const d = dateOfDay(day);
  return `${d.getUTCMonth() + 1}/${String(d.getUTCDate()).padStart(2, ' ')}'${pad(d.getUTCFullYear() % 100, 2)}`;
};
const quickenAmount = (cents: number) => `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100).toLocaleString('en-US')}.${pad(Math.abs(cents) % 100, 2)}`;

const QIF_NUMBER: Partial<Record<LedgerKind, string>> = { atm: 'ATM', deposit: 'DEP', transferOut: 'XFER', transferIn: 'XFER', salary: 'DEP' };

/** A Quicken export of several bank accounts: each an `!Account` record followed by its `!Type:Bank` transactions. */
export function qifLedgerFile(accounts: LedgerAccount[]): string {
  const lines: string[] = [];
  for (const a of accounts) {
    lines.push('!Account', `N${a.name}`, 'TBank', `D${a.name} ...${a.id.slice(-4)}`, '^', '!Type:Bank');
    for (const t of a.transactions) {
      lines.push(`D${quickenDate(t.valueDay)}`, `U${quickenAmount(t.cents)}`, `T${quickenAmount(t.cents)}`, 'CX');
      const number = t.checkNumber !== undefined ? String(t.checkNumber) : QIF_NUMBER[t.kind];
      if (number) lines.push(`N${number}`);
      lines.push(`P${t.name}`, `M${t.memo}`, `L${t.category}`, '^');
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** SWIFT's character set X has no accents, `&` or `?` (which separates the subfields of a structured text). */
const swiftText = (text: string) =>
  text
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/Ä/g, 'Ae')
    .replace(/Ö/g, 'Oe')
    .replace(/Ü/g, 'Ue')
    .replace(/ß/g, 'ss')
    .replace(/&/g, '+')
    .replace(/[^A-Za-z0-9/\-:().,'+ ]/g, ' ');
const swiftDay = (day: number) => ymdOfDay(day).slice(2);
const swiftAmount = (cents: number) => `${Math.floor(Math.abs(cents) / 100)},${pad(Math.abs(cents) % 100, 2)}`;
const swiftBalance = (cents: number, day: number, currency: string) => `${cents < 0 ? 'D' : 'C'}${swiftDay(day)}${currency}${swiftAmount(cents)}`;
/** Text cut into pieces of `width` characters (the last may be shorter). */
const pieces = (text: string, width: number) => Array.from({ length: Math.ceil(text.length / width) }, (_, i) => text.slice(i * width, (i + 1) * width));

/** The German transaction code (GVC), booking text and SWIFT type code of each kind. */
const MT940_CODES: Record<LedgerKind, readonly [gvc: string, text: string, swift: string]> = {
  card: ['106', 'KARTENZAHLUNG', 'NMSC'],
  atm: ['083', 'BARGELDAUSZAHLUNG', 'NMSC'],
  check: ['101', 'SCHECK', 'NCHK'],
  directDebit: ['105', 'SEPA-BASISLASTSCHRIFT', 'NDDT'],
  standingOrder: ['117', 'DAUERAUFTRAG', 'NSTO'],
  salary: ['153', 'GEHALT/RENTE', 'NTRF'],
  transferOut: ['116', 'SEPA-UEBERWEISUNG', 'NTRF'],
  transferIn: ['166', 'SEPA-GUTSCHRIFT', 'NTRF'],
  deposit: ['166', 'SEPA-GUTSCHRIFT', 'NTRF'],
  fee: ['805', 'ENTGELTABSCHLUSS', 'NCHG'],
  interest: ['804', 'ABSCHLUSS', 'NINT'],
};

/** A German structured `:86:` text: code, booking text, purpose lines of 27 characters, BIC, IBAN and name. */
function mt940Text(t: LedgerTransaction): string {
  const [gvc, text] = MT940_CODES[t.kind];
  const purpose: string[] = [];
  if (t.sepa) {
    purpose.push(`EREF+${t.sepa.endToEndId}`);
    if (t.sepa.mandateId) purpose.push(`MREF+${t.sepa.mandateId}`, `CRED+${t.sepa.creditorId}`);
  }
  purpose.push(`SVWZ+${swiftText(t.memo)}`);
  const lines = purpose.flatMap((p) => pieces(p, 27)).slice(0, 10);
  const name = pieces(swiftText(t.name), 27).slice(0, 2);
  return [
    `${gvc}?00${text}?10${pad(931 + (Number(gvc) % 7), 4)}`,
    ...lines.map((l, i) => `?${20 + i}${l}`),
    ...(t.sepa ? [`?30${t.sepa.bic}`, `?31${t.sepa.iban}`] : []),
    ...name.map((n, i) => `?${32 + i}${n}`),
    '?34000',
  ].join('');
}

/**
 * An MT940 file as German banks' online banking exports it: for each account, one statement a month (`:20:` to the
 * closing balance and `-`), its lines (`:61:`) each with a structured text (`:86:`) wrapped at 65 characters.
 */
export function mt940LedgerFile(accounts: LedgerAccount[]): string {
  const lines: string[] = [];
  for (const a of accounts) {
    byMonth(a).forEach((statement, number) => {
      const { first, last } = { first: statement.transactions[0]!.day, last: statement.transactions.at(-1)!.day };
      lines.push(':20:STARTUMSE', `:25:${a.id}`, `:28C:${pad(number + 1, 5)}/001`, `:60F:${swiftBalance(statement.openingCents, first, a.currency)}`);
      let balance = statement.openingCents;
      for (const t of statement.transactions) {
        balance += t.cents;
        const swift = MT940_CODES[t.kind][2];
        const customerRef = t.sepa?.endToEndId ?? 'NONREF';
        lines.push(`:61:${swiftDay(t.valueDay)}${swiftDay(t.day).slice(2)}${t.cents < 0 ? 'D' : 'C'}${swiftAmount(t.cents)}${swift}${customerRef}//${t.id}`);
        const [head, ...rest] = pieces(mt940Text(t), 65);
        lines.push(`:86:${head}`, ...rest);
      }
      lines.push(`:62F:${swiftBalance(balance, last, a.currency)}`, `:64:${swiftBalance(balance, last, a.currency)}`, '-');
    });
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The ISO 20022 bank transaction code of each kind: domain, family, sub-family. */
const CAMT_CODES: Record<LedgerKind, readonly [string, string, string]> = {
  card: ['PMNT', 'CCRD', 'POSD'],
  atm: ['PMNT', 'CCRD', 'CWDL'],
  check: ['PMNT', 'ICHQ', 'CCHQ'],
  directDebit: ['PMNT', 'RDDT', 'ESDD'],
  standingOrder: ['PMNT', 'ICDT', 'STDO'],
  salary: ['PMNT', 'RCDT', 'SALA'],
  transferOut: ['PMNT', 'ICDT', 'ESCT'],
  transferIn: ['PMNT', 'RCDT', 'ESCT'],
  deposit: ['PMNT', 'RCDT', 'ESCT'],
  fee: ['ACMT', 'MDOP', 'CHRG'],
  interest: ['ACMT', 'MDOP', 'INTR'],
};

/**
 * A camt.053.001.02 file as banks deliver one: for each account a statement a month (opening and closing booked
 * balances, booked entries with their bank transaction code, references, counterparty with IBAN and BIC, and
 * remittance information), indented as banks' files are.
 */
export function camt053LedgerFile(accounts: LedgerAccount[]): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02 camt.053.001.02.xsd">',
    '  <BkToCstmrStmt>',
    '    <GrpHdr>',
    '      <MsgId>camt053-20260701-000001</MsgId>',
    '      <CreDtTm>2026-07-01T06:00:00.0+02:00</CreDtTm>',
    '      <MsgPgntn><PgNb>1</PgNb><LastPgInd>true</LastPgInd></MsgPgntn>',
    '    </GrpHdr>',
  ];
  const balance = (code: string, cents: number, day: number, currency: string) =>
    `      <Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="${currency}">${money(Math.abs(cents))}</Amt><CdtDbtInd>${cents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${isoOfDay(day)}</Dt></Dt></Bal>`;
  accounts.forEach((a, index) => {
    byMonth(a).forEach((statement, number) => {
      const first = statement.transactions[0]!.day;
      const last = statement.transactions.at(-1)!.day;
      const closing = statement.openingCents + statement.transactions.reduce((sum, t) => sum + t.cents, 0);
      out.push(
        '    <Stmt>',
        `      <Id>${a.id}-${statement.month}</Id>`,
        `      <ElctrncSeqNb>${number + 1}</ElctrncSeqNb>`,
        `      <CreDtTm>${isoOfDay(last + 1)}T06:00:00.0+02:00</CreDtTm>`,
        `      <FrToDt><FrDtTm>${isoOfDay(first)}T00:00:00.0+02:00</FrDtTm><ToDtTm>${isoOfDay(last)}T23:59:59.0+02:00</ToDtTm></FrToDt>`,
        `      <Acct><Id><IBAN>${a.id}</IBAN></Id><Ccy>${a.currency}</Ccy><Nm>${escapeMarkup(a.name)}</Nm><Ownr><Nm>Kunde ${index + 1}</Nm></Ownr><Svcr><FinInstnId><BIC>COBADEFFXXX</BIC></FinInstnId></Svcr></Acct>`,
        balance('OPBD', statement.openingCents, first, a.currency),
        balance('CLBD', closing, last, a.currency),
      );
      for (const t of statement.transactions) {
        const credit = t.cents >= 0;
        const [domain, family, sub] = CAMT_CODES[t.kind];
        const party = escapeMarkup(t.name);
        const role = credit ? 'Dbtr' : 'Cdtr';
        const agent = credit ? 'DbtrAgt' : 'CdtrAgt';
        const refs = t.sepa
          ? `<Refs><EndToEndId>${t.sepa.endToEndId}</EndToEndId>${t.sepa.mandateId ? `<MndtId>${t.sepa.mandateId}</MndtId>` : ''}</Refs>`
          : `<Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>`;
        const account = t.sepa ? `<${role}Acct><Id><IBAN>${t.sepa.iban}</IBAN></Id></${role}Acct>` : '';
        const creditor = t.sepa?.creditorId
          ? `<Cdtr><Nm>${party}</Nm><Id><PrvtId><Othr><Id>${t.sepa.creditorId}</Id><SchmeNm><Prtry>SEPA</Prtry></SchmeNm></Othr></PrvtId></Id></Cdtr>`
          : `<${role}><Nm>${party}</Nm></${role}>`;
        out.push(
          '      <Ntry>',
          `        <Amt Ccy="${a.currency}">${money(Math.abs(t.cents))}</Amt>`,
          `        <CdtDbtInd>${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd>`,
          '        <Sts>BOOK</Sts>',
          `        <BookgDt><Dt>${isoOfDay(t.day)}</Dt></BookgDt>`,
          `        <ValDt><Dt>${isoOfDay(t.valueDay)}</Dt></ValDt>`,
          `        <AcctSvcrRef>${t.id}</AcctSvcrRef>`,
          `        <BkTxCd><Domn><Cd>${domain}</Cd><Fmly><Cd>${family}</Cd><SubFmlyCd>${sub}</SubFmlyCd></Fmly></Domn><Prtry><Cd>N${MT940_CODES[t.kind][2].slice(1)}+${MT940_CODES[t.kind][0]}</Cd><Issr>DK</Issr></Prtry></BkTxCd>`,
          '        <NtryDtls>',
          '          <TxDtls>',
          `            ${refs}`,
          `            <AmtDtls><TxAmt><Amt Ccy="${a.currency}">${money(Math.abs(t.cents))}</Amt></TxAmt></AmtDtls>`,
          `            <RltdPties>${creditor}${account}</RltdPties>`,
          ...(t.sepa ? [`            <RltdAgts><${agent}><FinInstnId><BIC>${t.sepa.bic}</BIC></FinInstnId></${agent}></RltdAgts>`] : []),
          `            <RmtInf><Ustrd>${escapeMarkup(t.memo)}</Ustrd></RmtInf>`,
          '          </TxDtls>',
          '        </NtryDtls>',
          `        <AddtlNtryInf>${MT940_CODES[t.kind][1]}</AddtlNtryInf>`,
          '      </Ntry>',
        );
      }
      out.push('    </Stmt>');
    });
  });
  out.push('  </BkToCstmrStmt>', '</Document>');
  return `${out.join('\n')}\n`;
}
