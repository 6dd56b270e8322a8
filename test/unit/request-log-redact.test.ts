import { describe, expect, it } from 'vitest';
import { BODY_CAP, bodyText, capped, headerLines, isSecretField, parseHeaderLines, redactBody } from '../../src/modules/requestlog/redact.js';

describe('what the request log keeps of bodies', () => {
  it('redacts secret JSON fields (strings, numbers, escaped quotes, any letter case) and keeps the rest', () => {
    const body = JSON.stringify({
      partnerId: '4402958127364',
      partnerSecret: 'kQ3vW0x8uY2mZp7LrT1a',
      NewPartnerSecret: 'has \\"quotes\\" inside',
      token: 12345678,
      credentials: [{ id: '102105002', name: 'Banking Password', value: 'profile_03' }],
      questions: [{ id: 'pet', answer: 'rex' }],
      signingKey: 'whsec_abc',
      urlForgotPassword: 'https://bank.example/forgot',
      code: '10001',
      nested: { userPassword: null, accessToken: true, pin: '1234' },
    });
    expect(JSON.parse(redactBody(body))).toEqual({
      partnerId: '4402958127364',
      partnerSecret: '[redacted]',
      NewPartnerSecret: '[redacted]',
      token: '[redacted]',
      credentials: [{ id: '102105002', name: 'Banking Password', value: '[redacted]' }],
      questions: [{ id: 'pet', answer: '[redacted]' }],
      signingKey: '[redacted]',
      urlForgotPassword: 'https://bank.example/forgot',
      code: '10001',
      nested: { userPassword: '[redacted]', accessToken: '[redacted]', pin: '[redacted]' },
    });
  });

  it('redacts a secret cut short by the cap, even right after an escape', () => {
    expect(redactBody('{"partnerId":"1","partnerSecret":"kQ3vW0x8')).toBe('{"partnerId":"1","partnerSecret":"[redacted]"');
    expect(redactBody('{"token":"abc\\')).toBe('{"token":"[redacted]"');
    expect(redactBody('<access><token>abcdef')).toBe('<access><token>[redacted]');
  });

  it('redacts XML elements, namespaced ones and attributes, and OFX tags that are never closed', () => {
    expect(redactBody('<credentials><partnerId>1</partnerId><partnerSecret>s3cret!</partnerSecret></credentials>')).toBe(
      '<credentials><partnerId>1</partnerId><partnerSecret>[redacted]</partnerSecret></credentials>',
    );
    expect(redactBody('<a:token xmlns:a="x">t0k</a:token><cred password="p4ss" user="u">')).toBe(
      '<a:token xmlns:a="x">[redacted]</a:token><cred password="[redacted]" user="u">',
    );
    const ofx = '<SONRQ>\n<USERID>jdoe\n<USERPASS>hunter2\n<LANGUAGE>ENG\n</SONRQ>';
    expect(redactBody(ofx)).toBe('<SONRQ>\n<USERID>jdoe\n<USERPASS>[redacted]<LANGUAGE>ENG\n</SONRQ>');
    expect(redactBody('<token></token><token/>')).toBe('<token></token><token/>');
  });

  it('redacts secret query parameters of URLs inside a body (a Connect link)', () => {
    const body = '{"link":"http://127.0.0.1:8080/connect?customerId=1005&signature=abcdef0123&timestamp=1"}';
    expect(redactBody(body)).toBe('{"link":"http://127.0.0.1:8080/connect?customerId=1005&signature=[redacted]&timestamp=1"}');
    // Without field redaction (an answer whose schema names no secret field), URLs still are.
    expect(redactBody(body, false)).toBe(redactBody(body));
    expect(redactBody('{"token":"x"}', false)).toBe('{"token":"x"}');
  });

  it('names secret fields by their whole name', () => {
    for (const name of ['partnerSecret', 'newPartnerSecret', 'password', 'token', 'signingKey', 'value', 'answer', 'USERPASS', 'pin']) {
      expect(isSecretField(name), name).toBe(true);
    }
    for (const name of ['partnerId', 'code', 'message', 'tokens', 'values', 'urlForgotPassword', 'description', 'keywords']) {
      expect(isSecretField(name), name).toBe(false);
    }
  });

  it('takes text of at most the cap, drops a character cut in two, and sees binary bodies as such', () => {
    const long = Buffer.from('é'.repeat(BODY_CAP));
    const text = bodyText(long.subarray(0, BODY_CAP + 1).subarray(0, BODY_CAP), long.length)!;
    expect(text).toBe('é'.repeat(BODY_CAP / 2));
    const odd = Buffer.concat([Buffer.from('a'), long]).subarray(0, BODY_CAP);
    expect(bodyText(odd, BODY_CAP * 2 + 1)).toBe(`a${'é'.repeat(BODY_CAP / 2 - 1)}`);
    expect(bodyText(Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01]), 6)).toBeUndefined();
    expect(bodyText(Buffer.from([0x41, 0xff, 0xfe, 0x41]), 4)).toBeUndefined();
    expect(capped('x'.repeat(BODY_CAP + 10))).toHaveLength(BODY_CAP);
  });
});

describe('what the request log keeps of headers', () => {
  it('redacts credential headers under any name, cuts long values and keeps at most 40', () => {
    const headers: Record<string, unknown> = {
      'content-type': 'application/json',
      'service-app-key': '3f9c0d6e1b2a4c8d9e7f6a5b4c3d2e1f',
      'finicity-app-token': 'tok',
      'x-partner-credential': 'c',
      authorization: 'Bearer abc',
      cookie: 'a=b',
      'mfa-session': 'sess',
      'x-custom': 'configured secret',
      accept: ['application/json', 'text/xml'],
      'user-agent': 'u'.repeat(300),
      absent: undefined,
    };
    const lines = headerLines(headers, new Set(['x-custom']));
    expect(parseHeaderLines(lines)).toEqual([
      { name: 'content-type', value: 'application/json' },
      { name: 'service-app-key', value: '[redacted]' },
      { name: 'finicity-app-token', value: '[redacted]' },
      { name: 'x-partner-credential', value: '[redacted]' },
      { name: 'authorization', value: '[redacted]' },
      { name: 'cookie', value: '[redacted]' },
      { name: 'mfa-session', value: '[redacted]' },
      { name: 'x-custom', value: '[redacted]' },
      { name: 'accept', value: 'application/json, text/xml' },
      { name: 'user-agent', value: `${'u'.repeat(256)}…` },
    ]);
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x-h${i}`, 'v']));
    expect(parseHeaderLines(headerLines(many, new Set()))).toHaveLength(40);
    expect(parseHeaderLines('')).toEqual([]);
  });
});
