import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refused } from '../helpers/statements.js';
import { looksLikeCamt, readCamtStatement } from '../../src/connectors/statements/camt.js';
import { formatOfMediaType, readStatementFile, sniffStatementFormat } from '../../src/connectors/statements/file.js';
import type { StatementImport } from '../../src/connectors/statements/types.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/statements/camt/${name}`, import.meta.url));
const ofxFixture = (name: string) => readFileSync(new URL(`../fixtures/ofx/${name}`, import.meta.url));
const csvFixture = (name: string) => readFileSync(new URL(`../fixtures/statements/${name}`, import.meta.url));
const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`) / 1000;
const iso = (epoch: number | undefined) => (epoch === undefined ? undefined : new Date(epoch * 1000).toISOString().slice(0, 10));

/** The transactions in a comparable form: ISO dates, without categories or status. */
function entries(result: StatementImport) {
  return result.transactions.map((t) => ({
    account: t.accountRef,
    ref: t.ref,
    posted: iso(t.postedDate),
    date: iso(t.transactionDate),
    amount: t.amount,
    description: t.description,
    ...(t.memo !== undefined ? { memo: t.memo } : {}),
    type: t.type,
    ...(t.checkNum !== undefined ? { checkNum: t.checkNum } : {}),
  }));
}

/** A generated entry: its amount signed as stored, and how the file writes it. */
interface EntrySpec {
  amount: number;
  booked: string;
  value?: string;
  /** `DtTm` with this time and zone instead of `Dt`. */
  time?: string;
  status?: 'BOOK' | 'PDNG' | 'INFO';
  /** `Sts/Cd` rather than `Sts` (the 001.08 form, accepted in any). */
  statusAsCode?: boolean;
  reversal?: boolean;
  bankRef?: string;
  entryRef?: string;
  party?: string;
  remittance?: string;
  info?: string;
  code?: [string, string, string];
}

interface StatementSpec {
  iban?: string;
  other?: string;
  currency: string;
  /** Whether Acct/Ccy states the currency. */
  stated?: boolean;
  closing?: { amount: number; date: string };
  entries: EntrySpec[];
}

const MESSAGE_ELEMENTS = { '052': ['BkToCstmrAcctRpt', 'Rpt'], '053': ['BkToCstmrStmt', 'Stmt'], '054': ['BkToCstmrDbtCdtNtfctn', 'Ntfctn'] } as const;
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A small camt writer: the message and version given, elements under a prefix or the default namespace. */
function camtFile(statements: StatementSpec[], options: { message?: '052' | '053' | '054'; version?: string; prefix?: string; newline?: string } = {}): string {
  const message = options.message ?? '053';
  const version = options.version ?? '02';
  const p = options.prefix ? `${options.prefix}:` : '';
  const nl = options.newline ?? '\n';
  const v08 = Number(version) >= 8;
  const el = (name: string, content: string, attributes = '') => `<${p}${name}${attributes}>${content}</${p}${name}>`;
  const dateChoice = (date: string, time?: string) => (time ? el('DtTm', `${date}T${time}`) : el('Dt', date));
  const [group, item] = MESSAGE_ELEMENTS[message];
  const body = statements.map((s, i) => {
    const id = s.iban !== undefined ? el('IBAN', s.iban) : el('Othr', el('Id', escapeXml(s.other!)));
    const account = el('Acct', el('Id', id) + (s.stated === false ? '' : el('Ccy', s.currency)));
    const balance = s.closing
      ? el(
          'Bal',
          el('Tp', el('CdOrPrtry', el('Cd', 'CLBD'))) +
            el('Amt', Math.abs(s.closing.amount).toFixed(2), ` Ccy="${s.currency}"`) +
            el('CdtDbtInd', s.closing.amount < 0 ? 'DBIT' : 'CRDT') +
            el('Dt', el('Dt', s.closing.date)),
        )
      : '';
    const ntries = s.entries.map((e) => {
      // A reversal's indicator names the direction of the booking it reverses.
      const credit = e.reversal ? e.amount < 0 : e.amount >= 0;
      const status = e.status ?? 'BOOK';
      const party =
        e.party === undefined
          ? ''
          : el('RltdPties', el(credit ? 'Dbtr' : 'Cdtr', v08 ? el('Pty', el('Nm', escapeXml(e.party))) : el('Nm', escapeXml(e.party))));
      const remittance = e.remittance === undefined ? '' : el('RmtInf', el('Ustrd', escapeXml(e.remittance)));
      const details = party + remittance === '' ? '' : el('NtryDtls', el('TxDtls', party + remittance));
      const code = e.code ? el('BkTxCd', el('Domn', el('Cd', e.code[0]) + el('Fmly', el('Cd', e.code[1]) + el('SubFmlyCd', e.code[2])))) : '';
      return el(
        'Ntry',
        (e.entryRef !== undefined ? el('NtryRef', escapeXml(e.entryRef)) : '') +
          el('Amt', Math.abs(e.amount).toFixed(2), ` Ccy="${s.currency}"`) +
          el('CdtDbtInd', credit ? 'CRDT' : 'DBIT') +
          (e.reversal ? el('RvslInd', 'true') : '') +
          el('Sts', e.statusAsCode || v08 ? el('Cd', status) : status) +
          el('BookgDt', dateChoice(e.booked, e.time)) +
          (e.value !== undefined ? el('ValDt', el('Dt', e.value)) : '') +
          (e.bankRef !== undefined ? el('AcctSvcrRef', escapeXml(e.bankRef)) : '') +
          code +
          details +
          (e.info !== undefined ? el('AddtlNtryInf', escapeXml(e.info)) : ''),
      );
    });
    return el(item, el('Id', `S${i + 1}`) + el('CreDtTm', '2026-06-30T18:00:00') + account + balance + ntries.join(nl), '') + nl;
  });
  const namespace = `urn:iso:std:iso:20022:tech:xsd:camt.${message}.001.${version}`;
  const xmlns = options.prefix ? `xmlns:${options.prefix}="${namespace}"` : `xmlns="${namespace}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>${nl}<${p}Document ${xmlns}>${nl}${el(group, el('GrpHdr', el('MsgId', 'M1') + el('CreDtTm', '2026-06-30T18:00:00')) + nl + body.join(''))}${nl}</${p}Document>${nl}`;
}

