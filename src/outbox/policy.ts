import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { classifyAddress, type AddressClass } from '../platform/ip.js';
import { isTestInstitution } from '../connectors/testbank/institutions.js';

/**
 * The outbound target policy: which addresses Ledgerlink may connect to when it calls a partner's listener.
 * It guards against server-side request forgery (a listener URL pointing into the operator's network).
 */
export type PolicyMode = 'sandbox' | 'production';

export { classifyAddress, type AddressClass };

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

/**
 * A `lookup` for node:http / node:net that resolves the name and applies the policy to the resolved addresses,
 * at connect time, so a name that resolves differently later (DNS rebinding) cannot slip past a check made earlier.
 * Refused addresses are dropped; when none is left the connection fails with TargetRefusedError.
 */
export function policyLookup(mode: PolicyMode, resolve: typeof dns.lookup = dns.lookup): LookupFunction {
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

/** The listener rules of the interface: which schemes and ports a partner's listener URL may use. */
export interface ListenerUrlRules {
  /** http is allowed only for test-institution accounts of Test Drive partners (see allowsPlainHttp). */
  allowHttp: boolean;
  /** Sandbox development ports allowed besides 80 and 443 (config.pushExtraPorts). */
  extraPorts: readonly number[];
}

/** Whether a listener for this account may use plain http: a test institution's account on the Test Drive plan. */
export function allowsPlainHttp(input: { plan: 'testdrive' | 'production'; institutionId: number }): boolean {
  return input.plan === 'testdrive' && isTestInstitution(input.institutionId);
}

/** Which listener rule a URL breaks: its form (not an http(s) URL, credentials), its scheme (https required) or its port. */
export type ListenerRule = 'url' | 'https' | 'port';

export interface ListenerUrlProblem {
  rule: ListenerRule;
  /** Why, in words a partner can act on. */
  reason: string;
}

/**
 * The rule a listener URL breaks (https, or http where allowed; ports 80 and 443 only, plus the configured sandbox
 * ports; no credentials in the URL) and why, or undefined when it is acceptable.
 */
export function listenerUrlProblem(value: string, rules: ListenerUrlRules): ListenerUrlProblem | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { rule: 'url', reason: 'it is not a URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { rule: 'url', reason: 'it must be an https URL' };
  if (url.protocol === 'http:' && !rules.allowHttp)
    return { rule: 'https', reason: 'it must use https (http is only for test institution accounts on the Test Drive plan)' };
  if (url.username || url.password) return { rule: 'url', reason: 'it must not contain credentials' };
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const standard = url.protocol === 'https:' ? 443 : 80;
  if (port !== standard && !rules.extraPorts.includes(port))
    return { rule: 'port', reason: `only port ${standard} is allowed for ${url.protocol.slice(0, -1)} (got ${port})` };
  return undefined;
}

/** Why a listener URL breaks the interface's rules (see listenerUrlProblem), or undefined when it is acceptable. */
export function listenerUrlViolation(value: string, rules: ListenerUrlRules): string | undefined {
  return listenerUrlProblem(value, rules)?.reason;
}
