import { describe, expect, it } from 'vitest';
import type { ConnectorAccount } from '../../src/connectors/connector.js';
import {
  type AccountContext,
  type AccountFacts,
  accountTypeOf,
  BALANCE_ORDER,
  mapAccount,
  mapTransactions,
  pickBalance,
} from '../../src/connectors/enablebanking/map.js';
import { factsOf } from '../../src/connectors/enablebanking/session.js';
import { type BalanceEntry, parseBalances, parseSessionCreated, parseTransactionPage, type TransactionEntry } from '../../src/connectors/enablebanking/wire.js';
import { accountResource, balance, transaction } from '../helpers/enable-banking-stub.js';

const NOW = Date.parse('2026-11-25T10:00:00Z') / 1000;
const CONTEXT: AccountContext = { country: 'FI', psuType: 'personal', authorizedAt: NOW - 86_400, validUntil: NOW + 170 * 86_400 };

function balances(...list: object[]): BalanceEntry[] {
  const parsed = parseBalances(JSON.stringify({ balances: list }));
  if (!parsed.ok) throw new Error(parsed.detail);
  return parsed.value;
}

function entries(...list: object[]): TransactionEntry[] {
  const parsed = parseTransactionPage(JSON.stringify({ transactions: list, continuation_key: null }));
  if (!parsed.ok) throw new Error(parsed.detail);
  return parsed.value.transactions;
}

/** An account resource as the session keeps it. */
function facts(extra: Record<string, unknown> = {}): AccountFacts {
  const parsed = parseSessionCreated(JSON.stringify({ session_id: 's-1', accounts: [accountResource('uid-1', 'hash-1', extra)] }));
  if (!parsed.ok) throw new Error(parsed.detail);
  return factsOf(parsed.value.accounts[0]!);
}

function account(extra: Record<string, unknown>, list: BalanceEntry[]): ConnectorAccount {
  return mapAccount(facts(extra), list, CONTEXT, NOW, 1);
}

describe('Enable Banking balances', () => {
  it('take the booked balance first (CLBD, ITBD, XPCD, OPBD, ...) and the available one apart (ITAV, CLAV, XPCD, ...)', () => {
    expect(BALANCE_ORDER.slice(0, 4)).toEqual(['CLBD', 'ITBD', 'XPCD', 'OPBD']);
    const all = balances(balance('ITAV', '90.00'), balance('OPBD', '80.00'), balance('CLBD', '100.00'), balance('CLAV', '95.00'));
    const checking = account({}, all);
    expect(checking).toMatchObject({ type: 'checking', balance: 100, detail: { availableBalanceAmount: 90 } });
    expect(account({}, balances(balance('OPBD', '60.00'), balance('XPCD', '70.00')))).toMatchObject({ balance: 70, detail: { availableBalanceAmount: 70 } });
    expect(account({}, balances(balance('ITAV', '55.10')))).toMatchObject({ balance: 55.1, detail: { availableBalanceAmount: 55.1 } });
    expect(account({}, balances(balance('ABCD', '3.00')))).toMatchObject({ balance: 3 });
    expect(account({}, [])).toMatchObject({ balance: 0, balanceDate: NOW });
  });

  it("prefer one in the account's currency, and the latest of one type", () => {
    const list = balances(
      balance('CLBD', '5.00', { balance_amount: { amount: '5.00', currency: 'USD' } }),
      balance('ITBD', '7.00'),
      balance('ITBD', '8.00', { reference_date: '2026-11-21' }),
    );
    expect(pickBalance(list, BALANCE_ORDER, 'EUR')?.amount).toBe('8.00');
    expect(account({}, list)).toMatchObject({ currency: 'EUR', balance: 8, balanceDate: Date.parse('2026-11-21T12:00:00Z') / 1000 });
  });

  it('keep the sign the bank gives, a debit indicator making it negative; loans are money owed whatever their sign', () => {
    expect(account({}, balances(balance('CLBD', '-42.00')))).toMatchObject({ balance: -42 });
    const card = account({ cash_account_type: 'CARD' }, balances(balance('CLBD', '250.00', { credit_debit_indicator: 'DBIT' })));
    expect(card).toMatchObject({ type: 'creditCard', balance: -250 });
    expect(card).not.toHaveProperty('detail');
    expect(account({ cash_account_type: 'CARD' }, balances(balance('CLBD', '-250.00')))).toMatchObject({ balance: -250 });
    expect(account({ cash_account_type: 'CARD' }, balances(balance('CLBD', '12.00')))).toMatchObject({ balance: 12 });
    const loan = account({ cash_account_type: 'LOAN' }, balances(balance('CLBD', '15000.00')));
    expect(loan).toMatchObject({ type: 'loan', balance: -15000, detail: { principalBalance: 15000 } });
  });
});