const IBAN = 'DE02120300000000202051';

describe('reading camt files', () => {
  it('a camt.053.001.02 statement: the account, its currency and balances, signed amounts, dates and the bank’s references', () => {
    const read = readCamtStatement(fixture('statement-053-v02.xml'));
    expect(read.format).toBe('camt');
    expect(read.accounts).toEqual([
      {
        ref: 'DE89370400440532013000 EUR',
        type: 'checking',
        number: 'DE89370400440532013000',
        name: 'Girokonto',
        currency: 'EUR',
        balance: 2532.93,
        balanceDate: day('2026-03-31'),
        availableBalance: 2500,
        closingBalances: [{ date: day('2026-03-31'), balance: 2532.93 }],
      },
    ]);
    const account = 'DE89370400440532013000 EUR';
    expect(entries(read)).toEqual([
      {
        account,
        ref: '2026030300001|2026-03-03',
        posted: '2026-03-03',
        date: '2026-03-02',
        amount: -42.17,
        description: 'REWE Markt 1234',
        memo: 'Kartenzahlung 02.03.2026 12:41',
        type: 'pointOfSale',
      },
      {
        account,
        ref: '2026030500002|2026-03-05',
        posted: '2026-03-05',
        date: '2026-03-05',
        amount: 2500,
        description: 'Acme & Co. GmbH',
        memo: 'Gehalt Maerz 2026 Personalnr. 4711',
        type: 'directDeposit',
      },
      {
        account,
        ref: '2026030600003|2026-03-06',
        posted: '2026-03-06',
        date: '2026-03-06',
        amount: -800,
        description: 'Hausverwaltung Schmidt',
        memo: 'Miete Maerz Whg. 3',
        type: 'repeatPayment',
      },
      {
        account,
        ref: '2026031000004|2026-03-10',
        posted: '2026-03-10',
        date: '2026-03-10',
        amount: -61.2,
        description: 'Stadtwerke Musterstadt',
        memo: 'Abschlag Strom 03/2026 RF18539007547034',
        type: 'directDebit',
      },
      {
        account,
        ref: '2026031200005|2026-03-12',
        posted: '2026-03-12',
        date: '2026-03-10',
        amount: 61.2,
        description: 'Ruecklastschrift',
        type: 'directDebit',
      },
      {
        account,
        ref: '2026033100006|2026-03-31',
        posted: '2026-03-31',
        date: '2026-03-31',
        amount: -4.9,
        description: 'Kontofuehrungsentgelt Maerz',
        type: 'fee',
      },
      {
        account,
        ref: '2026032000007|2026-03-20',
        posted: '2026-03-20',
        date: '2026-03-20',
        amount: -120,
        description: 'Malerbetrieb Weiss',
        type: 'check',
        checkNum: '1042',
      },
    ]);
    expect(read.problems).toEqual([
      { line: 307, message: 'Pending (2026-03-31, -19.99 EUR): left out until it is booked.' },
      { line: 316, message: 'Information only (2026-04-02, 5000.00 EUR), not a booking: left out.' },
    ]);
    // Posted, categorised by the account's currency, like every statement file's transactions.
    expect(read.transactions.every((t) => t.status === 'active' && t.categorization.country !== '')).toBe(true);
  });

  it('namespaces of every version 001.02 to 001.08 and of each message, with or without a prefix', () => {
    const statement: StatementSpec = { iban: IBAN, currency: 'EUR', entries: [{ amount: -12.5, booked: '2026-06-02', bankRef: 'R1', party: 'Shop' }] };
    for (const message of ['052', '053', '054'] as const) {
      for (const version of ['02', '03', '04', '05', '06', '07', '08']) {
        for (const prefix of [undefined, 'camt', 'ns2']) {
          const text = camtFile([statement], { message, version, ...(prefix ? { prefix } : {}) });
          const read = readCamtStatement(text);
          const which = `camt.${message}.001.${version} ${prefix ?? 'default namespace'}`;
          expect(read.problems, which).toEqual([]);
          expect(entries(read), which).toEqual([
            { account: `${IBAN} EUR`, ref: 'R1|2026-06-02', posted: '2026-06-02', date: '2026-06-02', amount: -12.5, description: 'Shop', type: 'debit' },
          ]);
          expect(looksLikeCamt(text), which).toBe(true);
        }
      }
    }
    // A version after those: read the same way, with a word to check the result.
    const newer = readCamtStatement(camtFile([statement], { version: '10' }));
    expect(newer.transactions).toHaveLength(1);
    expect(newer.problems).toEqual([{ message: expect.stringMatching(/^The file is camt\.053 version 001\.10, not one of the versions read/) }]);
  });

  it('camt.052 account reports (BkToCstmrAcctRpt/Rpt): an account by Acct/Id/Othr/Id, interim balances with their date-times', () => {
    const read = readCamtStatement(fixture('report-052-v04.xml'));
    expect(read.accounts).toEqual([
      {
        ref: '0042-771903 USD',
        type: 'savings',
        number: '0042-771903',
        name: 'Reserve Savings',
        currency: 'USD',
        balance: -18.25,
        balanceDate: day('2026-05-15'),
        availableBalance: 0,
        closingBalances: [{ date: day('2026-05-15'), balance: -18.25 }],
      },
    ]);
    expect(entries(read)).toEqual([
      {
        account: '0042-771903 USD',
        ref: 'INT-2026-04|2026-05-01',
        posted: '2026-05-01',
        date: '2026-04-30',
        amount: 1.75,
        description: 'Interest April',
        type: 'interest',
      },
      {
        account: '0042-771903 USD',
        ref: 'ATM-5531|2026-05-14',
        posted: '2026-05-14',
        date: '2026-05-14',
        amount: -20,
        description: 'ATM 5th Ave',
        type: 'atm',
      },
    ]);
  });

  it('camt.054 notifications (BkToCstmrDbtCdtNtfctn/Ntfctn): no balances, the account carries none', () => {
    const read = readCamtStatement(fixture('notification-054-v06.xml'));
    expect(read.accounts).toEqual([
      { ref: 'GB33BUKB20201555555555 GBP', type: 'checking', number: 'GB33BUKB20201555555555', name: 'Account XXXXXXXXXXXXXXXXXX5555 (GBP)', currency: 'GBP' },
    ]);
    expect(read.transactions.map((t) => [t.ref, t.amount])).toEqual([
      ['BATCH-0610-A|2026-06-10', 1250],
      ['BATCH-0610-B|2026-06-10', -300],
      ['BATCH-0610-C|2026-06-10', 80],
    ]);
  });

  it('without Acct/Ccy the currency is the one the balances and entries name', () => {
    const read = readCamtStatement(fixture('statement-053-v08-prefixed.xml'));
    expect(read.accounts).toEqual([
      {
        ref: 'CH9300762011623852957 CHF',
        type: 'checking',
        number: 'CH9300762011623852957',
        name: 'Account XXXXXXXXXXXXXXXXX2957 (CHF)',
        currency: 'CHF',
        balance: 946.9,
        balanceDate: day('2026-04-30'),
        closingBalances: [{ date: day('2026-04-30'), balance: 946.9 }],
      },
    ]);
    const generated = readCamtStatement(camtFile([{ other: '12-345', currency: 'SEK', stated: false, entries: [{ amount: 99, booked: '2026-06-03' }] }]));
    expect(generated.accounts.map((a) => [a.ref, a.currency])).toEqual([['12-345 SEK', 'SEK']]);
    expect(generated.problems).toEqual([]);
  });

  it("categorises by the country of the account's IBAN, by its currency when the account is no IBAN", () => {
    const country = (account: { iban: string } | { other: string }, currency: string) =>
      readCamtStatement(camtFile([{ ...account, currency, entries: [{ amount: -5, booked: '2026-06-03' }] }])).transactions.map(
        (t) => t.categorization.country,
      );
    expect(country({ iban: 'DE89 3704 0044 0532 0130 00' }, 'EUR')).toEqual(['DEU']);
    expect(country({ iban: 'AT611904300234573201' }, 'EUR')).toEqual(['AUT']);
    expect(country({ other: '12-345' }, 'CHF')).toEqual(['CHE']);
  });

  it('a file that names no currency keeps its amounts without one (XXX), and a text that is no ISO 4217 code is named', () => {
    const none = readCamtStatement(
      camtFile([{ iban: IBAN, currency: 'EUR', stated: false, entries: [{ amount: 1, booked: '2026-06-03' }] }]).replace(' Ccy="EUR"', ''),
    );
    expect(none.accounts.map((a) => a.currency)).toEqual(['XXX']);
    expect(none.problems).toEqual([{ line: 4, message: 'The account XXXXXXXXXXXXXXXXXX2051 names no currency: its amounts were kept without one (XXX).' }]);
    const invalid = readCamtStatement(camtFile([{ iban: IBAN, currency: 'EUX', entries: [{ amount: -3, booked: '2026-06-03' }] }]));
    expect(invalid.accounts.map((a) => a.currency)).toEqual(['XXX']);
    expect(invalid.transactions.map((t) => t.amount)).toEqual([-3]);
    expect(invalid.problems.map((p) => p.message)).toEqual([
      'The account XXXXXXXXXXXXXXXXXX2051 names the currency "EUX", which is not an ISO 4217 code.',
      'Amounts in "EUX", which is not an ISO 4217 currency code, were kept without a currency (XXX).',
    ]);
  });

  it('balances: CLBD (or ITBD) is the account’s balance at its Dt/Dt or Dt/DtTm, CLAV (or ITAV) the available one, DBIT negative', () => {
    const v02 = readCamtStatement(fixture('statement-053-v02.xml')).accounts[0]!;
    expect([v02.balance, iso(v02.balanceDate), v02.availableBalance]).toEqual([2532.93, '2026-03-31', 2500]);
    const report = readCamtStatement(fixture('report-052-v04.xml')).accounts[0]!;
    expect([report.balance, iso(report.balanceDate), report.availableBalance]).toEqual([-18.25, '2026-05-15', 0]);
    // An opening balance alone says nothing of the account's balance now.
    const opening = readCamtStatement(
      camtFile([{ iban: IBAN, currency: 'EUR', entries: [] }]).replace(
        '<Acct>',
        '<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">5.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-06-01</Dt></Dt></Bal><Acct>',
      ),
    );
    expect(opening.accounts[0]).not.toHaveProperty('balance');
  });

  it('CdtDbtInd gives the sign, and RvslInd flips it', () => {
    const read = readCamtStatement(
      camtFile([
        {
          iban: IBAN,
          currency: 'EUR',
          entries: [
            { amount: -10, booked: '2026-06-01', bankRef: 'A' },
            { amount: 10, booked: '2026-06-02', bankRef: 'B' },
            { amount: 10, booked: '2026-06-03', bankRef: 'C', reversal: true },
            { amount: -10, booked: '2026-06-04', bankRef: 'D', reversal: true },
            { amount: 0, booked: '2026-06-05', bankRef: 'E' },
          ],
        },
      ]),
    );
    expect(read.transactions.map((t) => [t.ref, t.amount])).toEqual([
      ['A|2026-06-01', -10],
      ['B|2026-06-02', 10],
      ['C|2026-06-03', 10],
      ['D|2026-06-04', -10],
      ['E|2026-06-05', 0],
    ]);
    // The written indicator of a reversal is the opposite of its sign.
    expect(camtFile([{ iban: IBAN, currency: 'EUR', entries: [{ amount: 10, booked: '2026-06-03', reversal: true }] }])).toContain(
      '<CdtDbtInd>DBIT</CdtDbtInd><RvslInd>true</RvslInd>',
    );
    expect(Object.is(read.transactions[4]!.amount, -0)).toBe(false);
  });

  it('Sts or Sts/Cd: BOOK stored, PDNG named as left out until booked, INFO left out with a problem', () => {
    const statuses: EntrySpec[] = [
      { amount: -1, booked: '2026-06-01', status: 'BOOK', info: 'booked' },
      { amount: -2, booked: '2026-06-02', status: 'BOOK', statusAsCode: true, info: 'booked as code' },
      { amount: -3, booked: '2026-06-03', status: 'PDNG', info: 'pending' },
      { amount: -4, booked: '2026-06-04', status: 'PDNG', statusAsCode: true, info: 'pending as code' },
      { amount: 5, booked: '2026-06-05', status: 'INFO', info: 'advice' },
    ];
    const read = readCamtStatement(camtFile([{ iban: IBAN, currency: 'EUR', entries: statuses }], { newline: '\n' }));
    expect(read.transactions.map((t) => t.description)).toEqual(['booked', 'booked as code']);
    expect(read.problems.map((p) => p.message)).toEqual([
      'Pending (2026-06-03, -3.00 EUR): left out until it is booked.',
      'Pending (2026-06-04, -4.00 EUR): left out until it is booked.',
      'Information only (2026-06-05, 5.00 EUR), not a booking: left out.',
    ]);
    expect(read.problems.map((p) => p.line)).toEqual([6, 7, 8]);
  });

  it('posted on the booking date, dated by the value date: dates with or without a time and zone read as the day written', () => {
    const read = readCamtStatement(fixture('statement-053-v08-prefixed.xml'));
    expect(entries(read).map((t) => [t.posted, t.date])).toEqual([
      // 00:30 at UTC+2 is the day before in UTC: the bank's day counts.
      ['2026-04-01', '2026-04-01'],
      ['2026-04-15', '2026-04-16'],
      ['2026-04-20', '2026-04-20'],
      ['2026-04-20', '2026-04-20'],
    ]);
    const forms = ['10:00:00', '23:30:00+14:00', '00:15:00-12:00', '12:00:00Z', '08:00:00.123+01:00'];
    const generated = readCamtStatement(
      camtFile([{ iban: IBAN, currency: 'EUR', entries: forms.map((time, i) => ({ amount: -(i + 1), booked: '2026-06-10', time, value: '2026-06-09' })) }]),
    );
    expect(entries(generated).map((t) => [t.posted, t.date])).toEqual(forms.map(() => ['2026-06-10', '2026-06-09']));
    // Without a value date the booking date is the transaction's date too.
    expect(entries(readCamtStatement(camtFile([{ iban: IBAN, currency: 'EUR', entries: [{ amount: 1, booked: '2026-06-10' }] }])))[0]).toMatchObject({
      posted: '2026-06-10',
      date: '2026-06-10',
    });
  });

  it('refs: AcctSvcrRef with the booking day when unique in the account, else NtryRef with the day and amount, else day, amount, description and occurrence', () => {
    expect(readCamtStatement(fixture('statement-053-v08-prefixed.xml')).transactions.map((t) => t.ref)).toEqual([
      'ntry:1|2026-04-01|-95.5',
      'ntry:2|2026-04-15|1200',
      // NONREF is no reference.
      '2026-04-20|-3.8|kaffee bahnhof bern|1',
      '2026-04-20|-3.8|kaffee bahnhof bern|2',
    ]);
    const read = readCamtStatement(
      camtFile([
        {
          iban: IBAN,
          currency: 'EUR',
          entries: [
            { amount: -1, booked: '2026-06-01', bankRef: 'UNIQUE', entryRef: '1', info: 'One' },
            // A bank reference used for two entries is not theirs alone: their entry references count instead.
            { amount: -2, booked: '2026-06-01', bankRef: 'TWICE', entryRef: '2', info: 'Two' },
            { amount: -3, booked: '2026-06-02', bankRef: 'TWICE', entryRef: '3', info: 'Three' },
            { amount: -4, booked: '2026-06-02', bankRef: 'NOTPROVIDED', info: 'Four, no reference' },
          ],
        },
      ]),
    );
    expect(read.transactions.map((t) => t.ref)).toEqual([
      'UNIQUE|2026-06-01',
      'ntry:2|2026-06-01|-2',
      'ntry:3|2026-06-02|-3',
      '2026-06-02|-4|four no reference|1',
    ]);
  });

  it('bank transaction codes (domain, family, sub-family; a proprietary SWIFT code) give the type where they say it', () => {
    const codes: [[string, string, string], number, string][] = [
      [['PMNT', 'RCDT', 'SALA'], 1, 'directDeposit'],
      [['PMNT', 'ICDT', 'STDO'], -1, 'repeatPayment'],
      [['PMNT', 'RDDT', 'ESDD'], -1, 'directDebit'],
      [['PMNT', 'CCRD', 'POSD'], -1, 'pointOfSale'],
      [['PMNT', 'CCRD', 'CWDL'], -1, 'atm'],
      [['PMNT', 'CNTR', 'CDPT'], 1, 'deposit'],
      [['PMNT', 'ICHQ', 'CCHQ'], -1, 'check'],
      [['PMNT', 'ICDT', 'ESCT'], -1, 'transfer'],
      [['ACMT', 'MDOP', 'CHRG'], -1, 'serviceCharge'],
      [['ACMT', 'MDOP', 'FEES'], -1, 'fee'],
      [['ACMT', 'MCOP', 'INTR'], 1, 'interest'],
      [['SECU', 'CUST', 'DVCA'], 1, 'dividend'],
      [['XTND', 'NTAV', 'NTAV'], -1, 'debit'],
      [['XTND', 'NTAV', 'NTAV'], 1, 'credit'],
    ];
    const read = readCamtStatement(
      camtFile([{ iban: IBAN, currency: 'EUR', entries: codes.map(([code, amount], i) => ({ amount, booked: '2026-06-01', bankRef: `C${i}`, code })) }]),
    );
    expect(read.transactions.map((t) => t.type)).toEqual(codes.map(([, , type]) => type));
    const proprietary = readCamtStatement(
      camtFile([{ iban: IBAN, currency: 'EUR', entries: [{ amount: -5, booked: '2026-06-01', info: 'Dauerauftrag' }] }]).replace(
        '<AddtlNtryInf>',
        '<BkTxCd><Prtry><Cd>NSTO+152+00931</Cd><Issr>DK</Issr></Prtry></BkTxCd><AddtlNtryInf>',
      ),
    );
    expect(proprietary.transactions[0]!.type).toBe('repeatPayment');
  });

  it('the counterparty (Dbtr or Cdtr Nm, Pty/Nm in 001.08) is the description, the remittance information (Ustrd, Strd) the memo', () => {
    const read = readCamtStatement(
      camtFile(
        [
          {
            iban: IBAN,
            currency: 'EUR',
            entries: [
              { amount: 250, booked: '2026-06-01', party: 'Payer Ltd', remittance: 'Invoice 17', info: 'SEPA credit' },
              { amount: -30, booked: '2026-06-02', party: 'Payee & Sons', remittance: 'Order <88>' },
              { amount: -4, booked: '2026-06-03', info: 'Card 4411 Coffee' },
              { amount: -5, booked: '2026-06-04', remittance: 'Only remittance' },
            ],
          },
        ],
        { version: '08' },
      ),
    );
    expect(read.transactions.map((t) => [t.description, t.memo])).toEqual([
      ['Payer Ltd', 'Invoice 17'],
      ['Payee & Sons', 'Order <88>'],
      ['Card 4411 Coffee', undefined],
      ['Only remittance', undefined],
    ]);
    const structured = readCamtStatement(fixture('statement-053-v02.xml')).transactions[3]!;
    expect([structured.description, structured.memo]).toEqual(['Stadtwerke Musterstadt', 'Abschlag Strom 03/2026 RF18539007547034']);
  });

  it('a batched entry is stored at the entry’s amount, and one whose transactions do not add up to it is named', () => {
    const read = readCamtStatement(fixture('notification-054-v06.xml'));
    expect(entries(read)).toEqual([
      {
        account: 'GB33BUKB20201555555555 GBP',
        ref: 'BATCH-0610-A|2026-06-10',
        posted: '2026-06-10',
        date: '2026-06-10',
        amount: 1250,
        description: '3 transactions',
        memo: 'Harbour Books Ltd: INV 3301; Quayside Cafe: INV 3302; Northfield School: INV 3303',
        type: 'transfer',
      },
      // Btch alone (no transactions listed), its total the entry's.
      {
        account: 'GB33BUKB20201555555555 GBP',
        ref: 'BATCH-0610-B|2026-06-10',
        posted: '2026-06-10',
        date: '2026-06-10',
        amount: -300,
        description: 'Supplier payment run 24',
        type: 'transfer',
      },
      // 100.00 in (AmtDtls/TxAmt, as 001.02 writes it) and 20.00 out: 80.00, as booked.
      {
        account: 'GB33BUKB20201555555555 GBP',
        ref: 'BATCH-0610-C|2026-06-10',
        posted: '2026-06-10',
        date: '2026-06-10',
        amount: 80,
        description: 'Quayside Cafe',
        memo: 'Quayside Cafe: INV 3290; Quayside Cafe: Credit note 17',
        type: 'credit',
      },
    ]);
    expect(read.problems).toEqual([
      { line: 17, message: "A batch (2026-06-10, 1250.00 GBP) whose 3 transactions add up to 1200.00 GBP: the entry's amount was stored." },
    ]);
    const stated = readCamtStatement(
      fixture('notification-054-v06.xml').toString('utf8').replace('<TtlAmt Ccy="GBP">300.00</TtlAmt>', '<TtlAmt Ccy="GBP">290.00</TtlAmt>'),
    );
    expect(stated.problems.map((p) => p.message)).toContain(
      "A batch (2026-06-10, -300.00 GBP) whose stated total is 290.00 GBP: the entry's amount was stored.",
    );
  });

  it('ISO-8859-1 files are read by the encoding their XML declaration names', () => {
    const bytes = fixture('latin1-053-v03.xml');
    expect(bytes.includes(Buffer.from('Müller', 'latin1'))).toBe(true);
    const read = readCamtStatement(bytes);
    expect(read.accounts.map((a) => a.name)).toEqual(['Gehaltskonto Jörg Grünwald']);
    expect(read.transactions.map((t) => [t.description, t.memo, t.amount])).toEqual([['Bäckerei Müller & Söhne', 'Frühstück Café, Hauptstraße 5', -8.6]]);
    // The same file in UTF-8, with or without a byte-order mark, and Latin-1 bytes under a UTF-8 declaration read alike.
    const text = bytes.toString('latin1');
    const utf8 = Buffer.from(text.replace('ISO-8859-1', 'UTF-8'), 'utf8');
    for (const variant of [utf8, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]), Buffer.from(text.replace('ISO-8859-1', 'UTF-8'), 'latin1')]) {
      expect(readCamtStatement(variant).transactions.map((t) => t.description)).toEqual(['Bäckerei Müller & Söhne']);
    }
  });

  it('two statements of one account in a file are merged, each entry once, the later closing balance kept', () => {
    const read = readCamtStatement(fixture('two-statements-053-v04.xml'));
    const NL = 'NL91ABNA0417164300 EUR';
    expect(read.accounts.map((a) => [a.ref, a.currency, a.balance, iso(a.balanceDate)])).toEqual([
      ['NL91ABNA0417164300 EUR', 'EUR', 610, '2026-03-31'],
      ['9876543210 USD', 'USD', 985, '2026-03-31'],
    ]);
    expect(entries(read).map((t) => [t.account, t.ref, t.amount])).toEqual([
      [NL, 'NL-0305-1|2026-03-05', -25],
      // Two identical coffees in both statements: the same two.
      [NL, '2026-03-12|-2.4|koffie station utrecht cs|1', -2.4],
      [NL, '2026-03-12|-2.4|koffie station utrecht cs|2', -2.4],
      [NL, 'NL-0314-1|2026-03-14', 100],
      [NL, 'NL-0320-1|2026-03-20', 10],
      [NL, '2026-03-25|-2.4|koffie station utrecht cs|1', -2.4],
      ['9876543210 USD', 'US-1|2026-03-18', -15],
    ]);
    expect(read.problems).toEqual([]);
  });

  it('several accounts and currencies in one file: one account id in two currencies is two accounts, each referenced with its currency', () => {
    const read = readCamtStatement(fixture('multi-currency-053-v05.xml'));
    expect(read.accounts.map((a) => [a.ref, a.number, a.name, a.currency, a.balance])).toEqual([
      ['BE71096123456769 EUR', 'BE71096123456769', 'Multi-currency account (EUR)', 'EUR', 240],
      ['BE71096123456769 USD', 'BE71096123456769', 'Multi-currency account (USD)', 'USD', 1300],
    ]);
    expect(read.transactions.map((t) => [t.accountRef, t.amount])).toEqual([
      ['BE71096123456769 EUR', -60],
      ['BE71096123456769 USD', 1300],
    ]);
    // An entry in another currency than the account's stated one keeps its currency, in an account of its own.
    const other = readCamtStatement(
      camtFile([
        {
          iban: IBAN,
          currency: 'EUR',
          entries: [
            { amount: -1, booked: '2026-06-01', bankRef: 'E' },
            { amount: -2, booked: '2026-06-01', bankRef: 'U' },
          ],
        },
      ]).replace('<Amt Ccy="EUR">2.00</Amt>', '<Amt Ccy="USD">2.00</Amt>'),
    );
    expect(other.accounts.map((a) => [a.ref, a.currency])).toEqual([
      [`${IBAN} EUR`, 'EUR'],
      [`${IBAN} USD`, 'USD'],
    ]);
    expect(other.transactions.map((t) => [t.accountRef, t.amount])).toEqual([
      [`${IBAN} EUR`, -1],
      [`${IBAN} USD`, -2],
    ]);
    expect(other.problems.map((p) => p.message)).toEqual([
      'Amounts of the account XXXXXXXXXXXXXXXXXX2051 (in EUR) name USD: they were kept in an account of their own in USD.',
    ]);
  });
});

