import net from 'node:net';

/** What kind of address an IP is, as far as the policy cares. */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved';

const RANGES: ReadonlyArray<readonly [AddressClass, 'ipv4' | 'ipv6', string, number]> = [
  // Cloud instance metadata services (checked first: some sit inside ranges sandbox mode allows).
  ['metadata', 'ipv4', '169.254.169.254', 32],
  ['metadata', 'ipv4', '169.254.170.2', 32],
  ['metadata', 'ipv4', '100.100.100.200', 32],
  ['metadata', 'ipv6', 'fd00:ec2::254', 128],
  ['unspecified', 'ipv4', '0.0.0.0', 8],
  ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['loopback', 'ipv6', '::1', 128],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['private', 'ipv4', '100.64.0.0', 10],
  ['private', 'ipv6', 'fc00::', 7],
  ['link-local', 'ipv4', '169.254.0.0', 16],
  ['link-local', 'ipv6', 'fe80::', 10],
  ['multicast', 'ipv4', '224.0.0.0', 4],
  ['multicast', 'ipv6', 'ff00::', 8],
  // IETF protocol assignments, documentation, benchmarking, future use and broadcast.
  ['reserved', 'ipv4', '192.0.0.0', 24],
  ['reserved', 'ipv4', '192.0.2.0', 24],
  ['reserved', 'ipv4', '198.18.0.0', 15],
  ['reserved', 'ipv4', '198.51.100.0', 24],
  ['reserved', 'ipv4', '203.0.113.0', 24],
  ['reserved', 'ipv4', '240.0.0.0', 4],
  ['reserved', 'ipv6', '2001:db8::', 32],
  ['reserved', 'ipv6', '100::', 64],
];

const LISTS = new Map<AddressClass, net.BlockList>();
for (const [cls, family, address, prefix] of RANGES) {
  let list = LISTS.get(cls);
  if (!list) LISTS.set(cls, (list = new net.BlockList()));
  list.addSubnet(address, prefix, family);
}

/** Expands an IPv6 address to its eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  let text = address;
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  return tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach IPv4 hosts: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
 */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (zeros(6) && (g[6]! !== 0 || g[7]! > 1)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return undefined;
}

/** Classifies an IP address (v4 or v6, with or without brackets or zone id). Throws on something that is not an IP. */
export function classifyAddress(ip: string): AddressClass {
  const address = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(address);
  if (family === 0) throw new Error(`"${ip}" is not an IP address`);
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== undefined) return classifyAddress(v4);
  }
  for (const [cls, list] of LISTS) {
    if (list.check(address, family === 4 ? 'ipv4' : 'ipv6')) return cls;
  }
  return 'public';
}