describe('Enable Banking accounts', () => {
  it('are named by their identification hash, carry the consent dates, and show the last four of their IBAN', () => {
    const checking = account({}, balances(balance('CLBD', '1.00')));
    expect(checking).toMatchObject({
      ref: 'hash-1',
      number: 'FI2112345600000785',
      accountNumberDisplay: '0785',
      name: 'Everyday account',
      currency: 'EUR',
      marketSegment: 'personal',
      displayPosition: 1,
      authorization: { startDate: CONTEXT.authorizedAt, endDate: CONTEXT.validUntil },
    });
  });

  it('may carry only `other` (a card): the masked number as given, its last four shown, named by type when undescribed', () => {
    const card = account(
      {
        account_id: { other: { identification: '5555 XXXX XXXX 4321', scheme_name: 'CPAN' } },
        cash_account_type: 'CARD',
        details: undefined,
        product: undefined,
      },
      balances(balance('ITBD', '-10.00')),
    );
    expect(card).toMatchObject({ type: 'creditCard', number: '5555 XXXX XXXX 4321', accountNumberDisplay: '4321', name: 'Card 4321', balance: -10 });
  });

  it('without an identification hash are named by a hash of their number, the same in every session', () => {
    const a = facts({ identification_hash: undefined });
    const b = facts({ identification_hash: undefined, uid: 'uid-2' });
    expect(a.ref).toMatch(/^n:/);
    expect(a.ref).toBe(b.ref);
  });

  it('take their type from cash_account_type, a current account unless known', () => {
    expect(['CACC', 'SVGS', 'CARD', 'LOAN', 'MORT', 'ODFT', 'OTHR', undefined].map(accountTypeOf)).toEqual([
      'checking',
      'savings',
      'creditCard',
      'loan',
      'mortgage',
      'lineOfCredit',
      'checking',
      'checking',
    ]);
  });

  it('are business accounts when the bank says ORGA, or the consent is a business one without a word on the account', () => {
    expect(account({ usage: 'ORGA' }, [])).toMatchObject({ marketSegment: 'business' });
    expect(mapAccount(facts({ usage: undefined }), [], { ...CONTEXT, psuType: 'business' }, NOW, 1)).toMatchObject({ marketSegment: 'business' });
  });
});

