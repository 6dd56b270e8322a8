import { describe, expect, it } from 'vitest';
import { deliveryState } from '../../src/outbox/states.js';
import { RESPONSE_EXCERPT_BYTES, responseExcerpt } from '../../src/outbox/transports/transport.js';
import { eventTypeOfBody } from '../../src/platform/db/migrations/0022_delivery_states.js';

describe('delivery states', () => {
  it('reads pending, retrying, failed, delivered and cancelled from status, attempts and gave_up', () => {
    const cases: [Parameters<typeof deliveryState>[0], string][] = [
      [{ status: 'pending', attempts: 0, gave_up: 0 }, 'pending'],
      [{ status: 'delivering', attempts: 1, gave_up: 0 }, 'pending'],
      [{ status: 'pending', attempts: 1, gave_up: 0 }, 'retrying'],
      [{ status: 'delivering', attempts: 2, gave_up: 0 }, 'retrying'],
      [{ status: 'cancelled', attempts: 19, gave_up: 1 }, 'failed'],
      [{ status: 'cancelled', attempts: 3, gave_up: 0 }, 'cancelled'],
      [{ status: 'cancelled', attempts: 0, gave_up: 0 }, 'cancelled'],
      [{ status: 'delivered', attempts: 2, gave_up: 0 }, 'delivered'],
    ];
    for (const [row, state] of cases) expect(deliveryState(row), JSON.stringify(row)).toBe(state);
  });
});

describe('response excerpts', () => {
  it('keeps short answers whole and cuts long ones at 500 bytes, never in the middle of a character', () => {
    expect(responseExcerpt('')).toBe('');
    expect(responseExcerpt('{"ok":true}\n')).toBe('{"ok":true}\n');
    expect(responseExcerpt('a'.repeat(RESPONSE_EXCERPT_BYTES))).toBe('a'.repeat(RESPONSE_EXCERPT_BYTES));
    expect(responseExcerpt('a'.repeat(RESPONSE_EXCERPT_BYTES + 1))).toBe(`${'a'.repeat(RESPONSE_EXCERPT_BYTES)}…`);
    // 499 one-byte characters, then two-byte ones: the 500th byte is half of "é".
    const cut = responseExcerpt(`${'a'.repeat(RESPONSE_EXCERPT_BYTES - 1)}${'é'.repeat(10)}`);
    expect(cut).toBe(`${'a'.repeat(RESPONSE_EXCERPT_BYTES - 1)}…`);
    // An answer the transport already cut short is marked too.
    expect(responseExcerpt('partial', true)).toBe('partial…');
  });
});

describe('event types of deliveries written before migration 0022', () => {
  it('are read from TxPUSH and Connect bodies in JSON and XML, and e-mail is a Connect e-mail', () => {
    const push = (body: string, contentType = 'application/json') => eventTypeOfBody({ kind: 'txpush', content_type: contentType, body });
    const hook = (body: string, contentType = 'application/json') => eventTypeOfBody({ kind: 'webhook', content_type: contentType, body });
    expect(push('{"event":{"class":"transaction","type":"created","records":[]}}')).toBe('transaction.created');
    expect(
      push('<event><class>account</class><type>deleted</type><records><account><type>checking</type></account></records></event>', 'application/xml'),
    ).toBe('account.deleted');
    expect(hook('{"customerId":"1","eventType":"added","eventId":"e","payload":{}}')).toBe('connect.added');
    expect(hook('<webhook><customerId>1</customerId><eventType>institutionSelected</eventType></webhook>', 'text/xml')).toBe('connect.institutionSelected');
    expect(eventTypeOfBody({ kind: 'email', content_type: null, body: '{}' })).toBe('connect.email');
    // Anything else stays unknown rather than guessed.
    expect(push('not json')).toBeNull();
    expect(push('{"event":{"class":"transaction","type":"created; drop"}}')).toBeNull();
    expect(hook('{"eventType":42}')).toBeNull();
    expect(eventTypeOfBody({ kind: 'other', content_type: null, body: '' })).toBeNull();
  });
});
