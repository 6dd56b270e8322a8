import type { FastifyInstance } from 'fastify';
import { createRequire } from 'node:module';
import type geoipModule from 'geoip-country';
import { ServiceError } from '../../contract/errors/service-error.js';
import { classifyPeerAddress } from '../../platform/ip.js';
import { sha256Hex } from '../../platform/secrets.js';
import type { Runtime } from '../../platform/dependencies.js';
import { RateLimiter } from '../rate-limiter.js';
import { appKeyOf } from './auth.js';

/** The HSTS policy of every HTTPS answer (client-error.ts writes it into the raw answers Fastify never sees). */
export const HSTS = 'max-age=31536000; includeSubDomains';

interface CallerAddress {
  loopback: boolean;
  /** This machine or a private network: always allowed by the region policy. */
  local: boolean;
  country: string | undefined;
}

const MAX_REMEMBERED = 10_000;
const remembered = new Map<string, CallerAddress>();

/** What the rules need to know about a caller's address, remembered per address (classification and lookup cost microseconds). */
function callerAddress(ip: string): CallerAddress {
  let info = remembered.get(ip);
  if (!info) {
    const c = classifyPeerAddress(ip);
    const local = c === 'loopback' || c === 'private' || c === 'link-local' || c === 'metadata';
    info = { loopback: c === 'loopback', local, country: local ? undefined : countryOf(ip) };
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
    remembered.set(ip, info);
  }
  return info;
}

let geoip: typeof geoipModule | undefined;

/**
 * The country of a public address, or undefined when the database does not know it. The country database (about
 * 20 MB in memory) loads on the first public address, so a service reached only from this machine or a private
 * network never holds it.
 */
export function countryOf(ip: string): string | undefined {
  geoip ??= createRequire(import.meta.url)('geoip-country') as typeof geoipModule;
  return geoip.lookup(ip)?.country;
}

/** HTTPS answers carry HSTS; plain HTTP is still answered (the health check, for probes that speak only HTTP). */
export function sendHsts(scope: FastifyInstance): void {
  scope.addHook('onRequest', (request, reply, done) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
}

/**
 * Plain HTTP is accepted only from loopback (or through a trusted proxy that terminated TLS); HTTPS answers carry
 * HSTS, through sendHsts (the one place the header is set), whose hook this adds to the scope first.
 */
export function requireTls(scope: FastifyInstance, runtime: Runtime): void {
  const { insecureHttp } = runtime.config;
  sendHsts(scope);
  scope.addHook('onRequest', (request, _reply, done) => {
    if (request.protocol !== 'https' && !insecureHttp && !callerAddress(request.ip).loopback) {
      throw new ServiceError(
        'TlsRequired',
        'TLS 1.2 or higher is required: use https:// (plain HTTP is accepted only from loopback, or through a proxy trusted with --trust-proxy that terminated TLS)',
      );
    }
    done();
  });
}

/** API callers from outside this machine and its private networks must come from a permitted country, when a list is set. */
export function checkRegion(scope: FastifyInstance, runtime: Runtime): void {
  const allowed = new Set(runtime.config.allowedCountries);
  if (allowed.size === 0) return;
  scope.addHook('onRequest', (request, _reply, done) => {
    const caller = callerAddress(request.ip);
    if (!caller.local && (!caller.country || !allowed.has(caller.country))) {
      const country = caller.country;
      throw new ServiceError(
        'RegionNotPermitted',
        `Requests from ${country ? `country ${country}` : 'an unknown location'} (${request.ip}) are not permitted; permitted: ${[...allowed].join(', ')}`,
      );
    }
    done();
  });
}

/**
 * The limits on authentication attempts, per client address and per app key, that partner authentication and
 * dashboard sign-in share: one budget, whichever door a guesser uses.
 */
export class AuthenticationLimits {
  private readonly perIp: RateLimiter;
  private readonly perKey: RateLimiter;

  constructor(private readonly runtime: Runtime) {
    this.perIp = new RateLimiter(runtime.config.authRateLimitPerIp, 60_000);
    this.perKey = new RateLimiter(runtime.config.authRateLimitPerAppKey, 60_000);
  }

  /** Counts the routes of this scope against the limits; over them, 429 with Retry-After. */
  apply(scope: FastifyInstance): void {
    scope.addHook('onRequest', (request, _reply, done) => {
      const now = this.runtime.clock.now();
      // The key exactly as authentication reads it, whichever header (Service-App-Key or an alias) carried it.
      const appKey = appKeyOf(request, this.runtime);
      const waits = [this.perIp.hit(`ip:${request.ip}`, now), appKey !== undefined ? this.perKey.hit(`key:${sha256Hex(appKey)}`, now) : 0];
      const wait = Math.max(...waits);
      if (wait > 0) throw new ServiceError('RateLimited', `Too many authentication attempts; retry in ${wait} s`, { 'retry-after': String(wait) });
      done();
    });
  }
}
