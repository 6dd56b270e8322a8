import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AccountJson } from '../helpers/aggregation.js';
import { statementUploads } from '../helpers/statement-uploads.js';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/statements/camt/${name}`, import.meta.url));
const day = (iso: string) => Date.parse(`${iso}T12:00:00Z`) / 1000;

describe('camt statement uploads', () => {
  const { customer, uploadOk, transactionsOf } = statementUploads('2026-07-01T12:00:00Z');

  it('stores the account in its currency with its closing balance, the booked entries with their signs and dates; a second upload adds nothing', async () => {
    const customerId = await customer();
    const file = fixture('statement-053-v02.xml');
    // Generic XML is told from its first bytes.
    const first = await uploadOk(customerId, file, { type: 'application/xml' });
    expect(first).toMatchObject({ loginCreated: true, format: 'camt', transactionsAdded: 7, transactionsAlreadyPresent: 0 });
    expect(first.problems).toEqual([
      { line: 307, message: 'Pending (2026-03-31, -19.99 EUR): left out until it is booked.' },
      { line: 316, message: 'Information only (2026-04-02, 5000.00 EUR), not a booking: left out.' },
    ]);
    expect(first.accounts.map((a: AccountJson) => [a.type, a.name, a.currency, a.balance, a.balanceDate, a.accountNumberDisplay])).toEqual([
      ['checking', 'Girokonto', 'EUR', 2532.93, day('2026-03-31'), '3000'],
    ]);
    expect(first.accounts[0].detail).toMatchObject({ availableBalanceAmount: 2500 });
    const accountId = Number(first.accounts[0].id);

    const stored = await transactionsOf(customerId);
    expect(stored.map((t) => [t.accountId, t.amount, t.postedDate, t.transactionDate, t.description, t.memo ?? null, t.status])).toEqual([
      [accountId, -42.17, day('2026-03-03'), day('2026-03-02'), 'REWE Markt 1234', 'Kartenzahlung 02.03.2026 12:41', 'active'],
      [accountId, 2500, day('2026-03-05'), day('2026-03-05'), 'Acme & Co. GmbH', 'Gehalt Maerz 2026 Personalnr. 4711', 'active'],
      [accountId, -800, day('2026-03-06'), day('2026-03-06'), 'Hausverwaltung Schmidt', 'Miete Maerz Whg. 3', 'active'],
      [accountId, -61.2, day('2026-03-10'), day('2026-03-10'), 'Stadtwerke Musterstadt', 'Abschlag Strom 03/2026 RF18539007547034', 'active'],
      [accountId, 61.2, day('2026-03-12'), day('2026-03-10'), 'Ruecklastschrift', null, 'active'],
      [accountId, -120, day('2026-03-20'), day('2026-03-20'), 'Malerbetrieb Weiss', null, 'active'],
      [accountId, -4.9, day('2026-03-31'), day('2026-03-31'), 'Kontofuehrungsentgelt Maerz', null, 'active'],
    ]);

    const again = await uploadOk(customerId, file, { type: 'application/x-camt+xml' });
    expect(again).toMatchObject({ loginCreated: false, format: 'camt', transactionsAdded: 0, transactionsAlreadyPresent: 7 });
    expect(again.accounts.map((a: AccountJson) => Number(a.id))).toEqual([accountId]);
    expect(await transactionsOf(customerId)).toHaveLength(7);
  });

  it('several accounts and currencies: two statements of one account merged, an overlapping file and a multi-currency account', async () => {
    const customerId = await customer();
    const text = fixture('two-statements-053-v04.xml').toString('utf8');
    const first = await uploadOk(customerId, text, { type: 'text/xml' });
    expect(first).toMatchObject({ format: 'camt', transactionsAdded: 7, transactionsAlreadyPresent: 0, problems: [] });
    expect(first.accounts.map((a: AccountJson) => [a.name, a.currency, a.balance])).toEqual([
      ['Betaalrekening', 'EUR', 610],
      ['Dollar Account', 'USD', 985],
    ]);
    const [eur, usd] = first.accounts.map((a: AccountJson) => Number(a.id));
    const stored = await transactionsOf(customerId);
    expect(stored.filter((t) => t.accountId === eur).map((t) => t.amount)).toEqual([-25, -2.4, -2.4, 100, 10, -2.4]);
    expect(stored.filter((t) => t.accountId === usd).map((t) => [t.amount, t.description])).toEqual([[-15, 'AWS EMEA']]);

    // The second statement alone, as a later download overlapping the first: nothing new.
    const secondOnly = text.slice(0, text.indexOf('    <Stmt>')) + text.slice(text.indexOf('    <Stmt>', text.indexOf('</Stmt>')));
    const overlap = await uploadOk(customerId, Buffer.from(secondOnly), { type: 'application/octet-stream' });
    expect(overlap).toMatchObject({ loginCreated: false, transactionsAdded: 0, transactionsAlreadyPresent: 6 });

    const multi = await uploadOk(customerId, fixture('multi-currency-053-v05.xml'), { type: 'application/xml' });
    expect(multi).toMatchObject({ transactionsAdded: 2, problems: [] });
    expect(multi.accounts.map((a: AccountJson) => [a.currency, a.balance, a.accountNumberDisplay])).toEqual([
      ['EUR', 240, '6769'],
      ['USD', 1300, '6769'],
    ]);
    const after = await transactionsOf(customerId);
    expect(after.filter((t) => t.accountId === Number(multi.accounts[1].id)).map((t) => [t.amount, t.description])).toEqual([[1300, 'Upwork Global Inc']]);
  });
});
