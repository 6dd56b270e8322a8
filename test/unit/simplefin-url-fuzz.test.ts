import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Credential } from '../../src/connectors/connector.js';
import type { SimplefinRequest, SimplefinTransport } from '../../src/connectors/simplefin/client.js';
import { SimplefinConnector } from '../../src/connectors/simplefin/connector.js';
import { SIMPLEFIN_ERROR_TABLE } from '../../src/connectors/simplefin/errors.js';
import { checkBridgeUrl, decodeSetupToken, simplefinUrlPolicy, splitAccessUrl } from '../../src/connectors/simplefin/token.js';
import { hostileString } from '../helpers/fuzz.js';

const NOW = 1_790_000_000;
const INST = 590000;
const ctx = { institutionId: INST, now: NOW };
const form = (token: string): Credential[] => [{ id: `${INST}001`, name: 'SimpleFIN Setup Token', value: token }];
/** The codes docs/connectors.md documents for SimpleFIN (built from the same functions as the behaviour). */
const DOCUMENTED = new Set<number>(SIMPLEFIN_ERROR_TABLE.map((row) => row.code));
/** Put into generated passwords: no message may ever show it. */
const SECRET = 'Sekr1tPw';

/** Pieces of text that break URL parsing and percent-decoding, or sit in odd places of a URL. */
const piece = fc.oneof(
  fc.constantFrom(
    '%',
    '%zz',
    '%E0%A4%A',
    '%C3',
    '%ED%A0%80',
    '%F4%90%80%80',
    '%00',
    '%2',
    '%25',
    '%40',
    '@',
    ':',
    '@:',
    ':@',
    '//',
    '/',
    '?',
    '#',
    '[',
    ']',
    '\\',
    '\u0000',
    '\uD800',
    '\uDFFF',
    '\uD83D',
    ' ',
    '\t',
    '\n',
    'user',
    SECRET,
    'bridge.example.org',
    '127.0.0.1:9',
    '[::1]',
    'é',
    '💸',
  ),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const text = fc.array(piece, { maxLength: 10 }).map((parts) => parts.join(''));

/** Strings shaped like an access URL, with hostile user names, passwords, hosts and paths. */
const accessLike = fc
  .tuple(
    fc.constantFrom('https://', 'http://', 'HTTP://', 'ftp://', 'http:', ''),
    text,
    fc.constantFrom(':', '', '::', ':@'),
    text,
    fc.constantFrom('@', '@@', ''),
    fc.constantFrom('bridge.example.org', '127.0.0.1:9', '[::1]', '169.254.169.254', '', 'a@b'),
    fc.constantFrom('/simplefin', '/', '', '/%zz', '/simplefin?x=%'),
    text,
  )
  .map((parts) => parts.join(''));

const veryLong = fc.constantFrom(
  '%'.repeat(5000),
  'x'.repeat(5000),
  `https://${'a'.repeat(3000)}:b@bridge.example.org/simplefin`,
  `https://u:${'%zz'.repeat(700)}@bridge.example.org/simplefin`,
  `https://u:p@bridge.example.org/${'%E0%A4%A'.repeat(300)}`,
);

const anyText = fc.oneof(text, accessLike, veryLong, hostileString);
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const claimLike = fc
  .tuple(fc.constantFrom('https://bridge.example.org/simplefin/claim/', 'http://127.0.0.1:9/simplefin/claim/', 'https://u:p@bridge.example.org/claim/'), text)
  .map(([root, code]) => root + code);

/** What a user may paste as a setup token: anything, and base64 of anything, of URL-like text and of claim URLs. */
const setupToken = fc.oneof(
  anyText,
  anyText.map(b64),
  anyText.map((s) => Buffer.from(s, 'utf8').toString('base64url')),
  claimLike.map(b64),
  accessLike.map(b64),
);
const policy = fc.constantFrom('sandbox' as const, 'production' as const);

/** A bridge in memory: the claim answers `claimAnswer` with 200, `/accounts` one valid account. */
function fakeBridge(claimAnswer: string): { transport: SimplefinTransport; sent: SimplefinRequest[] } {
  const sent: SimplefinRequest[] = [];
  const transport: SimplefinTransport = async (request) => {
    sent.push(request);
    if (request.method === 'POST') return { status: 200, body: claimAnswer };
    const account = { id: 'A1', name: 'Checking', currency: 'USD', balance: '10.00', 'balance-date': NOW, transactions: [] };
    return { status: 200, body: JSON.stringify({ errors: [], accounts: [account] }) };
  };
  return { transport, sent };
}

/** Success, or a failure with a documented code and a message that shows no secret: anything else fails the test. */
function expectDocumented(result: { ok: boolean; code?: number; message?: string }, input: string): void {
  const shown = JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input);
  if (result.ok) return;
  expect(DOCUMENTED.has(result.code as number), `${shown}: code ${result.code}`).toBe(true);
  expect(typeof result.message === 'string' && result.message.length > 0, shown).toBe(true);
  expect(result.message, shown).not.toContain(SECRET);
}

