import type dns from 'node:dns';
import { describe, expect, it } from 'vitest';
import { addressRefusal, classifyAddress, listenerUrlViolation, policyLookup, TargetRefusedError } from '../../src/outbox/policy.js';
import { allowsPlainHttp } from '../../src/modules/txpush/service.js';
import { TEST_BANK_ID } from '../../src/connectors/testbank/institutions.js';
import { classifyPeerAddress } from '../../src/platform/ip.js';

describe('the outbound target policy', () => {
  it.each([
    ['93.184.216.34', 'public'],
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fc00::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2001:db8::1', 'reserved'],
    // IPv6 forms that reach IPv4 hosts are judged by the IPv4 address they carry.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:7f00:1::', 'loopback'],
    ['::127.0.0.1', 'loopback'],
  ])('classifies %s as %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  // Security review (issue 17, item 13): these forms were all classified as public.
  it.each([
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:a9fe:a9fe', 'metadata'],
    ['::ffff:0:8.8.8.8', 'public'],
    ['::10.0.0.1', 'private'],
    ['64:ff9b::10.1.2.3', 'private'],
    ['64:ff9b:1::7f00:1', 'loopback'],
    ['64:ff9b:1::a9fe:a9fe', 'metadata'],
    ['64:ff9b:1:a9fe:a9:fe00::', 'metadata'],
    ['64:ff9b:1:0:7f:0:100:0', 'loopback'],
    ['64:ff9b:1::808:808', 'public'],
    ['64:ff9b:1:abcd:ef00:0:808:808', 'public'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['2001:0:808:808::80ff:fffe', 'loopback'],
    ['2001:0:a9fe:a9fe::f7f7:fbfb', 'metadata'],
    ['2001:0:808:808::f7f7:fbfb', 'public'],
  ])('judges %s by the IPv4 addresses it may lead to: %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });

  it('refuses IPv4-translated, local-use NAT64 and Teredo addresses of private hosts in production mode', () => {
    for (const ip of ['::ffff:0:10.0.0.1', '64:ff9b:1::a00:1', '64:ff9b:1:0:7f:0:100:0', '2001:0:808:808::f5ff:fffe']) {
      expect(addressRefusal(ip, 'production'), ip).toMatch(/refuses in production mode/);
    }
    expect(addressRefusal('64:ff9b:1:a9fe:a9:fe00::', 'sandbox')).toMatch(/cloud metadata address/);
  });

  it('unwraps only IPv4-mapped addresses when classifying a caller, so a NAT64, 6to4 or Teredo peer never counts as local', () => {
    expect(classifyPeerAddress('::ffff:127.0.0.1')).toBe('loopback');
    expect(classifyPeerAddress('::ffff:10.0.0.1')).toBe('private');
    expect(classifyPeerAddress('::1')).toBe('loopback');
    expect(classifyPeerAddress('[fe80::1%eth0]')).toBe('link-local');
    for (const ip of ['2002:7f00:1::', '::127.0.0.1', '64:ff9b::a00:1', '64:ff9b:1::7f00:1', '2001:0:808:808::80ff:fffe']) {
      expect(classifyPeerAddress(ip), ip).toBe('public');
    }
  });

  it('refuses everything but public addresses in production mode', () => {
    for (const ip of ['127.0.0.1', '::1', '10.0.0.1', '192.168.0.10', 'fd00::1', '169.254.169.254', 'fe80::1', '0.0.0.0', '224.0.0.1', '::ffff:127.0.0.1']) {
      expect(addressRefusal(ip, 'production'), ip).toMatch(/refuses in production mode/);
    }
    expect(addressRefusal('8.8.8.8', 'production')).toBeUndefined();
    expect(addressRefusal('2606:4700:4700::1111', 'production')).toBeUndefined();
  });

  it('allows loopback and private addresses in sandbox mode, never link-local or metadata ones', () => {
    for (const ip of ['127.0.0.1', '::1', '10.0.0.1', '192.168.0.10', 'fd00::1', '::ffff:127.0.0.1', '8.8.8.8']) {
      expect(addressRefusal(ip, 'sandbox'), ip).toBeUndefined();
    }
    for (const ip of ['169.254.169.254', 'fd00:ec2::254', '169.254.10.1', 'fe80::1', '0.0.0.0', '224.0.0.1', '::ffff:169.254.169.254']) {
      expect(addressRefusal(ip, 'sandbox'), ip).toMatch(/refuses in sandbox mode/);
    }
    expect(addressRefusal('169.254.169.254', 'sandbox')).toMatch(/cloud metadata address/);
  });

  it('refuses something that is not an address', () => {
    expect(addressRefusal('example.com', 'sandbox')).toMatch(/not an IP address/);
  });

  describe('the connect-time lookup', () => {
    /** A resolver answering from a fixed table, as dns.lookup would with { all: true }. */
    const resolver = (table: Record<string, dns.LookupAddress[]>) =>
      ((hostname: string, _options: unknown, callback: (e: Error | null, a: dns.LookupAddress[]) => void) => {
        const found = table[hostname];
        if (!found) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
        callback(null, found);
      }) as unknown as typeof dns.lookup;
    const table = {
      'listener.example': [{ address: '93.184.216.34', family: 4 }],
      'rebind.example': [{ address: '127.0.0.1', family: 4 }],
      'mixed.example': [
        { address: '10.0.0.5', family: 4 },
        { address: '93.184.216.35', family: 4 },
      ],
      'metadata.example': [{ address: '169.254.169.254', family: 4 }],
    };
    const lookup = (mode: 'sandbox' | 'production', host: string, all: boolean) =>
      new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) =>
        policyLookup(mode, resolver(table))(host, { all }, (err, address, family) => resolve({ err, address, family })),
      );

    it('passes a public address through', async () => {
      expect(await lookup('production', 'listener.example', false)).toMatchObject({ err: null, address: '93.184.216.34', family: 4 });
      expect((await lookup('production', 'listener.example', true)).address).toEqual([{ address: '93.184.216.34', family: 4 }]);
    });

    it('refuses a name that resolves to a loopback address in production, with the reason', async () => {
      const { err } = await lookup('production', 'rebind.example', false);
      expect(err).toBeInstanceOf(TargetRefusedError);
      expect(err!.message).toBe('rebind.example: 127.0.0.1 is a loopback address, which the outbound target policy refuses in production mode');
      expect((await lookup('sandbox', 'rebind.example', false)).err).toBeNull();
    });

    it('drops refused addresses and connects only to allowed ones', async () => {
      expect(await lookup('production', 'mixed.example', false)).toMatchObject({ err: null, address: '93.184.216.35' });
      expect((await lookup('production', 'mixed.example', true)).address).toEqual([{ address: '93.184.216.35', family: 4 }]);
    });

    it('refuses the metadata address in sandbox mode too, and passes resolution errors on', async () => {
      expect((await lookup('sandbox', 'metadata.example', false)).err).toBeInstanceOf(TargetRefusedError);
      expect((await lookup('sandbox', 'nowhere.example', false)).err!.message).toMatch(/ENOTFOUND/);
    });
  });
});

describe('listener URL rules', () => {
  const strict = { allowHttp: false, extraPorts: [] };
  it.each([
    ['https://listener.example/push', strict, undefined],
    ['https://listener.example:443/push', strict, undefined],
    ['http://listener.example/push', strict, /must use https/],
    ['http://listener.example/push', { allowHttp: true, extraPorts: [] }, undefined],
    ['http://listener.example:443/push', { allowHttp: true, extraPorts: [] }, /only port 80 is allowed for http \(got 443\)/],
    ['https://listener.example:8443/push', strict, /only port 443 is allowed for https \(got 8443\)/],
    ['https://listener.example:8443/push', { allowHttp: false, extraPorts: [8443] }, undefined],
    ['https://user:pw@listener.example/push', strict, /credentials/],
    ['ftp://listener.example/push', strict, /must be an https URL/],
    ['not a url', strict, /not a URL/],
  ])('%s with %o', (url, rules, expected) => {
    const violation = listenerUrlViolation(url, rules);
    if (expected === undefined) expect(violation).toBeUndefined();
    else expect(violation).toMatch(expected);
  });

  it('allows plain http only for test-institution accounts on the Test Drive plan', () => {
    expect(allowsPlainHttp({ plan: 'testdrive', institutionId: TEST_BANK_ID })).toBe(true);
    expect(allowsPlainHttp({ plan: 'production', institutionId: TEST_BANK_ID })).toBe(false);
    expect(allowsPlainHttp({ plan: 'testdrive', institutionId: 5 })).toBe(false);
  });
});
