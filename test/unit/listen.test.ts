import { describe, expect, it } from 'vitest';
import { describeDelivery } from '../../src/main/cli/commands/listen.js';
import { renderNotification } from '../../src/modules/txpush/notify.service.js';
import { xmlWriter } from '../../src/contract/xml/serialize.js';
import { ConnectWebhookBody } from '../../src/modules/connect/webhooks.service.js';
import type { XmlSchema } from '../../src/contract/xml/schema-walk.js';

const transaction = (id: number) => ({
  id,
  accountId: 5011000003,
  amount: -4.25,
  description: 'coffee',
  status: 'active',
  createdDate: 1,
  transactionDate: 1,
  postedDate: 1,
  memo: '',
  type: 'debit',
  categorization: { normalizedPayeeName: 'coffee', category: 'Coffee Shops', bestRepresentation: 'coffee', country: 'USA' },
  bonusAmount: 0,
  escrowAmount: 0,
  feeAmount: 0,
  interestAmount: 0,
  principalAmount: 0,
  unitQuantity: 0,
  unitValue: 0,
});

describe('how listen describes a delivery', () => {
  it('names a TxPUSH notification by class and type, with its account and transactions, in JSON and XML', () => {
    const event = { class: 'transaction' as const, type: 'created' as const, records: [transaction(20000000001), transaction(20000000002)] };
    for (const format of ['json', 'xml'] as const) {
      const { body, contentType } = renderNotification(event, format);
      expect(describeDelivery(body, contentType), format).toEqual({
        kind: 'txpush',
        type: 'transaction.created',
        ids: 'account 5011000003  transactions 20000000001,20000000002',
      });
    }
    const account = renderNotification({ class: 'account', type: 'modified', records: [{ id: 5011000003 }] }, 'json');
    expect(describeDelivery(account.body, account.contentType)).toEqual({ kind: 'txpush', type: 'account.modified', ids: 'account 5011000003' });
  });

  it('names a Connect webhook by event type and customer, in JSON and XML; anything else by its size', () => {
    const body = { customerId: '1005000000', eventType: 'added', eventId: 'evt_1', payload: { accounts: ['5011000003'] } };
    expect(describeDelivery(JSON.stringify(body), 'application/json')).toEqual({ kind: 'webhook', type: 'connect.added', ids: 'customer 1005000000' });
    expect(describeDelivery(xmlWriter(ConnectWebhookBody as unknown as XmlSchema)(body), 'application/xml')).toEqual({
      kind: 'webhook',
      type: 'connect.added',
      ids: 'customer 1005000000',
    });
    expect(describeDelivery('not json', 'application/json')).toEqual({ kind: 'unknown', type: '-', ids: '8 bytes' });
  });
});
