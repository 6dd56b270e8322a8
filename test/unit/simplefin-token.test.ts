import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkBridgeUrl, decodeSetupToken, MAX_SETUP_TOKEN_LENGTH, simplefinUrlPolicy, splitAccessUrl } from '../../src/connectors/simplefin/token.js';

const CLAIM = 'https://bridge.example.org/simplefin/claim/0123456789abcdef0123';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

function decoded(token: string, policy?: Parameters<typeof decodeSetupToken>[1]): string {
  const result = decodeSetupToken(token, policy);
  if (!result.ok) throw new Error(`expected a claim URL, got: ${result.reason}`);
  return result.value.href;
}

function refused(token: string, policy?: Parameters<typeof decodeSetupToken>[1]): string {
  const result = decodeSetupToken(token, policy);
  if (result.ok) throw new Error(`expected a refusal, got ${result.value.href}`);
  return result.reason;
}

describe('setup token decoding', () => {
  it('reads the protocol example token', () => {
    expect(decoded('aHR0cHM6Ly9icmlkZ2Uuc2ltcGxlZmluLm9yZy9zaW1wbGVmaW4vY2xhaW0vZGVtbw==')).toBe('https://bridge.simplefin.org/simplefin/claim/demo');
  });

  it('reads standard and URL-safe base64, with or without padding, with whitespace around and inside', () => {
    // A URL whose base64 needs both + and / (standard) or - and _ (URL-safe), and padding.
    const url = 'https://bridge.example.org/simplefin/claim/~?~>>?>~x';
    expect(b64(url)).toMatch(/\+/);
    expect(b64(url)).toMatch(/\//);
    expect(b64(url)).toMatch(/=$/);
    for (const token of [b64(url), b64url(url), b64(url).replace(/=+$/, ''), `  ${b64(url)}\n`, b64(url).replace(/(.{16})/g, '$1\n'), `\t${b64url(url)} `]) {
      expect(decoded(token)).toBe(new URL(url).href);
    }
  });

  it('decodes any http(s) URL in any of the accepted spellings', () => {
    fc.assert(
      fc.property(
        fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true }),
        fc.constantFrom('base64', 'base64url', 'unpadded', 'wrapped'),
        (url, spelling) => {
          const standard = b64(url);
          const token =
            spelling === 'base64'
              ? standard
              : spelling === 'base64url'
                ? b64url(url)
                : spelling === 'unpadded'
                  ? standard.replace(/=+$/, '')
                  : standard.replace(/(.{20})/g, '$1\r\n');
          expect(decoded(token)).toBe(new URL(url).href);
        },
      ),
    );
  });

  it.each([
    ['an empty token', ''],
    ['blanks', '  \n\t '],
    ['punctuation', '!!!!****'],
    ['words', 'not a setup token'],
    ['base64 of plain text', b64('hello world, this is text')],
    ['base64 of binary', Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x81, 0x82]).toString('base64')],
    ['an impossible base64 length', 'abcde'],
    ['too much padding', `${b64('https://x.example/claim/a')}===`],
    ['an ftp URL', b64('ftp://bridge.example.org/claim/abc')],
    ['a javascript URL', b64('javascript:alert(1)')],
    ['a file URL', b64('file:///etc/passwd')],
    ['a URL with spaces', b64('https://bridge.example.org/claim/a b')],
    ['a claim URL with credentials', b64('https://user:pass@bridge.example.org/claim/abc')],
    ['a pasted URL', 'https://bridge.example.org/simplefin/claim/abc'],
    ['an overlong token', 'A'.repeat(MAX_SETUP_TOKEN_LENGTH + 4)],
  ])('refuses %s with a reason that quotes nothing of it', (_, token) => {
    const reason = refused(token);
    expect(reason.length).toBeGreaterThan(10);
    if (token.trim().length >= 4) expect(reason).not.toContain(token.trim());
    expect(reason).not.toMatch(/claim\/|passwd|alert|pass@/);
  });

  it('names a pasted web address as such', () => {
    expect(refused('https://bridge.example.org/simplefin/claim/abc')).toMatch(/web address, not a setup token/);
    expect(refused(b64('ftp://bridge.example.org/claim/abc'))).toMatch(/https:\/\//);
  });
});

