import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateSigningSecret, isSigningSecret, newEventId, sign, signatureHeaders } from '../../src/outbox/sign.js';

describe('Standard Webhooks signatures', () => {
  it('verify with the standardwebhooks library', () => {
    const secret = generateSigningSecret();
    const body = JSON.stringify({ event: { class: 'transaction', type: 'created', records: [{ id: 1 }] } });
    const eventId = newEventId();
    const headers = signatureHeaders(secret, eventId, Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-id']).toBe(eventId);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('fail verification when the body, id or secret differ', () => {
    const secret = generateSigningSecret();
    const now = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders(secret, 'evt_1', now, '{"a":1}');
    expect(() => new Webhook(secret).verify('{"a":2}', headers)).toThrow();
    expect(() => new Webhook(secret).verify('{"a":1}', { ...headers, 'webhook-id': 'evt_2' })).toThrow();
    expect(() => new Webhook(generateSigningSecret()).verify('{"a":1}', headers)).toThrow();
  });

  it('matches the library signing the same message', () => {
    const secret = generateSigningSecret();
    const at = new Date(Date.UTC(2026, 0, 15, 12, 0, 0));
    expect(sign(secret, 'evt_x', at.getTime() / 1000, 'hello')).toBe(new Webhook(secret).sign('evt_x', at, 'hello'));
  });

  it('makes whsec_ secrets of 32 random bytes and distinct event ids', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(isSigningSecret(secret)).toBe(true);
    expect(isSigningSecret('whsec_c2hvcnQ=')).toBe(false);
    expect(isSigningSecret('secret')).toBe(false);
    expect(newEventId()).toMatch(/^evt_[A-Za-z0-9]{27}$/);
    expect(newEventId()).not.toBe(newEventId());
  });
});
