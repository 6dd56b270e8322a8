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

/** The sixteen bytes of an IPv6 address given as eight groups. */
const bytesOf = (g: readonly number[]) => g.flatMap((x) => [x >> 8, x & 255]);
const dotted = (bytes: readonly number[]) => bytes.join('.');

/**
 * The IPv4 addresses an IPv6 address may lead to, for the forms that carry one: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-translated (::ffff:0:a.b.c.d, RFC 2765), IPv4-compatible (::a.b.c.d), NAT64 with the well-known prefix
 * (64:ff9b::/96) or the local-use one (64:ff9b:1::/48, RFC 8215), 6to4 (2002::/16) and Teredo (2001::/32).
 */
function embeddedIpv4s(g: readonly number[]): string[] {
  const b = bytesOf(g);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const last32 = dotted(b.slice(12));
  if (zeros(0, 5) && g[5] === 0xffff) return [last32];
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return [last32];
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return [last32];
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return [last32];
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return localNat64Ipv4s(b);
  if (g[0] === 0x2002) return [dotted(b.slice(2, 6))];
  // Teredo: the server, and the client (where relays send), whose address is stored with every bit inverted.
  if (g[0] === 0x2001 && g[1] === 0) return [dotted(b.slice(4, 8)), dotted(b.slice(12).map((x) => x ^ 255))];
  return [];
}

/** Where RFC 6052 puts the IPv4 address for the prefix lengths that fit inside 64:ff9b:1::/48. */
const NAT64_LAYOUTS: ReadonlyArray<{ v4: readonly number[]; suffixFrom: number }> = [
  { v4: [6, 7, 9, 10], suffixFrom: 11 }, // /48
  { v4: [7, 9, 10, 11], suffixFrom: 12 }, // /56
  { v4: [9, 10, 11, 12], suffixFrom: 13 }, // /64
];

/**
 * Each network carves the local-use NAT64 prefix into translator prefixes of its own length, unknown here, so every
 * reading the address allows counts: the /96 one always, the shorter ones when byte 8 and the bytes after the
 * IPv4 address are zero, as RFC 6052 requires of them.
 */
function localNat64Ipv4s(b: readonly number[]): string[] {
  const out = [dotted(b.slice(12))];
  if (b[8] !== 0) return out;
  for (const { v4, suffixFrom } of NAT64_LAYOUTS) {
    if (b.slice(suffixFrom).every((x) => x === 0)) out.push(dotted(v4.map((i) => b[i]!)));
  }
  return out;
}

/** Which classes the policy refuses most readily first: an address that may lead to several gets the first. */
const SEVERITY: readonly AddressClass[] = ['metadata', 'link-local', 'unspecified', 'multicast', 'reserved', 'loopback', 'private', 'public'];

function classifyOwn(address: string, family: number): AddressClass {
  for (const [cls, list] of LISTS) {
    if (list.check(address, family === 4 ? 'ipv4' : 'ipv6')) return cls;
  }
  return 'public';
}

function parse(ip: string): { address: string; family: number } {
  const address = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(address);
  if (family === 0) throw new Error(`"${ip}" is not an IP address`);
  return { address, family };
}

/**
 * Classifies an address Ledgerlink would connect to (v4 or v6, with or without brackets or zone id). An IPv6 address
 * that leads to IPv4 hosts is judged by the IPv4 addresses it may lead to as well, and gets the most restrictive
 * class of them all. Throws on something that is not an IP.
 */
export function classifyAddress(ip: string): AddressClass {
  const { address, family } = parse(ip);
  const own = classifyOwn(address, family);
  if (family === 4) return own;
  const classes = [own, ...embeddedIpv4s(ipv6Groups(address)).map((v4) => classifyOwn(v4, 4))];
  return SEVERITY.find((cls) => classes.includes(cls))!;
}

/**
 * Classifies the address a connection came from. Only the IPv4-mapped form is unwrapped: that is how a dual-stack
 * socket reports an IPv4 peer, whereas a peer with a NAT64, 6to4 or Teredo address is not on this machine or its
 * network, whatever IPv4 address its bits spell.
 */
export function classifyPeerAddress(ip: string): AddressClass {
  const { address, family } = parse(ip);
  if (family === 6) {
    const g = ipv6Groups(address);
    if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return classifyOwn(dotted(bytesOf(g).slice(12)), 4);
  }
  return classifyOwn(address, family);
}
