import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountRecordOf } from '../../src/connectors/ofx/map.js';
import { type OfxBankStatement, readOfxResponse } from '../../src/connectors/ofx/parse.js';
import { ofxFileToStatementImport } from '../../src/connectors/statements/ofx.js';
import { currencyOf, mapAccount } from '../../src/connectors/simplefin/map.js';
import { readCsvStatement } from '../../src/connectors/statements/import.js';
import { describeCurrencyValue, ISO_4217_PACKAGE_DATE, iso4217Code, isIso4217, NO_CURRENCY } from '../../src/platform/currency.js';
import { refused } from '../helpers/statements.js';

const NOW = 1_790_000_000;

/** An OFX 1.02 answer with one bank statement: its CURDEF (left out when undefined) and each transaction's extra markup. */
function ofx(curdef: string | undefined, transactions: string[] = ['']): string {
  const list = transactions
    .map((extra, i) => `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260102<TRNAMT>-${i + 1}.50<FITID>T${i + 1}<NAME>SHOP ${i + 1}${extra}</STMTTRN>`)
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
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260131</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
<STMTRS>${curdef === undefined ? '' : `<CURDEF>${curdef}`}
<BANKACCTFROM><BANKID>121000248<ACCTID>555123<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20260101<DTEND>20260131
${list}
</BANKTRANLIST>
<LEDGERBAL><BALAMT>-12.34<DTASOF>20260131</LEDGERBAL>
</STMTRS></STMTTRNRS></BANKMSGSRSV1>
</OFX>
`;
}

function statementOf(text: string): { statement: OfxBankStatement; problems: string[] } {
  const response = readOfxResponse(text);
  const statement = response.statements[0]?.statement;
  if (!statement || statement.kind === 'investment') throw new Error('no bank statement');
  return { statement, problems: response.problems };
}

describe('the ISO 4217 list', () => {
  it('holds the current codes, funds, metals and "no currency", including ones Node’s Intl list lacks', () => {
    for (const code of ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'VED', 'VES', 'SLE', 'ZWG', 'XCG', 'CLF', 'USN', 'XAU', 'XDR', 'XXX', 'XTS']) {
      expect(isIso4217(code), code).toBe(true);
    }
    expect(NO_CURRENCY).toBe('XXX');
    expect(ISO_4217_PACKAGE_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('refuses anything else: unknown and withdrawn codes, other lengths, letters only in upper case as written', () => {
    for (const value of ['ABC', 'ZZZ', 'DEM', 'HRK', 'US', 'USDD', '', 'usd', ' USD', 'U$D', '€', '123']) expect(isIso4217(value), value).toBe(false);
  });

  it('reads a code in any letter case with spaces around, and nothing else, whatever the text', () => {
    expect([iso4217Code('usd'), iso4217Code(' Eur\t'), iso4217Code('\nxcg ')]).toEqual(['USD', 'EUR', 'XCG']);
    for (const value of [undefined, 'U S D', 'USD.', 'US Dollar', 'X'.repeat(3000), `USD${'\u0000'}`, 'ＵＳＤ']) expect(iso4217Code(value)).toBeUndefined();
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 4 }), fc.stringMatching(/^\s{0,2}[A-Za-z]{3}\s{0,2}$/)),
        (value) => {
          const code = iso4217Code(value);
          if (code !== undefined) expect(isIso4217(code) && code === value.trim().toUpperCase()).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('describes a value that is not a code without quoting long or unprintable text', () => {
    expect(describeCurrencyValue('EURO')).toBe('"EURO"');
    expect(describeCurrencyValue('  ')).toBe('an empty currency');
    expect(describeCurrencyValue('E'.repeat(3000))).toBe('a currency text of 3,000 characters');
    expect(describeCurrencyValue('\u202eDSU')).toBe('a currency text of 4 characters');
  });
});

describe('OFX currencies', () => {
  it('reads CURDEF as an upper-case ISO 4217 code, USD when it is left out', () => {
    expect(statementOf(ofx('eur')).statement.currency).toBe('EUR');
    expect(statementOf(ofx(' cad ')).statement.currency).toBe('CAD');
    expect(statementOf(ofx(undefined)).statement.currency).toBe('USD');
    expect(statementOf(ofx('GBP')).problems).toEqual([]);
  });

  it('keeps the amounts of a CURDEF that is not a code, without a currency (XXX), and names it', () => {
    for (const [curdef, shown] of [
      ['C'.repeat(3000), 'a currency text of 3,000 characters'],
      ['EURO', '"EURO"'],
      ['ABC', '"ABC"'],
      ['$', '"$"'],
    ] as const) {
      const { statement, problems } = statementOf(ofx(curdef, ['', '']));
      expect(statement.currency, curdef.slice(0, 10)).toBe('XXX');
      expect(statement.transactions.map((t) => t.amount)).toEqual([-1.5, -2.5]);
      expect(statement.ledgerBalance?.amount).toBe(-12.34);
      expect(problems).toEqual([`The currency (CURDEF) of account 555123 is ${shown}, not an ISO 4217 code: its amounts were kept without a currency (XXX)`]);
      // The account record served from it carries XXX, never the text.
      expect(accountRecordOf({ account: statement.account, statement, now: NOW, displayPosition: 1 }).currency).toBe('XXX');
    }
  });

  it('reads a transaction’s CURRENCY and ORIGCURRENCY as codes; a bad one is named and ignored, a foreign one named', () => {
    const { statement, problems } = statementOf(
      ofx('USD', [
        '<CURRENCY><CURRATE>1.1<CURSYM>eur</CURRENCY>',
        '<ORIGCURRENCY><CURRATE>0.9<CURSYM>GBP</ORIGCURRENCY>',
        `<CURRENCY><CURRATE>1<CURSYM>${'Z'.repeat(3000)}</CURRENCY>`,
        '<ORIGCURRENCY><CURRATE>1<CURSYM>POINTS</ORIGCURRENCY>',
        '<CURRENCY><CURRATE>1<CURSYM>USD</CURRENCY>',
      ]),
    );
    expect(statement.transactions.map((t) => t.currency)).toEqual(['EUR', 'GBP', undefined, undefined, 'USD']);
    expect(statement.transactions.map((t) => t.amount)).toEqual([-1.5, -2.5, -3.5, -4.5, -5.5]);
    expect(problems).toEqual([
      "Transaction T1 of account 555123 is in EUR, not in the account's USD: its amount was kept as the file gives it",
      "The currency of transaction T3 of account 555123 is a currency text of 3,000 characters, not an ISO 4217 code: its amount was read in the statement's currency",
      'The currency of transaction T4 of account 555123 is "POINTS", not an ISO 4217 code: its amount was read in the statement\'s currency',
    ]);
  });

  it('imports a statement file with a bad CURDEF under XXX and lists the problem', () => {
    const read = ofxFileToStatementImport(ofx('D'.repeat(3000)));
    expect(read.accounts).toMatchObject([{ ref: '555123', currency: 'XXX', balance: -12.34 }]);
    expect(read.transactions).toHaveLength(1);
    expect(read.problems).toEqual([{ message: expect.stringMatching(/^The currency \(CURDEF\) of account 555123 is a currency text of 3,000 characters/) }]);
    expect(JSON.stringify(read)).not.toContain('DDDD');
  });
});

describe('CSV currencies', () => {
  const csv = (amounts: string[]) => `Date,Description,Amount\n${amounts.map((a, i) => `01/${13 + i}/2026,SHOP ${i},"${a}"`).join('\n')}\n`;

  it('takes the currency option in any letter case, and refuses one that is not an ISO 4217 code', () => {
    expect(readCsvStatement(csv(['-4.50']), { currency: 'chf' }).accounts[0]?.currency).toBe('CHF');
    for (const currency of ['ABC', 'DOLLARS', 'us', 'X'.repeat(3000), ' ', 'HRK']) {
      expect(refused(() => readCsvStatement(csv(['-4.50']), { currency })).message).toBe('currency: an ISO 4217 code such as USD.');
    }
  });

  it('takes the currency every amount names, USD when none names one', () => {
    expect(readCsvStatement(csv(['-4.50 EUR', 'EUR 10.00'])).accounts[0]?.currency).toBe('EUR');
    expect(readCsvStatement(csv(['€4.50', '-€1.00'])).accounts[0]?.currency).toBe('EUR');
    const plain = readCsvStatement(csv(['-4.50', '$3.00']));
    expect([plain.accounts[0]?.currency, plain.problems]).toEqual(['USD', []]);
  });

  it('keeps amounts naming a text that is no code, or several currencies, under XXX and names them', () => {
    const junk = readCsvStatement(csv(['-4.50 ABC', '2.00 ABC']));
    expect(junk.accounts[0]?.currency).toBe('XXX');
    expect(junk.transactions.map((t) => t.amount)).toEqual([-4.5, 2]);
    expect(junk.problems).toEqual([{ message: 'The amounts name "ABC", which is not an ISO 4217 currency code: they were kept without a currency (XXX).' }]);

    const mixed = readCsvStatement(csv(['-4.50 EUR', '£2.00', '1.00 QQQ']));
    expect(mixed.accounts[0]?.currency).toBe('XXX');
    expect(mixed.transactions.map((t) => t.amount)).toEqual([-4.5, 2, 1]);
    expect(mixed.problems).toEqual([
      {
        message:
          'The amounts name several currencies (EUR, GBP, "QQQ") ("QQQ" not an ISO 4217 code): they were kept as the file gives them, without a currency (XXX). Upload each currency\'s rows as a file of its own.',
      },
    ]);
  });

  it('names amounts in another currency than the one asked for', () => {
    const read = readCsvStatement(csv(['-4.50 EUR', '2.00']), { currency: 'usd' });
    expect(read.accounts[0]?.currency).toBe('USD');
    expect(read.problems).toEqual([{ message: "Amounts name EUR, but the account's currency is USD as asked: they were kept as the file gives them." }]);
  });
});

describe('SimpleFIN currencies', () => {
  const facts = (currency: string) => ({ id: 'A', name: 'Checking', currency, balance: '-12.34', balanceDate: NOW });

  it('keeps the account of a currency that is no code, with its amounts, under XXX', () => {
    for (const currency of ['https://bank.example/points', 'ABC', 'C'.repeat(3000), 'u s d', '\u0000']) {
      const account = mapAccount(facts(currency), 1);
      expect([account.currency, account.balance]).toEqual(['XXX', -12.34]);
    }
    expect(mapAccount(facts('cad'), 1).currency).toBe('CAD');
    expect(currencyOf('https://bank.example/points').customUrl).toBe('https://bank.example/points');
  });
});
