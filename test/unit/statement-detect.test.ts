import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectLayout } from '../../src/connectors/statements/detect.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/statements/${name}`, import.meta.url));

describe('the layout of each sample export', () => {
  it.each([
    [
      'chase-checking.csv',
      'chase-checking',
      'checking',
      0,
      { date: 'Posting Date', amount: 'Amount', type: 'Type', balance: 'Balance', checkNum: 'Check or Slip #' },
    ],
    ['chase-card.csv', 'chase-card', 'creditCard', 0, { date: 'Transaction Date', postedDate: 'Post Date', type: 'Type', amount: 'Amount', memo: 'Memo' }],
    ['bank-of-america.csv', 'bank-of-america', 'checking', 5, { date: 'Date', amount: 'Amount', balance: 'Running Bal.' }],
    ['wells-fargo.csv', 'wells-fargo', 'checking', -1, { date: 0, amount: 1, checkNum: 3, description: 4 }],
    ['capital-one.csv', 'capital-one', 'creditCard', 0, { date: 'Transaction Date', accountNumber: 'Card No.', debit: 'Debit', credit: 'Credit' }],
    ['amex.csv', 'amex', 'creditCard', 0, { date: 'Date', amount: 'Amount', negate: true }],
    ['citi.csv', 'citi', 'creditCard', 0, { status: 'Status', debit: 'Debit', credit: 'Credit' }],
    ['discover.csv', 'discover', 'creditCard', 0, { date: 'Trans. Date', postedDate: 'Post Date', amount: 'Amount', negate: true }],
    ['mint.csv', 'mint', 'checking', 0, { amount: 'Amount', type: 'Transaction Type', account: 'Account Name', memo: 'Original Description' }],
    [
      'generic.csv',
      'generic',
      'checking',
      0,
      { date: 'Transaction Date', description: 'Payee', amount: 'Amount', memo: 'Reference', checkNum: 'Check Number' },
    ],
    ['generic-split.csv', 'generic-split', 'checking', 0, { date: 'Date', debit: 'Money Out', credit: 'Money In', balance: 'Balance', dateOrder: 'dmy' }],
    [
      'european.csv',
      'generic',
      'checking',
      0,
      { date: 'Value Date', postedDate: 'Booking Date', description: 'Narrative', amount: 'Amount', dateOrder: 'dmy' },
    ],
  ])('%s is %s', (file, layout, accountType, headerRow, mapping) => {
    const detected = detectLayout(fixture(file));
    expect(detected).toMatchObject({ ok: true, layout, accountType, ambiguousDates: false, mapping: { ...mapping, headerRow } });
    if (!detected.ok) return;
    expect(detected.mapping.dateOrder).toBe('dateOrder' in mapping ? mapping.dateOrder : 'mdy');
    expect(detected.sample.length).toBeGreaterThan(0);
    expect(detected.headers.length).toBeGreaterThanOrEqual(3);
  });

  it('names no sign flip for exports whose debits are already negative', () => {
    for (const file of ['chase-checking.csv', 'chase-card.csv', 'bank-of-america.csv', 'wells-fargo.csv', 'generic.csv']) {
      const detected = detectLayout(fixture(file));
      expect(detected.ok && detected.mapping.negate, file).toBeFalsy();
    }
  });
});

