/**
 * Kept-alive connections under the outbound target policy: one pool per origin (scheme, host, port), at most
 * `maxSocketsPerOrigin` open at once, idle ones closed after `idleMs`. Every new connection resolves its name
 * through policyLookup when it is made, so a name that now resolves to a refused address gets no new connection; a
 * connection already open stays with the address that was checked when it was opened. IP literals are not looked
 * up by Node: callers check them with literalHostRefusal before each request, as without keep-alive.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type PolicyMode, policyLookup, type Resolver } from './outbound.js';

/** Idle connections close after this long: shorter than servers' usual idle timeout, so they rarely close one first. */
export const DEFAULT_IDLE_MS = 4000;

export interface PolicyAgentOptions {
  mode: PolicyMode;
  /** Connections open at once to one origin; further requests to it wait for one to be free. */
  maxSocketsPerOrigin: number;
  idleMs?: number;
  /** Stands for DNS (tests). */
  resolve?: Resolver;
}

export interface PolicyAgents {
  http: http.Agent;
  https: https.Agent;
  /** The policy's lookup, for a request that must not reuse a connection. */
  lookup: LookupFunction;
  /** Closes every connection, idle or not. */
  destroy(): void;
}

export function createPolicyAgents(options: PolicyAgentOptions): PolicyAgents {
  const lookup = policyLookup(options.mode, options.resolve);
  const common = {
    keepAlive: true,
    maxSockets: options.maxSocketsPerOrigin,
    maxFreeSockets: options.maxSocketsPerOrigin,
    // The most recently used connection first, so a quiet period lets the others reach their idle timeout.
    scheduling: 'lifo' as const,
    timeout: options.idleMs ?? DEFAULT_IDLE_MS,
    lookup,
  };
  const httpAgent = new http.Agent(common);
  const httpsAgent = new https.Agent({ ...common, minVersion: 'TLSv1.2' });
  return {
    http: httpAgent,
    https: httpsAgent,
    lookup,
    destroy() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
