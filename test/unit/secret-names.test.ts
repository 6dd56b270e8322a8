import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSecretHeaderName, isSecretParamName } from '../../src/platform/secret-names.js';

/** Names of parameters and headers the API and browsers use, which must stay readable in the logs. */
const INNOCENT_PARAMS = [
  'search',
  'start',
  'limit',
  'customerId',
  'partnerId',
  'timestamp',
  'type',
  'status',
  'fromDate',
  'toDate',
  'showDailyBalance',
  'account_type',
  'username',
  'profile',
  'decision',
  'target',
  'page',
  'afterId',
  'institutionId',
  'eventType',
  'error',
  'linkId',
  'kind',
  'method',
  'path',
  'passport',
  'pinned',
  'spin',
  'bypass',
];
const INNOCENT_HEADERS = [
  'host',
  'user-agent',
  'accept',
  'accept-encoding',
  'accept-language',
  'content-type',
  'content-length',
  'content-encoding',
  'content-disposition',
  'content-location',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'x-request-id',
  'x-forwarded-for',
  'x-forwarded-proto',
  'referer',
  'origin',
  'cache-control',
  'if-none-match',
  'vary',
  'strict-transport-security',
  'retry-after',
  'location',
  'forwarded',
  'link',
  'sec-fetch-site',
  'upgrade-insecure-requests',
  'webhook-id',
  'webhook-timestamp',
];

/** Words every spelling of which names a secret. */
const WORDS = ['pwd', 'pass', 'password', 'passcode', 'pin', 'otp', 'answer', 'secret', 'token', 'key', 'signature', 'code', 'state', 'credential'];

/** Percent-encodes the characters of a name where `mask` says so (as a client may, for any character). */
const percentEncoded = (name: string, mask: boolean[]) =>
  [...name].map((c, i) => (mask[i % mask.length] ? `%${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c)).join('');

describe('names of query parameters and headers that hold secrets', () => {
  it('are matched by their words, after decoding, in any case and with array suffixes', () => {
    for (const name of [
      'pwd',
      'PWD',
      'pass',
      'pin',
      'answer',
      'answers[]',
      'password%00',
      'pass%00word',
      'Password%2500',
      'token[]',
      'token[0]',
      'user[password]',
      'user.pin',
      'mfa_answer',
      'mfaAnswer',
      'userPIN',
      'PINCode',
      'pin1',
      '%70wd',
      'Pass%77ord',
      'pa%E2%80%8Bss',
      'ｐｗｄ',
      'paſsword',
      'access_token',
      'accesstoken',
      'client_secret',
      'apiKeys',
      'newpwd',
      '%73ignature',
      'sig',
      'code',
      'state',
      'oauth_verifier',
    ]) {
      expect(isSecretParamName(name), name).toBe(true);
    }
    for (const name of INNOCENT_PARAMS) expect(isSecretParamName(name), name).toBe(false);
  });

  it('hold for headers too, and any header name holding key, auth, cookie or session', () => {
    for (const name of [
      'X-Pwd',
      'x-pin',
      'X-Mfa-Answer',
      'x-passcode',
      'x-otp',
      'authorization',
      'proxy-authorization',
      'cookie',
      'set-cookie',
      'mfa-session',
      'service-app-key',
      'finicity-app-token',
      'x-apikeyid',
      'x-partner-credential',
      'webhook-signature',
    ]) {
      expect(isSecretHeaderName(name), name).toBe(true);
    }
    for (const name of INNOCENT_HEADERS) expect(isSecretHeaderName(name), name).toBe(false);
  });

  it('whatever the spelling: letter case, percent-encoding, NULs and invisible characters, brackets, prefixes', () => {
    const spelling = fc.record({
      word: fc.constantFrom(...WORDS),
      upper: fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
      encode: fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
      hidden: fc.constantFrom('', '%00', '\u0000', '\u200b', '%E2%80%8B', '\u00ad'),
      at: fc.nat(),
      prefix: fc.constantFrom('', 'x_', 'user.', 'new-', 'data[', 'X-'),
      suffix: fc.constantFrom('', '[]', '[0]', ']', '%5B%5D', '1', 's'),
    });
    fc.assert(
      fc.property(spelling, ({ word, upper, encode, hidden, at, prefix, suffix }) => {
        const cased = [...word].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c)).join('');
        const cut = at % (cased.length + 1);
        const name = `${prefix}${percentEncoded(cased.slice(0, cut), encode)}${hidden}${cased.slice(cut)}${suffix}`;
        expect(isSecretParamName(name), name).toBe(true);
        expect(isSecretHeaderName(name), name).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