describe('what cannot be read in a camt file', () => {
  it('entries whose direction, amount or dates cannot be read are named with their line, the rest imported', () => {
    const read = readCamtStatement(fixture('report-052-v04.xml'));
    expect(read.transactions).toHaveLength(2);
    expect(read.problems).toEqual([
      { line: 91, message: 'No credit or debit indicator (2026-05-14, 7.50 USD): its sign is unknown, left out.' },
      { line: 99, message: 'The amount (2026-05-14, 12.5.0) cannot be read: left out.' },
      { line: 107, message: 'No readable booking or value date (undated, -3.00 USD): left out.' },
      { line: 113, message: 'Pending (2026-05-15, -45.00 USD): left out until it is booked.' },
    ]);
  });

  it('a statement without an account names the entries it loses', () => {
    const text = camtFile([
      { iban: IBAN, currency: 'EUR', entries: [{ amount: 1, booked: '2026-06-01' }] },
      {
        iban: 'X',
        currency: 'EUR',
        entries: [
          { amount: 2, booked: '2026-06-01' },
          { amount: 3, booked: '2026-06-01' },
        ],
      },
    ]).replace('<IBAN>X</IBAN>', '');
    const read = readCamtStatement(text);
    expect(read.accounts).toHaveLength(1);
    expect(read.problems).toEqual([{ line: 5, message: 'A statement names no account (Acct/Id/IBAN or Acct/Id/Othr/Id): its 2 entries were left out.' }]);
  });

  it('names a bounded number of problems however many entries are broken', () => {
    const broken = Array.from({ length: 700 }, (_, i) => ({ amount: -1, booked: '2026-06-01', status: 'PDNG' as const, bankRef: `P${i}` }));
    const read = readCamtStatement(camtFile([{ iban: IBAN, currency: 'EUR', entries: broken }]));
    expect(read.problems).toHaveLength(501);
    expect(read.problems.at(-1)).toEqual({ message: '200 more entries could not be read.' });
  });

  it('refuses files that are not camt: broken XML, DTDs and entity declarations, other XML documents', () => {
    expect(refused(() => readCamtStatement('<Document><BkToCstmrStmt><Stmt></BkToCstmrStmt></Document>')).message).toMatch(
      /^The file is not well-formed XML: .*\(line 1\)\.$/,
    );
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><Document><BkToCstmrStmt><Stmt><Acct><Id><IBAN>&lol2;</IBAN></Id></Acct></Stmt></BkToCstmrStmt></Document>';
    expect(refused(() => readCamtStatement(bomb)).message).toBe('The file declares a DTD or entities, which no bank statement does: it was refused unread.');
    const external = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY e SYSTEM "file:///etc/passwd">]><Document>&e;</Document>';
    expect(refused(() => readCamtStatement(external)).code).toBe('unreadable');
    expect(refused(() => readCamtStatement('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn/></Document>')).message).toBe(
      'The file is XML but no camt.052, camt.053 or camt.054 message (it holds "CstmrCdtTrfInitn").',
    );
    expect(refused(() => readCamtStatement(`<Document>${'<A>'.repeat(70)}${'</A>'.repeat(70)}</Document>`)).message).toMatch(/nested deeper than 64 levels/);
    // Character references and the predefined entities are text, not expansion.
    const decoded = readCamtStatement(
      camtFile([{ iban: IBAN, currency: 'EUR', entries: [{ amount: 1, booked: '2026-06-01', info: 'x' }] }]).replace(
        '>x<',
        '>A&#66;&#x43; &lt;&amp;&gt; &quot;&apos;<',
      ),
    );
    expect(decoded.transactions[0]!.description).toBe('ABC <&> "\'');
  });

  it('an upload holding no account is refused with why', () => {
    const empty = camtFile([{ iban: 'X', currency: 'EUR', entries: [{ amount: 2, booked: '2026-06-01' }] }]).replace('<IBAN>X</IBAN>', '');
    const refusal = refused(() => readStatementFile(Buffer.from(empty), { contentType: 'application/xml' }));
    expect([refusal.code, refusal.message]).toEqual([
      'unreadable',
      expect.stringMatching(/^No account could be read from the file\. line 4: A statement names no account/),
    ]);
  });
});

