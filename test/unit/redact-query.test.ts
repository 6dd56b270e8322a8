import { describe, expect, it } from 'vitest';
import { redactQuerySecrets } from '../../src/platform/redact-query.js';

describe('redacting secrets in query strings', () => {
  it.each([
    ['/connect?customerId=1&signature=abc&timestamp=2', '/connect?customerId=1&signature=[redacted]&timestamp=2'],
    ['/x?Access_Token=abc;client_secret=def', '/x?Access_Token=[redacted];client_secret=[redacted]'],
    ['/cb?code=abc&state=def&error=none', '/cb?code=[redacted]&state=[redacted]&error=none'],
    ['/l?txpush_verification_code=abc', '/l?txpush_verification_code=[redacted]'],
    ['/x?%73ignature=abc', '/x?%73ignature=[redacted]'],
    ['/x?appKey=abc&partnerSecret=def&sig=ghi', '/x?appKey=[redacted]&partnerSecret=[redacted]&sig=[redacted]'],
    ['/x?search=token&limit=5', '/x?search=token&limit=5'],
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
