import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BODY_CAP,
  bodyText,
  capped,
  headerLines,
  isHeaderMapName,
  isSecretField,
  parseHeaderLines,
  redactBody,
  redactedJson,
} from '../../src/modules/requestlog/redact.js';

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

  it('redacts the whole content of a secret XML element: CDATA sections and comments, which the parser reads as its value', () => {
    const cases: [string, string][] = [
      ['<partnerSecret><![CDATA[s3cr3t]]></partnerSecret>', '<partnerSecret>[redacted]</partnerSecret>'],
      ['<value><!---->hunter2</value>', '<value>[redacted]</value>'],
      ['<value>hun<!-- -->ter2</value>', '<value>[redacted]</value>'],
      // Close tags inside a CDATA section or a comment do not close the element.
      ['<token><![CDATA[</token>t0k3n]]></token><id>1</id>', '<token>[redacted]</token><id>1</id>'],
      ['<token><!--</token>-->t0k3n</token><id>1</id>', '<token>[redacted]</token><id>1</id>'],
      // Nor does the end tag of a same-named element inside it; elements inside are content too.
      ['<token><token>a</token>b-secret</token><id>2</id>', '<token>[redacted]</token><id>2</id>'],
      ['<partnerSecret><x>s3cr3t</x></partnerSecret>', '<partnerSecret>[redacted]</partnerSecret>'],
      ['<a:partnerSecret xmlns:a="urn:x" note="a>b">s3cr3t</a:partnerSecret >', '<a:partnerSecret xmlns:a="urn:x" note="a>b">[redacted]</a:partnerSecret >'],
      // Empty elements stay as they are.
      ['<token/><token /><token></token><id>3</id>', '<token/><token /><token></token><id>3</id>'],
    ];
    for (const [body, kept] of cases) expect(redactBody(body), body).toBe(kept);
  });

  it('redacts to the end a secret XML element left open by the cap, and an OFX element to the next tag', () => {
    expect(redactBody('<c><partnerSecret><![CDATA[s3cr', true, true)).toBe('<c><partnerSecret>[redacted]');
    expect(redactBody('<c><partnerSecret><!---->hunt', true, true)).toBe('<c><partnerSecret>[redacted]');
    expect(redactBody('<c><partnerSecret><x>s3cr3t</x><y>more', true, true)).toBe('<c><partnerSecret>[redacted]');
    expect(redactBody('<c><id>1</id><token>abc</token><d>kept', true, true)).toBe('<c><id>1</id><token>[redacted]</token><d>kept');
    // Not cut: an element never closed is an OFX one.
    expect(redactBody('<SONRQ><USERPASS><!-- x -->hunter2<LANGUAGE>ENG</SONRQ>')).toBe('<SONRQ><USERPASS>[redacted]<LANGUAGE>ENG</SONRQ>');
  });

  it('redacts everything after the point where XML holds too much markup to read', () => {
    const body = `<a>${'<token>x'.repeat(3_000)}</a><partnerId>1</partnerId>`;
    const kept = redactBody(body);
    expect(kept).not.toMatch(/<token>x/);
    expect(kept.endsWith('[redacted]')).toBe(true);
  });

  it('writes a parsed JSON body again with secret members redacted by their parsed name, whatever their value', () => {
    const parsed = JSON.parse(
      '{"p\\u0061rtnerSecret":"s3cr3t","partnerId":"1","nested":{"TOKEN":{"a":1},"pins":[1],"pin":[1,2]},"list":[{"value":null},{"answer":7}],"link":"https://x.test/c?signature=abc&id=2"}',
    );
    expect(Object.keys(parsed)[0]).toBe('partnerSecret');
    expect(JSON.parse(redactedJson(parsed))).toEqual({
      partnerSecret: '[redacted]',
      partnerId: '1',
      nested: { TOKEN: '[redacted]', pins: [1], pin: '[redacted]' },
      list: [{ value: '[redacted]' }, { answer: '[redacted]' }],
      link: 'https://x.test/c?signature=[redacted]&id=2',
    });
    expect(redactedJson([1, 'two', true, null])).toBe('[1,"two",true,null]');
    expect(redactedJson('text')).toBe('"text"');
  });

  it('writes at most the cap of a large parsed JSON body, without walking the rest', () => {
    const big = { items: Array.from({ length: 100_000 }, (_, i) => ({ id: i, token: `t${i}` })) };
    const kept = redactedJson(big);
    expect(kept.length).toBeLessThanOrEqual(BODY_CAP);
    expect(kept.length).toBeGreaterThan(BODY_CAP - 100);
    expect(kept.startsWith('{"items":[{"id":0,"token":"[redacted]"},{"id":1,')).toBe(true);
    expect(kept).not.toMatch(/"t\d+"/);
    expect(redactedJson({ s: 'y'.repeat(BODY_CAP * 4) })).toHaveLength(BODY_CAP);
  });

  it('redacts secret query parameters of URLs inside a body (a Connect link)', () => {
    const body = '{"link":"http://127.0.0.1:8080/connect?customerId=1005&signature=abcdef0123&timestamp=1"}';
    expect(redactBody(body)).toBe('{"link":"http://127.0.0.1:8080/connect?customerId=1005&signature=[redacted]&timestamp=1"}');
    // Without field redaction (an answer whose schema names no secret field), URLs still are.
    expect(redactBody(body, false)).toBe(redactBody(body));
    expect(redactBody('{"token":"x"}', false)).toBe('{"token":"x"}');
  });

  it('names secret fields by their whole name', () => {
    for (const name of [
      'partnerSecret',
      'newPartnerSecret',
      'password',
      'token',
      'signingKey',
      'value',
      'answer',
      'USERPASS',
      'pin',
      'ssn',
      'SSN',
      'consumerSsn',
      'birthday',
    ]) {
      expect(isSecretField(name), name).toBe(true);
    }
    for (const name of [
      'partnerId',
      'code',
      'message',
      'tokens',
      'values',
      'urlForgotPassword',
      'description',
      'keywords',
      'birthdays',
      'firstName',
      'dayOfMonth',
    ]) {
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

describe('header maps in bodies (webhookHeaders), redacted by default', () => {
  it('are recognised by their name: headers, or any name ending in Headers', () => {
    for (const name of ['webhookHeaders', 'headers', 'Headers', 'extraHeaders', 'webhook_headers', 'HTTP-HEADERS'])
      expect(isHeaderMapName(name), name).toBe(true);
    for (const name of ['header', 'headerRow', 'webhook', 'webhookData', 'headersSent']) expect(isHeaderMapName(name), name).toBe(false);
  });

  it('recognise every map of headers the contract has: each free-form object said to hold headers is named like one', async () => {
    const dir = new URL('../../src/contract/schemas/', import.meta.url);
    const found: string[] = [];
    const visit = (node: unknown, seen: Set<unknown>): void => {
      if (!node || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      const schema = node as { properties?: Record<string, { type?: unknown; properties?: object; additionalProperties?: unknown; description?: string }> };
      for (const [name, sub] of Object.entries(schema.properties ?? {})) {
        const map = sub.type === 'object' && (sub.additionalProperties === true || typeof sub.additionalProperties === 'object');
        if (map && /header/i.test(`${name} ${sub.description ?? ''}`)) {
          found.push(name);
          expect(isHeaderMapName(name), name).toBe(true);
        }
      }
      for (const value of Object.values(node)) visit(value, seen);
    };
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const seen = new Set<unknown>();
      for (const value of Object.values(await import(new URL(file, dir).href))) visit(value, seen);
    }
    expect(found).toContain('webhookHeaders');
  });

  it('keep their header names and lose every value, at any depth, whatever its type', () => {
    const body = {
      partnerId: '1',
      webhookHeaders: { Authorization: 'Bearer abc', 'X-Acme-Id': 'acme-secret', 'X-Count': 3, 'X-On': true, 'X-None': null },
      webhookData: { ref: 'kept', headers: { nested: { deeper: 'inner-secret' }, list: ['a-secret', 7] } },
      extraHeaders: ['Authorization: Bearer listed-secret', { name: 'X-Key', value: 'pair-secret' }],
      HEADERS: 'a blob-secret',
    };
    expect(JSON.parse(redactedJson(body))).toEqual({
      partnerId: '1',
      webhookHeaders: { Authorization: '[redacted]', 'X-Acme-Id': '[redacted]', 'X-Count': '[redacted]', 'X-On': '[redacted]', 'X-None': null },
      webhookData: { ref: 'kept', headers: { nested: { deeper: '[redacted]' }, list: ['[redacted]', '[redacted]'] } },
      extraHeaders: ['[redacted]', { name: '[redacted]', value: '[redacted]' }],
      HEADERS: '[redacted]',
    });
  });

  it('are redacted whole in JSON text (an answer cut short, or read as text), to the end when cut inside', () => {
    expect(JSON.parse(redactBody('{"a":1,"webhookHeaders":{"X-Auth":"s\\"e}cret","n":{"k":[1,"}"]}},"b":"kept"}'))).toEqual({
      a: 1,
      webhookHeaders: '[redacted]',
      b: 'kept',
    });
    expect(redactBody('{"headers":["Authorization: Bearer x"],"c":2}')).toBe('{"headers":"[redacted]","c":2}');
    expect(redactBody('{"a":1,"webhookHeaders":{"X-Auth":"sec', true, true)).toBe('{"a":1,"webhookHeaders":"[redacted]"');
    // Secret fields whose value is an object or an array are redacted whole too.
    expect(redactBody('{"token":{"v":"t0k"},"pin":[1,2],"ok":true}')).toBe('{"token":"[redacted]","pin":"[redacted]","ok":true}');
  });

  it('are redacted whole in XML, element or attribute', () => {
    expect(redactBody('<connect><customerId>1</customerId><webhookHeaders><X-Auth>s3cret</X-Auth><A>b</A></webhookHeaders></connect>')).toBe(
      '<connect><customerId>1</customerId><webhookHeaders>[redacted]</webhookHeaders></connect>',
    );
    expect(redactBody('<c><p:extraHeaders xmlns:p="u"><X>s</X></p:extraHeaders><d headers="X-Auth: s3cret" e="kept"/></c>')).toBe(
      '<c><p:extraHeaders xmlns:p="u">[redacted]</p:extraHeaders><d headers="[redacted]" e="kept"/></c>',
    );
  });
});

describe('user names and passwords of URLs in bodies', () => {
  it('are redacted in every string of a parsed JSON body, user name too, the host and the rest kept', () => {
    const body = {
      redirectUri: 'https://alice:pa55@app.example/done?ok=1',
      list: ['ftp://bob@files.example/x', 'see //carol:c4rol@h.example and https://plain.example/'],
      'https://dave:d4ve@key.example/': 'a URL as a name',
      email: 'not-a-url@example.com',
    };
    expect(JSON.parse(redactedJson(body))).toEqual({
      redirectUri: 'https://[redacted]@app.example/done?ok=1',
      list: ['ftp://[redacted]@files.example/x', 'see //[redacted]@h.example and https://plain.example/'],
      'https://[redacted]@key.example/': 'a URL as a name',
      email: 'not-a-url@example.com',
    });
  });

  it('are redacted in a string longer than the cap, even when the cap cuts the URL before its @', () => {
    const long = `${'x'.repeat(BODY_CAP - 22)} https://user:secretpass@host.example/`;
    const kept = redactedJson([long]);
    expect(kept).not.toContain('secret');
    expect(kept).toContain(' https://[redacted]');
  });

  it('are redacted in text bodies: XML as it came, JSON text without running past a string', () => {
    expect(redactBody('<connect><redirectUri>https://u:p4ss@app.example/done</redirectUri></connect>')).toBe(
      '<connect><redirectUri>https://[redacted]@app.example/done</redirectUri></connect>',
    );
    expect(redactBody('{"a":"//cdn.example","b":"x@y.example","c":"https:\\/\\/u:p\\"w@h.example\\/"}')).toBe(
      '{"a":"//cdn.example","b":"x@y.example","c":"https:\\/\\/[redacted]@h.example\\/"}',
    );
    expect(redactBody('<r>https://user:pass', true, true)).toBe('<r>https://[redacted]');
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

  it('redacts headers named like passwords, PINs and answers, however spelled', () => {
    const headers = { 'x-pwd': 'a', 'x-pin': 'b', 'x-mfa-answer': 'c', 'x-passcode': 'd', 'x-otp': 'e', 'x-user-password': 'f', 'x-pinned': 'kept' };
    expect(parseHeaderLines(headerLines(headers, new Set()))).toEqual([
      { name: 'x-pwd', value: '[redacted]' },
      { name: 'x-pin', value: '[redacted]' },
      { name: 'x-mfa-answer', value: '[redacted]' },
      { name: 'x-passcode', value: '[redacted]' },
      { name: 'x-otp', value: '[redacted]' },
      { name: 'x-user-password', value: '[redacted]' },
      { name: 'x-pinned', value: 'kept' },
    ]);
  });

  it('redacts secrets of URLs in header values: secret query parameters and the user name and password', () => {
    const headers: Record<string, unknown> = {
      referer: 'https://app.example/connect?customerId=1&signature=abc123&x=1',
      location: 'https://bank.example/cb?code=oauth-code&state=st4te&ok=1',
      'content-location': 'https://user:p@ss@files.example/a?id=1',
      forwarded: 'for=10.0.0.1;proto=https;by=//admin:hunter2@proxy.example',
      link: '<//u:pw@cdn.example/x>; rel="next", <http://me@h.example/?access_token=t0k>',
      'content-type': 'multipart/form-data; boundary=abc',
    };
    expect(parseHeaderLines(headerLines(headers, new Set()))).toEqual([
      { name: 'referer', value: 'https://app.example/connect?customerId=1&signature=[redacted]&x=1' },
      { name: 'location', value: 'https://bank.example/cb?code=[redacted]&state=[redacted]&ok=1' },
      { name: 'content-location', value: 'https://[redacted]@files.example/a?id=1' },
      { name: 'forwarded', value: 'for=10.0.0.1;proto=https;by=//[redacted]@proxy.example' },
      { name: 'link', value: '<//[redacted]@cdn.example/x>; rel="next", <http://[redacted]@h.example/?access_token=[redacted]>' },
      { name: 'content-type', value: 'multipart/form-data; boundary=abc' },
    ]);
  });
});