describe('Enable Banking transactions', () => {
  it('take their sign from credit_debit_indicator (debits negative) and their amount from transaction_amount, never the instructed amount', () => {
    const [debit, credit] = mapTransactions(
      'hash-1',
      entries(
        transaction({
          entry_reference: 'A',
          transaction_amount: { amount: '12.50', currency: 'EUR' },
          exchange_rate: { unit_currency: 'USD', exchange_rate: '1.08', instructed_amount: { amount: '13.50', currency: 'USD' } },
        }),
        transaction({
          entry_reference: 'B',
          transaction_amount: { amount: '2500.00', currency: 'EUR' },
          credit_debit_indicator: 'CRDT',
          debtor: { name: 'ACME OY' },
          creditor: { name: 'Maija' },
          remittance_information: ['Salary', 'November'],
          transaction_date: '2026-11-20',
        }),
      ),
      'FI',
      NOW,
    );
    expect(debit).toMatchObject({ ref: 'e:A', accountRef: 'hash-1', amount: -12.5, type: 'debit', status: 'active', description: 'K-Market Kamppi' });
    expect(debit).toMatchObject({ memo: 'Card purchase 1234', transactionDate: Date.parse('2026-11-19T12:00:00Z') / 1000 });
    expect(debit?.postedDate).toBe(Date.parse('2026-11-20T12:00:00Z') / 1000);
    expect(debit?.categorization.country).toBe('FIN');
    expect(credit).toMatchObject({ ref: 'e:B', amount: 2500, type: 'credit', description: 'ACME OY', memo: 'Salary November' });
  });

  it('that are pending have no posting date and, without an entry reference, a ref made of what they say', () => {
    const [pending] = mapTransactions(
      'hash-1',
      entries(transaction({ entry_reference: null, status: 'PDNG', booking_date: null, value_date: '2026-11-22', transaction_date: null })),
      'FI',
      NOW,
    );
    expect(pending).toMatchObject({ status: 'pending', transactionDate: Date.parse('2026-11-22T12:00:00Z') / 1000 });
    expect(pending).not.toHaveProperty('postedDate');
    expect(pending?.ref).toMatch(/^h:[A-Za-z0-9_-]{32}$/);
    const [undated] = mapTransactions(
      'hash-1',
      entries(transaction({ entry_reference: undefined, status: 'PDNG', booking_date: undefined, value_date: undefined, transaction_date: undefined })),
      'FI',
      NOW,
    );
    expect(undated).toMatchObject({ status: 'pending', transactionDate: NOW });
  });

  it('keep their content refs across reads in which the bank gives them new transaction_ids', () => {
    const read = () =>
      mapTransactions(
        'hash-1',
        entries(
          transaction({ entry_reference: undefined }),
          transaction({ entry_reference: undefined, transaction_amount: { amount: '3.00', currency: 'EUR' } }),
        ),
        'FI',
        NOW,
      ).map((t) => t.ref);
    const first = read();
    expect(first).toHaveLength(2);
    expect(new Set(first).size).toBe(2);
    expect(read()).toEqual(first);
  });

  it('that say the same are as many transactions (#2, #3); one entry reference given twice is one', () => {
    const same = transaction({ entry_reference: undefined });
    const refs = mapTransactions(
      'hash-1',
      entries(same, same, same, transaction({ entry_reference: 'X' }), transaction({ entry_reference: 'X' })),
      'FI',
      NOW,
    ).map((t) => t.ref);
    expect(refs).toHaveLength(4);
    expect(refs.filter((r) => r.startsWith('h:')).map((r) => r.replace(/^h:[^#]+/, ''))).toEqual(['', '#2', '#3']);
    expect(refs).toContain('e:X');
  });

  it('leave out cancelled, rejected and scheduled items, and come oldest first', () => {
    const list = mapTransactions(
      'hash-1',
      entries(
        transaction({ entry_reference: 'late', transaction_date: '2026-11-21' }),
        transaction({ entry_reference: 'c', status: 'CNCL' }),
        transaction({ entry_reference: 'r', status: 'RJCT' }),
        transaction({ entry_reference: 's', status: 'SCHD' }),
        transaction({ entry_reference: 'early', transaction_date: '2026-11-02' }),
      ),
      'FI',
      NOW,
    );
    expect(list.map((t) => t.ref)).toEqual(['e:early', 'e:late']);
  });

  it('are described by the remittance when they name no counterparty, and by their direction when they say nothing', () => {
    const [byRemittance, bare] = mapTransactions(
      'hash-1',
      entries(
        transaction({ entry_reference: '1', creditor: null, remittance_information: ['Rent\u202e December'] }),
        transaction({ entry_reference: '2', creditor: undefined, remittance_information: undefined, transaction_date: '2026-11-19' }),
      ),
      'FI',
      NOW,
    );
    expect(byRemittance).toMatchObject({ description: 'Rent December' });
    expect(byRemittance).not.toHaveProperty('memo');
    expect(bare).toMatchObject({ description: 'Debit' });
  });

  it('refuse an answer whose amount is not a decimal number, saying where and not what', () => {
    const parsed = parseTransactionPage(
      JSON.stringify({ transactions: [transaction(), transaction({ transaction_amount: { amount: '12,50 secret', currency: 'EUR' } })] }),
    );
    expect(parsed).toEqual({ ok: false, detail: 'transactions[1].transaction_amount.amount is not a decimal number' });
  });
});
