import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createRequire } from 'node:module';
import type geoipModule from 'geoip-country';
import { ServiceError } from '../../contract/errors/service-error.js';
import { classifyPeerAddress } from '../../platform/ip.js';
import { sha256Hex } from '../../platform/secrets.js';
import type { Runtime } from '../../platform/dependencies.js';
import { addRouteHook } from '../route-hooks.js';
import { RateLimiter } from '../rate-limiter.js';
import { appKeyOf } from './auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'auth': counts against the partner-authentication limits (per IP and per app key). */
    rateLimit?: 'auth';
  }
}

const HSTS = 'max-age=31536000; includeSubDomains';

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

/**
 * Transport rules before anything else: TLS (plain HTTP only from loopback or behind a trusted proxy that
 * terminated TLS), HSTS, permitted regions for API callers, and rate limits on partner authentication.
 */
export const transportPlugin = fp(
  async (app: FastifyInstance, opts: { runtime: Runtime }) => {
    const { config, clock } = opts.runtime;
    const allowed = new Set(config.allowedCountries);
    const perIp = new RateLimiter(config.authRateLimitPerIp, 60_000);
    const perKey = new RateLimiter(config.authRateLimitPerAppKey, 60_000);

    // Each route's hook knows what applies to it (see addRouteHook). Nothing here waits.
    addRouteHook(app, 'onRequest', (options) => {
      // The health check answers load balancers and probes over plain HTTP and from anywhere.
      const operational = options.url === '/health';
      const regionChecked = allowed.size > 0 && options.config?.negotiate !== false && !operational;
      const rateLimited = options.config?.rateLimit === 'auth';
      return (request, reply, done) => {
        const caller = callerAddress(request.ip);
        if (request.protocol === 'https') {
          reply.header('strict-transport-security', HSTS);
        } else if (!config.insecureHttp && !caller.loopback && !operational) {
          throw new ServiceError(
            'TlsRequired',
            'TLS 1.2 or higher is required: use https:// (plain HTTP is accepted only from loopback, or through a proxy trusted with --trust-proxy that terminated TLS)',
          );
        }

        if (regionChecked && !caller.local) {
          const country = caller.country;
          if (!country || !allowed.has(country)) {
            throw new ServiceError(
              'RegionNotPermitted',
              `Requests from ${country ? `country ${country}` : 'an unknown location'} (${request.ip}) are not permitted; permitted: ${[...allowed].join(', ')}`,
            );
          }
        }

        if (rateLimited) {
          const now = clock.now();
          // The key exactly as authentication reads it, whichever header (Service-App-Key or an alias) carried it.
          const appKey = appKeyOf(request, opts.runtime);
          const waits = [perIp.hit(`ip:${request.ip}`, now), appKey !== undefined ? perKey.hit(`key:${sha256Hex(appKey)}`, now) : 0];
          const wait = Math.max(...waits);
          if (wait > 0) {
            throw new ServiceError('RateLimited', `Too many authentication attempts; retry in ${wait} s`, { 'retry-after': String(wait) });
          }
        }
        done();
      };
    });
  },
  { name: 'ledgerlink-transport', dependencies: ['ledgerlink-content'] },
);
