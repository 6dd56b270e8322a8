import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { listenerUrlProblem } from '../../src/outbox/policy.js';
import { renderNotification } from '../../src/modules/txpush/notify.service.js';
import { verificationUrl } from '../../src/modules/txpush/verify.service.js';
import { notificationFormatFor } from '../../src/http/api/routes/txpush/subscribeToTxPushNotifications.js';

describe('the notification format', () => {
  it.each([
    ['application/json', 'json'],
    ['application/json; charset=utf-8', 'json'],
    ['application/xml, application/json;q=0.5', 'xml'],
    ['application/xml', 'xml'],
    ['text/xml', 'xml'],
    ['*/*', 'xml'],
    ['', 'xml'],
    [undefined, 'xml'],
  ] as const)('is %s → %s: JSON only when the enabling call asked for JSON', (accept, format) => {
    expect(notificationFormatFor(accept)).toBe(format);
  });
});

describe('notification bodies', () => {
  const transaction = {
    id: 20000000001,
    amount: -4.25,
    accountId: 5011000000,
    customerId: 1005000000,
    status: 'active',
    description: 'Coffee & <cake>',
    createdDate: 1,
    feeAmount: 0,
  };

  it('render JSON as {event: {class, type, records}}', () => {
    const { body, contentType } = renderNotification({ class: 'transaction', type: 'created', records: [transaction] }, 'json');
    expect(contentType).toBe('application/json');
    expect(JSON.parse(body)).toEqual({ event: { class: 'transaction', type: 'created', records: [transaction] } });
  });

  it('render XML with root event and one record element per record, escaped', () => {
    const { body, contentType } = renderNotification(
      { class: 'transaction', type: 'modified', records: [transaction, { ...transaction, id: 20000000002 }] },
      'xml',
    );
    expect(contentType).toBe('application/xml');
    expect(body).toContain('<description>Coffee &amp; &lt;cake&gt;</description>');
    const doc = new XMLParser({ parseTagValue: false, isArray: (n) => n === 'transaction' }).parse(body);
    expect(doc.event.class).toBe('transaction');
    expect(doc.event.type).toBe('modified');
    expect(doc.event.records.transaction.map((t: { id: string }) => t.id)).toEqual(['20000000001', '20000000002']);
  });

  it('render account records as account elements', () => {
    const { body } = renderNotification(
      { class: 'account', type: 'deleted', records: [{ id: '5011000000', name: 'Checking', balance: 10.5, detail: { availableBalanceAmount: 9 } }] },
      'xml',
    );
    expect(body).toMatch(
      /^<\?xml[^>]*\?><event><class>account<\/class><type>deleted<\/type><records><account><id>5011000000<\/id><name>Checking<\/name><balance>10.5<\/balance><detail><availableBalanceAmount>9<\/availableBalanceAmount><\/detail><\/account><\/records><\/event>$/,
    );
  });
});

describe('listener URL rules', () => {
  const rules = { allowHttp: true, extraPorts: [] };
  it.each([
    ['https://listener.example/hook', undefined],
    ['http://listener.example/hook', undefined],
    ['https://listener.example:443/hook', undefined],
    ['https://listener.example:8443/hook', 'port'],
    ['http://listener.example:443/hook', 'port'],
    ['ftp://listener.example/hook', 'url'],
    ['https://u:p@listener.example/hook', 'url'],
    ['not a url', 'url'],
  ] as const)('%s breaks rule %s', (url, rule) => {
    expect(listenerUrlProblem(url, rules)?.rule).toBe(rule);
  });

  it('name https as the rule broken by http where it is not allowed', () => {
    expect(listenerUrlProblem('http://listener.example/hook', { allowHttp: false, extraPorts: [] })?.rule).toBe('https');
  });
});

describe('the verification URL', () => {
  it("adds the code to the query and keeps the listener's own parameters", () => {
    expect(verificationUrl('https://listener.example/hook?tenant=7', 'abc')).toBe('https://listener.example/hook?tenant=7&txpush_verification_code=abc');
  });
});