describe('telling camt files apart', () => {
  it('the documented media type is camt; application/xml and text/xml are told from the first bytes', () => {
    expect(formatOfMediaType('application/x-camt+xml')).toBe('camt');
    expect(formatOfMediaType('application/xml; charset=utf-8')).toBe('sniff');
    expect(formatOfMediaType('text/xml')).toBe('sniff');
    expect(readStatementFile(fixture('statement-053-v02.xml'), { contentType: 'application/xml' }).format).toBe('camt');
    expect(readStatementFile(fixture('statement-053-v02.xml'), { contentType: 'application/x-camt+xml' }).format).toBe('camt');
    // OFX 2.x sent as XML is still OFX.
    expect(readStatementFile(ofxFixture('bank-2.1.1.xml.ofx'), { contentType: 'text/xml' }).format).toBe('ofx');
  });

  it('camt files are told from their first bytes, with or without a prefix, a declaration, a BOM or a namespace', () => {
    for (const name of ['statement-053-v02.xml', 'statement-053-v08-prefixed.xml', 'report-052-v04.xml', 'notification-054-v06.xml', 'latin1-053-v03.xml']) {
      expect(sniffStatementFormat(fixture(name)), name).toBe('camt');
    }
    expect(sniffStatementFormat(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fixture('statement-053-v02.xml')]))).toBe('camt');
    expect(looksLikeCamt('<Document><BkToCstmrDbtCdtNtfctn><GrpHdr>')).toBe(true);
  });

  it('OFX, CSV, QIF and MT940 files are not told as camt', () => {
    for (const name of ['bank-1.0.2-sgml.ofx', 'bank-2.1.1.xml.ofx', 'quicken.qfx'])
      expect(looksLikeCamt(ofxFixture(name).toString('latin1')), name).toBe(false);
    for (const name of ['chase-checking.csv', 'european.csv', 'mint.csv']) expect(looksLikeCamt(csvFixture(name).toString('latin1')), name).toBe(false);
    const others = [
      '!Type:Bank\nD01/02/2026\nT-8.40\nPurn:iso:std:iso:20022:tech:xsd:camt.053.001.02\n^\n',
      ':20:STARTUMS\r\n:25:DE89370400440532013000\r\n:86:<BkToCstmrStmt>\r\n',
      'Date,Description,Amount\n2026-06-01,"<Document><BkToCstmrStmt>",1\n',
      '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn/></Document>',
    ];
    for (const text of others) expect(looksLikeCamt(text), text).toBe(false);
  });

  it('reading the same file again, or an overlapping one, gives the same refs', () => {
    for (const name of ['statement-053-v02.xml', 'statement-053-v08-prefixed.xml', 'two-statements-053-v04.xml', 'notification-054-v06.xml']) {
      expect(
        readCamtStatement(fixture(name)).transactions.map((t) => [t.accountRef, t.ref]),
        name,
      ).toEqual(readCamtStatement(fixture(name)).transactions.map((t) => [t.accountRef, t.ref]));
    }
    // The second statement of the two-statement file on its own: its entries keep the refs the whole file gave them.
    const whole = readCamtStatement(fixture('two-statements-053-v04.xml'));
    const text = fixture('two-statements-053-v04.xml').toString('utf8');
    const secondOnly = text.slice(0, text.indexOf('    <Stmt>')) + text.slice(text.indexOf('    <Stmt>', text.indexOf('</Stmt>')));
    const part = readCamtStatement(secondOnly);
    const refs = new Set(whole.transactions.map((t) => `${t.accountRef} ${t.ref}`));
    expect(part.transactions.length).toBeGreaterThan(3);
    for (const t of part.transactions) expect(refs.has(`${t.accountRef} ${t.ref}`), t.ref).toBe(true);
  });
});