describe('SimpleFIN setup tokens, claim answers and access URLs, fuzzed', () => {
  it('checks any text as a claim or access URL without throwing; an accepted access URL always yields its credentials', () => {
    fc.assert(
      fc.property(anyText, policy, (value, mode) => {
        for (const kind of ['claim', 'access'] as const) {
          const checked = checkBridgeUrl(value, kind, simplefinUrlPolicy(mode));
          if (!checked.ok) {
            expect(checked.reason).not.toContain(SECRET);
            continue;
          }
          if (kind === 'access') {
            const { base, authorization } = splitAccessUrl(checked.value);
            expect(base.username + base.password).toBe('');
            expect(authorization).toMatch(/^Basic [A-Za-z0-9+/]+=*$/);
          }
        }
        const decoded = decodeSetupToken(value, simplefinUrlPolicy(mode));
        if (!decoded.ok) expect(decoded.reason).not.toContain(SECRET);
      }),
      { numRuns: 1000 },
    );
  });

  it('answers any setup token with a session or a documented failure, never a thrown error', async () => {
    await fc.assert(
      fc.asyncProperty(setupToken, policy, async (token, mode) => {
        const bridge = fakeBridge('https://user:pass@bridge.example.org/simplefin');
        const connector = new SimplefinConnector({ transport: bridge.transport, allowUrl: simplefinUrlPolicy(mode) });
        expectDocumented(await connector.authenticate(ctx, form(token)), token);
      }),
      { numRuns: 500 },
    );
  });

  it('answers any claim answer of a bridge with a session or a documented failure, never a thrown error', async () => {
    const claimAnswer = fc.oneof(
      anyText,
      accessLike.map((url) => `  ${url}\n`),
    );
    await fc.assert(
      fc.asyncProperty(claimAnswer, policy, async (answer, mode) => {
        const bridge = fakeBridge(answer);
        const connector = new SimplefinConnector({ transport: bridge.transport, allowUrl: simplefinUrlPolicy(mode) });
        const result = await connector.authenticate(ctx, form(b64('https://bridge.example.org/simplefin/claim/abc')));
        expectDocumented(result, answer);
        // Credentials travel only in the Authorization header, never in a request URL.
        for (const request of bridge.sent) expect(new URL(request.url).username + new URL(request.url).password).toBe('');
      }),
      { numRuns: 500 },
    );
  });

  it('answers every call on any stored access URL with data or a documented failure, never a thrown error', async () => {
    await fc.assert(
      fc.asyncProperty(anyText, policy, async (accessUrl, mode) => {
        const bridge = fakeBridge('unused');
        const connector = new SimplefinConnector({ transport: bridge.transport, allowUrl: simplefinUrlPolicy(mode) });
        const session = { simplefin: 1, accessUrl, requests: [] };
        expectDocumented(await connector.listAccounts(ctx, session), accessUrl);
        expectDocumented(await connector.fetchTransactions(ctx, session, 'A1', NOW - 86_400 * 30, NOW), accessUrl);
        expect(Number.isFinite(connector.backgroundRefreshAt(ctx, session))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses an access URL whose credentials hold a broken percent-escape, and accepts escapes that decode', () => {
    for (const bad of [
      'https://us%zzer:pw@bridge.example.org/s',
      'https://user:p%E0%A4%A@bridge.example.org/s',
      'https://user:%@bridge.example.org/s',
      'https://u:%ED%A0%80@bridge.example.org/s',
    ]) {
      expect(checkBridgeUrl(bad, 'access'), bad).toEqual({ ok: false, reason: expect.stringMatching(/not valid percent-encoding/) });
    }
    const good = checkBridgeUrl('https://us%40er:p%3Aw%E0%A4%85@bridge.example.org/s', 'access');
    if (!good.ok) throw new Error(good.reason);
    expect(Buffer.from(splitAccessUrl(good.value).authorization.slice(6), 'base64').toString('utf8')).toBe('us@er:p:wअ');
    // A raw `@` or `:` in the user information is read as the URL standard reads it (the last `@` ends it).
    const odd = checkBridgeUrl('https://a@b:c:d@bridge.example.org/s', 'access');
    if (!odd.ok) throw new Error(odd.reason);
    expect(Buffer.from(splitAccessUrl(odd.value).authorization.slice(6), 'base64').toString('utf8')).toBe('a@b:c:d');
  });
});
