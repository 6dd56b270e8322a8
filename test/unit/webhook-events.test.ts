import { describe, expect, it } from 'vitest';
import type { AggregationEvent } from '../../src/modules/aggregation/records.js';
import { aggregationWebhookEvents, MAX_TRANSACTIONS_PER_NOTIFICATION, meetsCondition, type EmittedEvent } from '../../src/modules/webhooks/deliver.service.js';

const scope = { partnerId: '1000000000001', customerId: 1005000001, accountId: 5011000001 };
const account = (type: 'created' | 'modified' | 'deleted', extra: Partial<AggregationEvent> = {}) =>
  ({
    class: 'account',
    type,
    ...scope,
    record: { id: '5011000001', institutionId: '101732', institutionLoginId: 6000000001, authorizationEndDate: 1790000000 },
    ...extra,
  }) as AggregationEvent;
const transaction = (id: number, type: 'created' | 'modified' | 'deleted' = 'created') =>
  ({ class: 'transaction', type, ...scope, record: { id, accountId: scope.accountId } }) as unknown as AggregationEvent;

describe('webhook events of recorded aggregation events', () => {
  it('names account changes as the reference does, with the fields conditions filter on', () => {
    expect(aggregationWebhookEvents([account('modified')])).toEqual([
      {
        partnerId: scope.partnerId,
        customerId: scope.customerId,
        name: 'manage.txpush.account.modified',
        fields: { accountId: '5011000001', customerId: '1005000001', institutionId: '101732' },
        payload: { accountId: '5011000001', account: expect.objectContaining({ id: '5011000001' }) },
      },
    ]);
  });

  it('adds authorization.accesstoken.expiry only to the change that began the warning', () => {
    const names = (e: AggregationEvent) => aggregationWebhookEvents([e]).map((w) => w.name);
    expect(names(account('modified'))).toEqual(['manage.txpush.account.modified']);
    expect(names(account('modified', { consentExpiring: true } as Partial<AggregationEvent>))).toEqual([
      'manage.txpush.account.modified',
      'authorization.accesstoken.expiry',
    ]);
    const [, expiry] = aggregationWebhookEvents([account('modified', { consentExpiring: true } as Partial<AggregationEvent>)]);
    expect(expiry!.payload).toEqual({ accountId: '5011000001', institutionId: '101732', institutionLoginId: '6000000001', authorizationEndDate: 1790000000 });
  });

  it('groups transaction changes by account and kind, at most a hundred a notification', () => {
    const created = Array.from({ length: MAX_TRANSACTIONS_PER_NOTIFICATION + 1 }, (_, i) => transaction(i + 1));
    const events = aggregationWebhookEvents([...created, transaction(900, 'deleted')]);
    expect(events.map((e) => [e.name, (e.payload.transactions as unknown[]).length])).toEqual([
      ['manage.txpush.transaction.created', 100],
      ['manage.txpush.transaction.created', 1],
      ['manage.txpush.transaction.deleted', 1],
    ]);
  });
});

describe('conditions', () => {
  const event: EmittedEvent = { partnerId: 'p', name: 'connect.done', fields: { customerId: '7' }, payload: {} };
  const row = (field: 'customerId' | 'accountId' | null, includes?: string[], excludes?: string[]) => ({
    condition_field: field,
    condition_includes: includes ? JSON.stringify(includes) : null,
    condition_excludes: excludes ? JSON.stringify(excludes) : null,
  });

  it('lets every event through without one, and filters on includes and excludes', () => {
    expect(meetsCondition(row(null), event)).toBe(true);
    expect(meetsCondition(row('customerId', ['7']), event)).toBe(true);
    expect(meetsCondition(row('customerId', ['8']), event)).toBe(false);
    expect(meetsCondition(row('customerId', undefined, ['7']), event)).toBe(false);
    expect(meetsCondition(row('customerId', ['7'], ['7']), event)).toBe(false);
  });

  it('sends an event without the field only when nothing must be included', () => {
    expect(meetsCondition(row('accountId', ['1']), event)).toBe(false);
    expect(meetsCondition(row('accountId', undefined, ['1']), event)).toBe(true);
  });
});
