/**
 * The outbound target policy: which addresses Ledgerlink may connect to when it calls out (partners' listeners,
 * institutions' servers, SimpleFIN bridges). It guards against server-side request forgery: a URL someone else
 * chose pointing into the operator's network or at a cloud metadata service.
 *
 * Production mode connects to public addresses only; sandbox mode also to loopback and private ones (local test
 * servers). Metadata, link-local, unspecified, multicast and reserved addresses are refused in both. The check is
 * made on the resolved address when the connection is made (policyLookup), and on IP literals before connecting
 * (literalHostRefusal), since Node does not call `lookup` for them.
 */
import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { type AddressClass, classifyAddress } from '../ip.js';

export type PolicyMode = 'sandbox' | 'production';

export { type AddressClass, classifyAddress };

const SANDBOX_ALLOWS: ReadonlySet<AddressClass> = new Set(['public', 'loopback', 'private']);

/** Why the policy refuses to connect to this address in this mode, or undefined when it may. */
export function addressRefusal(ip: string, mode: PolicyMode): string | undefined {
  let cls: AddressClass;
  try {
    cls = classifyAddress(ip);
  } catch {
    return `${ip} is not an IP address`;
  }
  if (cls === 'public' || (mode === 'sandbox' && SANDBOX_ALLOWS.has(cls))) return undefined;
  const what = cls === 'metadata' ? 'a cloud metadata address' : `a ${cls} address`;
  return `${ip} is ${what}, which the outbound target policy refuses in ${mode} mode`;
}

/** The error a refused connection fails with; its message says which address and why. */
export class TargetRefusedError extends Error {
  readonly code = 'ETARGETREFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

/** A resolver with the signature of dns.lookup (tests pass their own to stand for DNS). */
export type Resolver = typeof dns.lookup;

/**
 * A `lookup` for node:http / node:net that resolves the name and applies the policy to the resolved addresses,
 * at connect time, so a name that resolves differently later (DNS rebinding) cannot slip past a check made earlier.
 * Refused addresses are dropped; when none is left the connection fails with TargetRefusedError.
 */
export function policyLookup(mode: PolicyMode, resolve: Resolver = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const allowed = list.filter((a) => addressRefusal(a.address, mode) === undefined);
      if (allowed.length === 0) {
        const reason = list.length > 0 ? addressRefusal(list[0]!.address, mode)! : `${hostname} has no address`;
        return callback(new TargetRefusedError(`${hostname}: ${reason}`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

/**
 * Checks a URL's host before connecting: an IP literal is checked here (Node does not call `lookup` for one);
 * a name is checked by policyLookup when the connection is made. Returns why it is refused, or undefined.
 */
export function literalHostRefusal(url: URL, mode: PolicyMode): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return net.isIP(host) ? addressRefusal(host, mode) : undefined;
}

/** Names that mean this machine whatever DNS says (RFC 6761), so production refuses them before any lookup. */
function isLoopbackName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost');
}

/**
 * Why a server URL an institution connector would call is refused, or undefined: it must be an http(s) URL,
 * https in production mode (plain http only in sandbox mode), and a host the address policy allows in that mode as
 * far as the URL itself tells (IP literals, `localhost`). Names are checked again on their resolved addresses when
 * the connection is made. The same check guards what operators store (`institutions add-ofx`) and what the
 * connectors' transport sends, so the two cannot disagree.
 */
export function serverUrlProblem(value: string | URL, mode: PolicyMode): string | undefined {
  let url: URL;
  try {
    url = typeof value === 'string' ? new URL(value) : value;
  } catch {
    return 'it is not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'only https addresses are allowed (or http in sandbox mode)';
  if (url.protocol === 'http:' && mode === 'production') return 'only https addresses are allowed in production mode (plain http is for sandbox mode)';
  if (mode === 'production' && isLoopbackName(url.hostname))
    return `${url.hostname} is this machine, which the outbound target policy refuses in production mode`;
  return literalHostRefusal(url, mode);
}