describe('reading back generated camt files', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'B', '7', ' ', '&', '<', '>', '"', "'", 'é', 'ß', 'Ü', '\n', '\t', '.'), maxLength: 20 });
  const isoDay = (days: number) => new Date(days * 86_400_000).toISOString().slice(0, 10);
  const entry = fc.record({
    cents: fc.integer({ min: -1e10, max: 1e10 }),
    day: fc.integer({ min: Date.UTC(1990, 0, 1) / 86_400_000, max: Date.UTC(2100, 0, 1) / 86_400_000 }),
    valueShift: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }),
    time: fc.option(fc.constantFrom('00:00:00', '23:59:59+01:00', '12:30:00Z', '06:00:00-05:00'), { nil: undefined }),
    reversal: fc.boolean(),
    withRef: fc.boolean(),
    party: text,
    remittance: text,
  });
  const statement = fc.record({
    currency: fc.constantFrom('EUR', 'USD', 'CHF', 'GBP', 'JPY', 'SEK', 'HUF'),
    stated: fc.boolean(),
    byIban: fc.boolean(),
    entries: fc.array(entry, { maxLength: 8 }),
  });
  const tidy = (value: string) => value.replace(/\s+/g, ' ').trim();

  it('gives back the accounts, currencies, amounts with their signs, dates, descriptions and memos', () => {
    fc.assert(
      fc.property(
        fc.array(statement, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('052', '053', '054'),
        fc.constantFrom('02', '04', '06', '08'),
        fc.constantFrom(undefined, 'camt'),
        fc.constantFrom('\n', '\r\n'),
        fc.constantFrom('utf-8', 'latin1', 'bom'),
        (generated, message, version, prefix, newline, encoding) => {
          let refCount = 0;
          const specs: StatementSpec[] = generated.map((s, i) => ({
            ...(s.byIban ? { iban: `DE${String(10 + i)}500105170000000000` } : { other: `ACC&${i}` }),
            currency: s.currency,
            // A statement naming no amount states its currency, or it has none.
            stated: s.stated || s.entries.length === 0,
            entries: s.entries.map((e) => ({
              amount: e.cents / 100,
              booked: isoDay(e.day),
              ...(e.valueShift !== undefined ? { value: isoDay(e.day + e.valueShift) } : {}),
              ...(e.time !== undefined ? { time: e.time } : {}),
              reversal: e.reversal,
              ...(e.withRef ? { bankRef: `REF-${++refCount}` } : {}),
              party: e.party,
              remittance: e.remittance,
            })),
          }));
          let file = camtFile(specs, { message, version, ...(prefix ? { prefix } : {}), newline });
          if (encoding === 'latin1') file = file.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
          const bytes = encoding === 'latin1' ? Buffer.from(file, 'latin1') : Buffer.from(encoding === 'bom' ? `\uFEFF${file}` : file, 'utf8');
          expect(looksLikeCamt(encoding === 'bom' ? file : bytes.toString('latin1'))).toBe(true);

          const read = readCamtStatement(bytes);
          const idOf = (s: StatementSpec) => s.iban ?? s.other!;
          expect(read.problems).toEqual([]);
          expect(read.accounts.map((a) => [a.ref, a.number, a.currency])).toEqual(specs.map((s) => [`${idOf(s)} ${s.currency}`, idOf(s), s.currency]));
          expect(
            read.transactions.map((t) => ({
              account: t.accountRef,
              amount: t.amount,
              posted: iso(t.postedDate),
              date: iso(t.transactionDate),
              description: t.description,
              memo: t.memo ?? '',
            })),
          ).toEqual(
            specs.flatMap((s) =>
              s.entries.map((e) => {
                const party = tidy(e.party!);
                const remittance = tidy(e.remittance!);
                const description = party || remittance;
                return {
                  account: `${idOf(s)} ${s.currency}`,
                  amount: e.amount,
                  posted: e.booked,
                  date: e.value ?? e.booked,
                  description,
                  memo: remittance !== description ? remittance : '',
                };
              }),
            ),
          );
          for (const s of specs) {
            const refs = read.transactions.filter((t) => t.accountRef === `${idOf(s)} ${s.currency}`).map((t) => t.ref);
            expect(new Set(refs).size).toBe(s.entries.length);
            s.entries.forEach((e, i) => {
              if (e.bankRef !== undefined) expect(refs[i]).toBe(`${e.bankRef}|${e.booked}`);
            });
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
