/**
 * The outbound target policy (which addresses may be contacted) lives in the platform, shared with the institution
 * connectors; what is here is the listener side of it: which URLs a partner may register.
 */
export {
  type AddressClass,
  addressRefusal,
  classifyAddress,
  literalHostRefusal,
  type PolicyMode,
  policyLookup,
  TargetRefusedError,
} from '../platform/net/outbound.js';

/** The listener rules of the interface: which schemes and ports a partner's listener URL may use. */
export interface ListenerUrlRules {
  /** http is allowed only for test-institution accounts of Test Drive partners (TxPUSH's allowsPlainHttp). */
  allowHttp: boolean;
  /** Sandbox development ports allowed besides 80 and 443 (config.pushExtraPorts). */
  extraPorts: readonly number[];
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
