import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountRecordOf } from '../../src/connectors/ofx/map.js';
import { isRoutingNumber, routingNumberOf, withCheckDigit } from '../../src/connectors/routing-number.js';
import { TEST_INSTITUTIONS, testRoutingNumber } from '../../src/connectors/testbank/institutions.js';
import type { ServiceError } from '../../src/contract/errors/service-error.js';
import { achAccountNumber, achNumbers, loanPayment, ownershipOf } from '../../src/modules/payments/products.rules.js';

describe('routing numbers', () => {
  it.each(['121000248', '121000358', '026009593', '091000019', '011000138', '124017322'])('%s is one', (n) => {
    expect(isRoutingNumber(n)).toBe(true);
    expect(routingNumberOf(` ${n} `)).toBe(n);
  });

  it.each(['121000249', '1', '101732', '12100024', '1210002480', '12100024x', '', '１２１０００２４８'])('%s is not one', (n) => {
    expect(isRoutingNumber(n)).toBe(false);
    expect(routingNumberOf(n)).toBeUndefined();
  });

  it('completes any eight digits with the one check digit that makes a routing number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{8}$/), (eight) => {
        const full = withCheckDigit(eight);
        expect(full.startsWith(eight)).toBe(true);
        expect(isRoutingNumber(full)).toBe(true);
        for (let d = 0; d <= 9; d++) if (String(d) !== full[8]) expect(isRoutingNumber(`${eight}${d}`)).toBe(false);
      }),
    );
  });

  it('gives every test institution a routing number of its own', () => {
    const numbers = TEST_INSTITUTIONS.map((t) => testRoutingNumber(t.id));
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const n of numbers) expect(n).toMatch(/^1240\d{4}\d$/);
    expect(testRoutingNumber(101732)).toBe('124017322');
  });

  it("keeps an OFX BANKID as the account's routing number only when it is one", () => {
    const record = (bankId: string) =>
      accountRecordOf({ account: { kind: 'bank', bankId, acctId: '000123456789', acctType: 'CHECKING' }, now: 1_768_478_400, displayPosition: 1 });
    expect(record('121000358').routingNumber).toBe('121000358');
    for (const bankId of ['1', '', '0001234', '121000359']) expect(record(bankId).routingNumber).toBeUndefined();
  });
});

describe('what the payment products serve', () => {
  const row = { type: 'checking', number: '000123456789', routing_number: '121000358' };
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return [(e as ServiceError).code, (e as ServiceError).message];
    }
    throw new Error('not refused');
  };

  it('takes the digits of a full account number and refuses masked ones', () => {
    expect(achAccountNumber('000123456789')).toBe('000123456789');
    expect(achAccountNumber('1234-5678 90')).toBe('1234567890');
    for (const n of ['xxxx1234', 'XXXXXXXX6789', '', '123', '123456789012345678', 'A1234567']) expect(achAccountNumber(n)).toBeUndefined();
  });

  it('answers ACH numbers of checking and savings accounts with both numbers, 14020 otherwise', () => {
    expect(achNumbers(row)).toEqual({ routingNumber: '121000358', accountNumber: '000123456789' });
    expect(achNumbers({ ...row, type: 'savings' }).accountNumber).toBe('000123456789');
    expect(refusal(() => achNumbers({ ...row, type: 'creditCard' }))).toEqual(['14020', 'Bad request. (Account type not supported).']);
    expect(refusal(() => achNumbers({ ...row, routing_number: null }))).toEqual([
      '14020',
      'Bad request. (ACH details are not available for this account: its source gives no routing number).',
    ]);
    expect(refusal(() => achNumbers({ ...row, number: 'xxxx6789' }))[1]).toMatch(/no full account number/);
  });

  it('answers loan payment instructions of loans and mortgages that have them', () => {
    const loan = { type: 'mortgage', number: '1234560007', loan_payment: JSON.stringify({ paymentNumber: '12345600070', paymentAddress: 'PO Box 1' }) };
    expect(loanPayment(loan)).toEqual({ loanNumber: '1234560007', payment: { paymentNumber: '12345600070', paymentAddress: 'PO Box 1' } });
    expect(refusal(() => loanPayment({ ...loan, type: 'checking' }))[0]).toBe('14020');
    expect(refusal(() => loanPayment({ ...loan, loan_payment: null }))[1]).toMatch(/no payment instructions/);
  });

  it('answers 12017 for accounts without owners', () => {
    expect(refusal(() => ownershipOf({ owners: null }))).toEqual(['12017', 'No Account Owners Details Found.']);
    expect(refusal(() => ownershipOf({ owners: JSON.stringify({ name: '', holders: [] }) }))[0]).toBe('12017');
  });
});