describe('URL policy', () => {
  const production = simplefinUrlPolicy('production');
  const sandbox = simplefinUrlPolicy('sandbox');

  it('allows only https in production, and no loopback, private or metadata literal even over https', () => {
    expect(decoded(b64(CLAIM), production)).toBe(CLAIM);
    expect(refused(b64('http://bridge.example.org/simplefin/claim/abc'), production)).toMatch(/not allowed: only https/);
    expect(refused(b64('http://127.0.0.1:8080/simplefin/claim/abc'), production)).toMatch(/not allowed/);
    for (const host of ['127.0.0.1', '10.1.2.3', '[::1]', '169.254.169.254', 'localhost', 'bridge.localhost']) {
      expect(refused(b64(`https://${host}/simplefin/claim/abc`), production), host).toMatch(/not allowed: .*refuses in production mode/);
    }
  });

  it('allows plain http in the sandbox to the addresses the outbound target policy allows there, and https anywhere', () => {
    for (const host of [
      '127.0.0.1:9000',
      'localhost:9000',
      '10.1.2.3',
      '192.168.0.10',
      '172.16.5.4',
      '[::1]:8080',
      'bridge.localhost',
      'bridge.example.org',
      '8.8.8.8',
    ]) {
      expect(decoded(b64(`http://${host}/simplefin/claim/abc`), sandbox)).toContain('/simplefin/claim/abc');
    }
    expect(decoded(b64(CLAIM), sandbox)).toBe(CLAIM);
    for (const [host, why] of [
      ['169.254.169.254', /cloud metadata address/],
      ['169.254.1.1', /link-local address/],
      ['0.0.0.0', /unspecified address/],
      ['[2001:db8::1]', /reserved address/],
      ['[::ffff:a9fe:a9fe]', /cloud metadata address/],
    ] as const) {
      expect(refused(b64(`http://${host}/simplefin/claim/abc`), sandbox), host).toMatch(why);
    }
    expect(refused(b64('ftp://bridge.example.org/simplefin/claim/abc'), sandbox)).toMatch(/https:\/\//);
  });

  it('never lets a policy reason carry the claim URL or the token', () => {
    const token = b64('https://bridge.example.org/simplefin/claim/SECRETCODE123');
    const reason = refused(token, (url) => `${url.href} is blocked (${url.pathname})`);
    expect(reason).not.toContain('SECRETCODE123');
    expect(reason).not.toContain(token);
    expect(reason).toContain('[hidden]');
  });

  it('checks access URLs: credentials required, the policy applied, nothing quoted', () => {
    expect(checkBridgeUrl('https://u:p@bridge.example.org/simplefin', 'access', production).ok).toBe(true);
    const noCredentials = checkBridgeUrl('https://bridge.example.org/simplefin', 'access', production);
    expect(noCredentials).toEqual({ ok: false, reason: "The bridge's access address holds no credentials." });
    const plain = checkBridgeUrl('http://user:hunter2secret@bridge.example.org/simplefin', 'access', (url) => `refused ${url.href}`);
    expect(plain.ok).toBe(false);
    if (!plain.ok) expect(plain.reason).not.toContain('hunter2secret');
  });

  it('moves the access URL credentials into a Basic authorization header', () => {
    const { base, authorization } = splitAccessUrl(new URL('https://us%40er:p%3Ass@bridge.example.org/simplefin'));
    expect(base.href).toBe('https://bridge.example.org/simplefin');
    expect(Buffer.from(authorization.replace('Basic ', ''), 'base64').toString()).toBe('us@er:p:ss');
  });
});
