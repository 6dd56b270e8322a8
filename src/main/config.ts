import os from 'node:os';
import path from 'node:path';

export type { Config } from '../platform/dependencies.js';
import type { Config } from '../platform/dependencies.js';

export class ConfigError extends Error {}

export type Flags = Partial<
  Record<'host' | 'port' | 'data' | 'public-url' | 'log-level' | 'mode' | 'tls-cert' | 'tls-key' | 'trust-proxy' | 'insecure-http' | 'dashboard-signup', string>
>;

function trustProxyFrom(value: string | undefined): Config['trustProxy'] {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return Object.freeze(
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

function countries(value: string | undefined): string[] {
  const v = (value ?? 'US,CA,GB').trim();
  if (v === '*' || v === '') return [];
  const list = v
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  for (const c of list) if (!/^[A-Z]{2}$/.test(c)) throw new ConfigError(`"${c}" is not a two-letter country code (LEDGERLINK_ALLOWED_COUNTRIES)`);
  return list;
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

function integer(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${value}")`);
  return n;
}

/** Connections per process to PostgreSQL when LEDGERLINK_PG_POOL_SIZE is unset (docs/benchmarks.md, "Pool size on PostgreSQL"). */
const DEFAULT_PG_POOL_SIZE = 10;

/** An on/off setting: 1, true, on, yes or 0, false, off, no; `fallback` when unset. */
function onOff(name: string, value: string | undefined, fallback: boolean): boolean {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return fallback;
  if (['1', 'true', 'on', 'yes'].includes(v)) return true;
  if (['0', 'false', 'off', 'no'].includes(v)) return false;
  throw new ConfigError(`${name} must be on or off (true/false, 1/0; got "${value}")`);
}

/** LEDGERLINK_LOG_FORMAT: json, pretty or auto (the default). */
function logFormat(value: string | undefined): Config['logFormat'] {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return 'auto';
  if (v === 'auto' || v === 'json' || v === 'pretty') return v;
  throw new ConfigError(`LEDGERLINK_LOG_FORMAT must be json, pretty or auto (got "${value}")`);
}

const CONNECTOR_SETTING = /^LEDGERLINK_CONNECTOR_([A-Z0-9]+)_([A-Z0-9_]+)$/;

/** Sources whose documentation names their settings with a prefix of their own, by that prefix: the source. */
const SOURCE_PREFIXES: Readonly<Record<string, string>> = { LEDGERLINK_ENABLE_BANKING_: 'enablebanking' };

/** The source and setting a variable sets, if it names one. */
function connectorSetting(variable: string): { source: string; name: string } | undefined {
  const match = CONNECTOR_SETTING.exec(variable);
  if (match) return { source: match[1]!.toLowerCase(), name: match[2]! };
  for (const [prefix, source] of Object.entries(SOURCE_PREFIXES)) {
    const name = variable.startsWith(prefix) ? variable.slice(prefix.length) : '';
    if (/^[A-Z0-9_]+$/.test(name)) return { source, name };
  }
  return undefined;
}

/**
 * LEDGERLINK_CONNECTOR_<SOURCE>_<NAME> variables by source (lower case, as sources are named) and name. Which names
 * a source reads, the connector registry checks: naming them here would load every connector with the configuration.
 */
function connectorSettings(env: NodeJS.ProcessEnv): Config['connectorSettings'] {
  const out: Record<string, Record<string, string>> = {};
  for (const [variable, value] of Object.entries(env)) {
    const setting = connectorSetting(variable);
    if (!setting || value === undefined || value === '') continue;
    out[setting.source] = { ...out[setting.source], [setting.name]: value };
  }
  return Object.freeze(out);
}

const HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]+$/;

/** Builds the configuration from environment variables and command-line flags (flags win). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Flags = {}): Config {
  const host = flags.host ?? env.LEDGERLINK_HOST ?? '127.0.0.1';
  const port = integer('port', flags.port ?? env.PORT ?? env.LEDGERLINK_PORT, 8080, 0, 65535);
  const dataDir = path.resolve(flags.data ?? env.LEDGERLINK_DATA_DIR ?? './data');
  const mode = (flags.mode ?? env.LEDGERLINK_MODE ?? 'sandbox') as Config['mode'];
  if (mode !== 'sandbox' && mode !== 'production') throw new ConfigError(`mode must be "sandbox" or "production" (got "${mode}")`);
  const appKeyHeaders = list(env.LEDGERLINK_APP_KEY_HEADERS);
  const appTokenHeaders = list(env.LEDGERLINK_APP_TOKEN_HEADERS);
  for (const h of [...appKeyHeaders, ...appTokenHeaders]) {
    if (!HEADER_NAME.test(h)) throw new ConfigError(`"${h}" is not a valid HTTP header name`);
  }
  const scheme = (flags['tls-cert'] ?? env.LEDGERLINK_TLS_CERT) ? 'https' : 'http';
  const publicUrl = (flags['public-url'] ?? env.LEDGERLINK_PUBLIC_URL ?? `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  const pushExtraPorts = list(env.LEDGERLINK_PUSH_EXTRA_PORTS).map((p) => integer('LEDGERLINK_PUSH_EXTRA_PORTS', p, 0, 1, 65535));
  if (pushExtraPorts.length > 0 && mode !== 'sandbox')
    throw new ConfigError('LEDGERLINK_PUSH_EXTRA_PORTS is for sandbox mode only; production listeners use ports 80 and 443');
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError(`SMTP_URL must start with smtp:// or smtps:// (got "${smtpUrl}")`);
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(`public URL "${publicUrl}" is not a URL`);
  }
  const tlsCert = flags['tls-cert'] ?? env.LEDGERLINK_TLS_CERT ?? undefined;
  const tlsKey = flags['tls-key'] ?? env.LEDGERLINK_TLS_KEY ?? undefined;
  if (Boolean(tlsCert) !== Boolean(tlsKey)) throw new ConfigError('--tls-cert and --tls-key go together');
  return Object.freeze({
    host,
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    masterKey: env.LEDGERLINK_MASTER_KEY || undefined,
    logLevel: flags['log-level'] ?? env.LEDGERLINK_LOG_LEVEL ?? 'info',
    logFormat: logFormat(env.LEDGERLINK_LOG_FORMAT),
    appKeyHeaders: Object.freeze(appKeyHeaders),
    appTokenHeaders: Object.freeze(appTokenHeaders),
    tokenTtlSeconds: integer('LEDGERLINK_TOKEN_TTL_SECONDS', env.LEDGERLINK_TOKEN_TTL_SECONDS, 7200, 60, 86400),
    maxFailedAuthentications: 5,
    dashboardSessionTtlSeconds: integer('LEDGERLINK_DASHBOARD_SESSION_TTL_SECONDS', env.LEDGERLINK_DASHBOARD_SESSION_TTL_SECONDS, 28_800, 60, 7 * 86_400),
    bodyLimit: integer('LEDGERLINK_BODY_LIMIT', env.LEDGERLINK_BODY_LIMIT, 1024 * 1024, 1024, 64 * 1024 * 1024),
    publicUrl,
    publicUrlSet: Boolean(flags['public-url'] ?? env.LEDGERLINK_PUBLIC_URL),
    mode,
    tlsCert: tlsCert || undefined,
    tlsKey: tlsKey || undefined,
    trustProxy: trustProxyFrom(flags['trust-proxy'] ?? env.LEDGERLINK_TRUST_PROXY),
    insecureHttp: ['1', 'true'].includes(flags['insecure-http'] ?? env.LEDGERLINK_INSECURE_HTTP ?? ''),
    allowedCountries: Object.freeze(countries(env.LEDGERLINK_ALLOWED_COUNTRIES)),
    authRateLimitPerIp: integer('LEDGERLINK_AUTH_RATE_LIMIT_PER_IP', env.LEDGERLINK_AUTH_RATE_LIMIT_PER_IP, 60, 1, 1_000_000),
    refreshLeaseSeconds: integer('LEDGERLINK_REFRESH_LEASE_SECONDS', env.LEDGERLINK_REFRESH_LEASE_SECONDS, 120, 2, 3600),
    refreshIntervalSeconds: integer('LEDGERLINK_REFRESH_INTERVAL_HOURS', env.LEDGERLINK_REFRESH_INTERVAL_HOURS, 24, 0, 720) * 3600,
    refreshConcurrency: integer('LEDGERLINK_REFRESH_CONCURRENCY', env.LEDGERLINK_REFRESH_CONCURRENCY, 4, 1, 64),
    refreshInstitutionConcurrency: integer('LEDGERLINK_REFRESH_INSTITUTION_CONCURRENCY', env.LEDGERLINK_REFRESH_INSTITUTION_CONCURRENCY, 2, 1, 256),
    authRateLimitPerAppKey: integer('LEDGERLINK_AUTH_RATE_LIMIT_PER_APP_KEY', env.LEDGERLINK_AUTH_RATE_LIMIT_PER_APP_KEY, 20, 1, 1_000_000),
    smtpUrl,
    mailFrom: env.LEDGERLINK_MAIL_FROM || 'Ledgerlink <no-reply@ledgerlink.localhost>',
    deliveryTimeoutMs: integer('LEDGERLINK_DELIVERY_TIMEOUT_MS', env.LEDGERLINK_DELIVERY_TIMEOUT_MS, 10_000, 100, 120_000),
    workerPollMs: integer('LEDGERLINK_WORKER_POLL_MS', env.LEDGERLINK_WORKER_POLL_MS, 1000, 10, 60_000),
    workerConcurrency: integer('LEDGERLINK_WORKER_CONCURRENCY', env.LEDGERLINK_WORKER_CONCURRENCY, 8, 1, 256),
    workerId: env.LEDGERLINK_WORKER_ID || `${os.hostname()}:${process.pid}`,
    pushExtraPorts: Object.freeze(pushExtraPorts),
    responseCacheBytes: integer('LEDGERLINK_RESPONSE_CACHE_MB', env.LEDGERLINK_RESPONSE_CACHE_MB, 16, 0, 4096) * 1024 * 1024,
    pgPoolSize: integer('LEDGERLINK_PG_POOL_SIZE', env.LEDGERLINK_PG_POOL_SIZE, DEFAULT_PG_POOL_SIZE, 1, 500),
    pgStatementTimeoutMs: integer('LEDGERLINK_PG_STATEMENT_TIMEOUT_MS', env.LEDGERLINK_PG_STATEMENT_TIMEOUT_MS, 30_000, 0, 3_600_000),
    partnerConcurrentUploads: integer('LEDGERLINK_PARTNER_CONCURRENT_UPLOADS', env.LEDGERLINK_PARTNER_CONCURRENT_UPLOADS, 2, 1, 64),
    partnerConcurrentRefreshes: integer('LEDGERLINK_PARTNER_CONCURRENT_REFRESHES', env.LEDGERLINK_PARTNER_CONCURRENT_REFRESHES, 8, 1, 256),
    // Off in production: a stranger's Test Drive partner could otherwise use deliveries and e-mail (docs/security.md).
    dashboardSignUp: onOff('LEDGERLINK_DASHBOARD_SIGNUP', flags['dashboard-signup'] ?? env.LEDGERLINK_DASHBOARD_SIGNUP, mode === 'sandbox'),
    testDriveSmtp: onOff('LEDGERLINK_TESTDRIVE_SMTP', env.LEDGERLINK_TESTDRIVE_SMTP, false),
    emailLimitPerHour: integer('LEDGERLINK_EMAIL_LIMIT_PER_HOUR', env.LEDGERLINK_EMAIL_LIMIT_PER_HOUR, 100, 1, 1_000_000),
    deliveryRetentionSeconds: integer('LEDGERLINK_DELIVERY_RETENTION_DAYS', env.LEDGERLINK_DELIVERY_RETENTION_DAYS, 30, 1, 3650) * 86_400,
    simplefinDailyRequests: integer('LEDGERLINK_SIMPLEFIN_DAILY_REQUESTS', env.LEDGERLINK_SIMPLEFIN_DAILY_REQUESTS, 24, 1, 100_000),
    connectorSettings: connectorSettings(env),
  });
}
