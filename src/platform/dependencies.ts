/**
 * The dependencies object every layer takes: the process's configuration and what it opened. The wiring
 * (`src/main/config.ts`, `src/main/runtime.ts`) builds them; everything below only reads them.
 */
import type { Database } from './db/database.js';
import type { Clock } from './clock.js';
import type { Keys } from './keys.js';

/** The validated, frozen configuration of one Ledgerlink process. Built once from env and flags, then passed in. */
export interface Config {
  readonly host: string;
  readonly port: number;
  /** Directory for the embedded SQLite database, the master key file and other local state. */
  readonly dataDir: string;
  /** PostgreSQL connection string; when absent the embedded SQLite database is used. */
  readonly databaseUrl: string | undefined;
  /** Base64 or hex master key; when absent a key file in dataDir is used (created on first start). */
  readonly masterKey: string | undefined;
  readonly logLevel: string;
  /** LEDGERLINK_LOG_FORMAT: json, pretty, or auto (pretty when stdout is a terminal). */
  readonly logFormat: 'auto' | 'json' | 'pretty';
  /** Extra header names accepted in place of Service-App-Key / Service-App-Token (lower-cased). */
  readonly appKeyHeaders: readonly string[];
  readonly appTokenHeaders: readonly string[];
  readonly tokenTtlSeconds: number;
  readonly maxFailedAuthentications: number;
  /** How long a dashboard sign-in lasts, in seconds. */
  readonly dashboardSessionTtlSeconds: number;
  /** Largest accepted request body in bytes. */
  readonly bodyLimit: number;
  /** Public base URL of this service, used in links it hands out. */
  readonly publicUrl: string;
  /** Whether LEDGERLINK_PUBLIC_URL (or --public-url) gave it, rather than the listening address: SimpleFIN tokens need it given. */
  readonly publicUrlSet: boolean;
  /** sandbox: developer defaults (loopback delivery targets allowed); production: strict. */
  readonly mode: 'sandbox' | 'production';
  /** PEM files for native HTTPS; both or neither. */
  readonly tlsCert: string | undefined;
  readonly tlsKey: string | undefined;
  /** Which proxies may tell the client address and protocol (X-Forwarded-For/-Proto): false, true, hop count or addresses/CIDRs. */
  readonly trustProxy: boolean | number | readonly string[];
  /** Accept plain HTTP from any address (development only). */
  readonly insecureHttp: boolean;
  /** ISO country codes API callers must be located in; empty means no check. */
  readonly allowedCountries: readonly string[];
  /** Partner authentication attempts allowed per minute from one IP address, and with one app key. */
  readonly authRateLimitPerIp: number;
  readonly authRateLimitPerAppKey: number;
  /** How long one refresh may hold an institution login before another process may take over, in seconds. */
  readonly refreshLeaseSeconds: number;
  /** How often workers refresh each login of a real institution without being asked, in seconds; 0 turns it off. */
  readonly refreshIntervalSeconds: number;
  /** Scheduled refreshes one worker process runs at once (its slots). */
  readonly refreshConcurrency: number;
  /** Refreshes of one institution's logins in flight at once, across all processes, beyond which workers claim none of its logins. */
  readonly refreshInstitutionConcurrency: number;
  /** SMTP server for outgoing e-mail (smtp:// or smtps://); when absent e-mail goes to the local mailbox. */
  readonly smtpUrl: string | undefined;
  /** Sender of outgoing e-mail. */
  readonly mailFrom: string;
  /** How long one delivery attempt may take (connect, send, answer), in milliseconds. */
  readonly deliveryTimeoutMs: number;
  /** How often an idle delivery worker looks for due deliveries, in milliseconds. */
  readonly workerPollMs: number;
  /** Deliveries one worker process runs at once. */
  readonly workerConcurrency: number;
  /** Names this worker in claims and attempt records; defaults to host:pid. */
  readonly workerId: string;
  /** Sandbox only: ports allowed for push listeners besides 80 and 443 (developers listen on local ports). */
  readonly pushExtraPorts: readonly number[];
  /** Bytes of serialised read responses each process keeps (src/http/response-cache.ts); 0 turns the cache off. */
  readonly responseCacheBytes: number;
  /** PostgreSQL connections each process keeps (LEDGERLINK_PG_POOL_SIZE). */
  readonly pgPoolSize: number;
  /** Longest a PostgreSQL statement may run, and a transaction sit idle, before the server ends it (ms; 0: no limit). */
  readonly pgStatementTimeoutMs: number;
  /** Statement uploads one partner may run at once in a process; more are refused with 429. */
  readonly partnerConcurrentUploads: number;
  /** Refreshes (and historic loads) one partner may ask for at once in a process; more are refused with 429. */
  readonly partnerConcurrentRefreshes: number;
  /** Whether anyone may create a Test Drive partner at POST /dashboard/api/signup (default: on in sandbox mode only). */
  readonly dashboardSignUp: boolean;
  /** `/accounts` requests one SimpleFIN access may make per UTC day (LEDGERLINK_SIMPLEFIN_DAILY_REQUESTS). */
  readonly simplefinDailyRequests: number;
  /** Whether Test Drive partners' e-mail goes through SMTP_URL too; off keeps it in the local mailbox (no open relay). */
  readonly testDriveSmtp: boolean;
  /** E-mails one partner may have queued in the last hour (429 beyond). */
  readonly emailLimitPerHour: number;
  /** How long delivered and cancelled deliveries are kept before the delivery worker deletes them, in seconds. */
  readonly deliveryRetentionSeconds: number;
  /**
   * Connector sources' own settings, by source name and setting name: `LEDGERLINK_CONNECTOR_<SOURCE>_<NAME>`
   * (src/connectors/source.ts). The connector registry refuses one its source does not declare.
   */
  readonly connectorSettings: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** Everything a process shares between the HTTP app, the workers and the CLI. */
export interface Runtime {
  readonly config: Config;
  readonly database: Database;
  readonly clock: Clock;
  readonly keys: Keys;
}
