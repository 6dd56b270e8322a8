import fc from 'fast-check';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders } from '../../src/outbox/enqueue.js';
import { ServiceError } from '../../src/contract/errors/service-error.js';

/** Headers the transport sets itself or that belong to the connection (docs/connect.md). */
const RESERVED = [
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
];
const reserved = (name: string) => RESERVED.includes(name.toLowerCase()) || name.toLowerCase().startsWith('webhook-');

function nodeSends(name: string, value: string): boolean {
  try {
    http.validateHeaderName(name);
    http.validateHeaderValue(name, value);
    return true;
  } catch {
    return false;
  }
}

function accepted(name: string, value: unknown): boolean {
  try {
    deliveryHeaders({ [name]: value }, 'webhookHeaders');
    return true;
  } catch (e) {
    expect(e).toBeInstanceOf(ServiceError);
    expect((e as ServiceError).code).toBe('10010');
    return false;
  }
}

describe('extra delivery headers', () => {
  // Characters near every boundary Node draws: token characters, separators, controls, DEL, Latin-1, beyond.
  const char = fc.oneof(
    fc.constantFrom(..."aZ09-_!#$%&'*+.^`|~", ' ', ':', '"', '(', ')', ',', '/', ';', '<', '=', '>', '?', '@', '[', '\\', ']', '{', '}'),
    fc.constantFrom('\t', '\r', '\n', '\0', '\u0001', '\u001f', '\u007f', '\u0080', '\u00a0', '\u00e9', '\u00ff', '\u0100', '\u2028', '\u{1F600}'),
    fc.integer({ min: 0, max: 0x2ff }).map((c) => String.fromCharCode(c)),
  );
  const text = fc.string({ unit: char, maxLength: 12 });
  const name = fc.oneof(text, fc.constantFrom(...RESERVED, 'Webhook-Signature', 'webhook-id', 'Content-Type', 'X-Partner-Token'));

  it('accepts exactly the headers Node can send, less those Ledgerlink sets itself', () => {
    fc.assert(
      fc.property(name, text, (n, v) => {
        expect(accepted(n, v), `${JSON.stringify(n)}: ${JSON.stringify(v)}`).toBe(nodeSends(n, v) && !reserved(n));
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses values that are not strings and lower-cases the names it keeps', () => {
    for (const value of [5, null, true, {}, ['a']]) expect(accepted('X-A', value)).toBe(false);
    expect(deliveryHeaders({ 'X-Partner-Token': 'tok', 'user-agent': 'partner/1' })).toEqual({ 'x-partner-token': 'tok', 'user-agent': 'partner/1' });
  });

  it('says which field and header are wrong', () => {
    expect(() => deliveryHeaders({ 'X-A': '\u2028' }, 'webhookHeaders')).toThrow(
      /^Invalid parameter \(webhookHeaders\): the value of "X-A" has a character HTTP cannot carry/,
    );
    expect(() => deliveryHeaders({ Trailer: 'x' }, 'webhookHeaders')).toThrow(
      /^Invalid parameter \(webhookHeaders\): "Trailer" is set by Ledgerlink itself or belongs to the connection/,
    );
  });
});
