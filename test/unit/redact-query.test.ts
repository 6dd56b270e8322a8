import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { redactedLogger } from '../../src/platform/logger.js';
import { redactQuerySecrets, redactUrlSecrets } from '../../src/platform/redact-query.js';

describe('redacting secrets in query strings', () => {
  it.each([
    ['/connect?customerId=1&signature=abc&timestamp=2', '/connect?customerId=1&signature=[redacted]&timestamp=2'],
    ['/x?Access_Token=abc;client_secret=def', '/x?Access_Token=[redacted];client_secret=[redacted]'],
    ['/cb?code=abc&state=def&error=none', '/cb?code=[redacted]&state=[redacted]&error=none'],
    ['/l?txpush_verification_code=abc', '/l?txpush_verification_code=[redacted]'],
    ['/x?%73ignature=abc', '/x?%73ignature=[redacted]'],
    ['/x?appKey=abc&partnerSecret=def&sig=ghi', '/x?appKey=[redacted]&partnerSecret=[redacted]&sig=[redacted]'],
    ['/x?search=token&limit=5', '/x?search=token&limit=5'],
    ['/x?pwd=a&pass=b&pin=c&answer=d&id=1', '/x?pwd=[redacted]&pass=[redacted]&pin=[redacted]&answer=[redacted]&id=1'],
    ['/x?password%00=a&token[]=b&user[password]=c', '/x?password%00=[redacted]&token[]=[redacted]&user[password]=[redacted]'],
    ['/x?Pass%77ord=a&mfa_answer=b&passport=kept', '/x?Pass%77ord=[redacted]&mfa_answer=[redacted]&passport=kept'],
    ['/no/query', '/no/query'],
    ['Route GET:/connect?signature=abc not found', 'Route GET:/connect?signature=[redacted] not found'],
  ])('%s becomes %s', (input, output) => {
    expect(redactQuerySecrets(input)).toBe(output);
  });

  it('keeps a JSON log line well formed when a secret holds an escaped quote', () => {
    const line = JSON.stringify({ url: '/x?token=a"b\\c&d=1' });
    const redacted = redactQuerySecrets(line);
    expect(JSON.parse(redacted)).toEqual({ url: '/x?token=[redacted]&d=1' });
  });
});

describe('redacting the token of a SimpleFIN claim URL', () => {
  it.each([
    ['/simplefin/claim/AbC123xyz', '/simplefin/claim/[redacted]'],
    ['https://l.example/simplefin/claim/AbC123xyz?x=1', 'https://l.example/simplefin/claim/[redacted]?x=1'],
    ['{"claimUrl":"https://l.example/simplefin/claim/AbC123xyz"}', '{"claimUrl":"https://l.example/simplefin/claim/[redacted]"}'],
    ['POST /simplefin/claim/AbC123xyz answered 403', 'POST /simplefin/claim/[redacted] answered 403'],
    ['/simplefin/accounts', '/simplefin/accounts'],
  ])('%s becomes %s', (input, output) => {
    expect(redactUrlSecrets(input)).toBe(output);
  });
});

describe('redacting user names and passwords of URLs', () => {
  it('replaces them before the host, user name included, and redacts secret query parameters as well', () => {
    expect(redactUrlSecrets('/cb?next=https://alice:s3cret@app.example/x&pwd=p')).toBe('/cb?next=https://[redacted]@app.example/x&pwd=[redacted]');
    expect(redactUrlSecrets('go to //bob@h.example/ or mailto:carol@example.com')).toBe('go to //[redacted]@h.example/ or mailto:carol@example.com');
  });

  it('keeps a JSON log line well formed: never looks past the string a URL is in', () => {
    const line = JSON.stringify({ a: '//cdn.example', b: 'x@y.example', url: '/x?next=https://u:p"w\\d@h.example/' });
    const redacted = redactUrlSecrets(line, { json: true });
    expect(JSON.parse(redacted)).toEqual({ a: '//cdn.example', b: 'x@y.example', url: '/x?next=https://[redacted]@h.example/' });
  });
});

describe("the service log's lines", () => {
  it('redact every value of a header map, whatever the header is named, and the secrets of URLs', () => {
    let text = '';
    const logger = redactedLogger(
      'info',
      new Writable({
        write(chunk, _encoding, done) {
          text += String(chunk);
          done();
        },
      }),
    );
    logger.info({ headers: { 'x-pwd': 'secret-1', 'x-acme': 'secret-2' } }, 'a');
    logger.info({ err: { message: 'failed', headers: { 'x-pin': 'secret-3' } }, delivery: { webhookHeaders: { a: 'secret-4' } } }, 'b');
    logger.info({ req: { method: 'GET', url: '/x?pin=secret-5&next=https://secret-6:secret-7@h.example/' } }, 'c');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].headers).toEqual({ 'x-pwd': '[redacted]', 'x-acme': '[redacted]' });
    expect(lines[1].err.headers).toEqual({ 'x-pin': '[redacted]' });
    expect(lines[1].delivery.webhookHeaders).toEqual({ a: '[redacted]' });
    expect(lines[2].req.url).toBe('/x?pin=[redacted]&next=https://[redacted]@h.example/');
    expect(text).not.toMatch(/secret-\d/);
  });
});
