import { describe, expect, it } from 'vitest';
import { negotiateFormat } from '../../src/http/negotiate.js';

describe('Accept negotiation', () => {
  it.each([
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['application/*', 'json'],
    ['application/json', 'json'],
    ['application/xml', 'xml'],
    ['text/xml', 'xml'],
    ['text/*', 'xml'],
    ['application/xml;q=0.9, application/json;q=0.8', 'xml'],
    ['application/xml;q=0.1, */*', 'json'],
    ['application/vnd.api+json', 'json'],
    ['application/atom+xml', 'xml'],
    ['text/html', undefined],
    ['application/json;q=0', undefined],
    ['image/png, text/plain', undefined],
    ['application/json;q=abc', undefined],
  ])('%s -> %s', (accept, expected) => {
    expect(negotiateFormat(accept)).toBe(expected);
  });
});