describe('telling layouts apart', () => {
  it('takes Date,Description,Amount as generic unless card payments show charges are positive', () => {
    const bank = 'Date,Description,Amount\n10/02/2026,COFFEE,-4.50\n10/03/2026,ONLINE PAYMENT - THANK YOU,-100.00\n';
    // A checking account paying its card: the payment is negative and so are the charges.
    expect(detectLayout(bank)).toMatchObject({ ok: true, layout: 'generic' });
    const card = 'Date,Description,Amount\n10/02/2026,COFFEE,4.50\n10/03/2026,AUTOPAY PAYMENT - THANK YOU,-100.00\n';
    expect(detectLayout(card)).toMatchObject({ ok: true, layout: 'amex', accountType: 'creditCard', mapping: { negate: true } });
  });

  it('knows the longer American Express download by its header', () => {
    const text =
      'Date,Description,Card Member,Account #,Amount,Extended Details\n10/02/2026,BLUE BOTTLE COFFEE,RILEY MORGAN,-41007,6.25,"BLUE BOTTLE COFFEE\nOAKLAND CA"\n';
    expect(detectLayout(text)).toMatchObject({ ok: true, layout: 'amex', mapping: { accountNumber: 'Account #', memo: 'Extended Details', negate: true } });
  });

  it('recognises Chase checking without its check column, and headers in any case and spacing', () => {
    expect(detectLayout('Details,Posting Date,Description,Amount,Type,Balance\nDEBIT,10/02/2026,COFFEE,-4.50,DEBIT_CARD,100.00,\n')).toMatchObject({
      layout: 'chase-checking',
    });
    expect(detectLayout('TRANS. DATE , post  date,DESCRIPTION,Amount,Category\n10/02/2026,10/02/2026,COFFEE,4.50,Restaurants\n')).toMatchObject({
      layout: 'discover',
      mapping: { date: 'TRANS. DATE', postedDate: 'post  date' },
    });
  });

  it('maps columns in any order by common names', () => {
    const text = 'Memo,Amount (USD),Payee,Check No,Posted Date,Transaction Date,Account Number\nLUNCH,-12.00,DELI,,10/03/2026,10/02/2026,****1234\n';
    expect(detectLayout(text)).toMatchObject({
      ok: true,
      layout: 'generic',
      mapping: {
        date: 'Transaction Date',
        postedDate: 'Posted Date',
        description: 'Payee',
        memo: 'Memo',
        amount: 'Amount (USD)',
        checkNum: 'Check No',
        accountNumber: 'Account Number',
      },
    });
  });

  it.each([
    ['Date,Description,Withdrawal,Deposit', 'Withdrawal', 'Deposit'],
    ['Date,Narrative,Paid out,Paid in', 'Paid out', 'Paid in'],
    ['Date,Details,Debit,Credit', 'Debit', 'Credit'],
  ])('maps split columns of %s', (header, debit, credit) => {
    expect(detectLayout(`${header}\n10/02/2026,COFFEE,4.50,\n`)).toMatchObject({ ok: true, layout: 'generic-split', mapping: { debit, credit } });
  });

  it('takes a memo or reference column as the description when there is no other', () => {
    expect(detectLayout('Date,Reference,Amount\n10/02/2026,COFFEE,-4.50\n')).toMatchObject({ ok: true, mapping: { description: 'Reference' } });
  });

  it('does not take a headerless file of five columns for Wells Fargo without its asterisks', () => {
    const text = '"10/31/2026","-4.25","x","","COFFEE"\n"10/30/2026","-2.00","x","","TEA"\n';
    expect(detectLayout(text)).toMatchObject({ ok: false });
  });
});

describe('dates that could be either way', () => {
  it('are reported, and the mapping leaves the order to the user', () => {
    const detected = detectLayout('Date,Description,Amount\n01/02/2026,COFFEE,-4.50\n03/04/2026,TEA,-2.00\n');
    expect(detected).toMatchObject({ ok: true, layout: 'generic', ambiguousDates: true });
    expect(detected.ok && detected.mapping.dateOrder).toBeUndefined();
  });

  it('are month-first in a known US bank export', () => {
    expect(detectLayout('Status,Date,Description,Debit,Credit\nCleared,01/02/2026,COFFEE,4.50,\n')).toMatchObject({
      ok: true,
      ambiguousDates: false,
      mapping: { dateOrder: 'mdy' },
    });
  });

  it('follow the file when its dates tell, whatever the layout', () => {
    expect(detectLayout('Status,Date,Description,Debit,Credit\nCleared,01/02/2026,COFFEE,4.50,\nCleared,25/02/2026,TEA,2.00,\n')).toMatchObject({
      mapping: { dateOrder: 'dmy' },
    });
  });
});

describe('an export of no known layout', () => {
  it('gives its headers and first rows, for the user to map', () => {
    const text = 'Account statement for ****1234\n\nWhen,What,How much,Left\n10/02/2026,COFFEE,-4.50,95.50\n10/03/2026,TEA,-2.00,93.50\n';
    expect(detectLayout(text)).toEqual({
      ok: false,
      reason: expect.stringMatching(/the date or the description or the amount/),
      headers: ['When', 'What', 'How much', 'Left'],
      headerRow: 1,
      sample: [
        ['10/02/2026', 'COFFEE', '-4.50', '95.50'],
        ['10/03/2026', 'TEA', '-2.00', '93.50'],
      ],
    });
  });

  it('says which column it is missing', () => {
    expect(detectLayout('Date,Description,Category\n10/02/2026,COFFEE,Food\n')).toMatchObject({ ok: false, reason: expect.stringMatching(/as the amount:/) });
  });

  it('numbers the columns of a file without a header, and samples from the first row', () => {
    const text = '10/02/2026,COFFEE,-4.50\n10/03/2026,TEA,-2.00\n';
    expect(detectLayout(text)).toEqual({
      ok: false,
      reason: expect.stringMatching(/no header row/),
      headers: ['Column 1', 'Column 2', 'Column 3'],
      headerRow: -1,
      sample: [
        ['10/02/2026', 'COFFEE', '-4.50'],
        ['10/03/2026', 'TEA', '-2.00'],
      ],
    });
  });

  it('shows at most five sample rows', () => {
    const text = `When,What,How much\n${'10/02/2026,COFFEE,-4.50\n'.repeat(20)}`;
    const detected = detectLayout(text);
    expect(!detected.ok && detected.sample).toHaveLength(5);
  });
});
