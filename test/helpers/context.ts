import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildApp, type AppOptions } from '../../src/main/app.js';
import { loadConfig, type Config } from '../../src/main/config.js';
import { createPartner, type PartnerCredentials } from '../../src/modules/partners/service.js';
import type { App } from '../../src/http/app-types.js';
import { ManualClock } from '../../src/platform/clock.js';
import { keysFrom } from '../../src/platform/keys.js';
import type { Runtime } from '../../src/main/runtime.js';
import { checkConformance } from './conformance.js';
import { createTestDatabase, type TestDatabase, testDialect } from './db.js';

export interface TestContext {
  app: App;
  runtime: Runtime;
  clock: ManualClock;
  db: TestDatabase;
  close(): Promise<void>;
}

/**
 * The real app on a fresh database with a manual clock, built exactly as the server builds it. `database.onFile`: on
 * SQLite, the database (and the request log, written by its thread) in files of a temporary directory, as the service
 * keeps them, instead of memory.
 */
export async function createTestContext(
  env: Record<string, string> = {},
  appOptions: AppOptions = { logger: false },
  database: { onFile?: boolean } = {},
): Promise<TestContext> {
  const db = await createTestDatabase(testDialect(), database);
  const clock = new ManualClock();
  const config: Config = loadConfig({ LEDGERLINK_DATA_DIR: path.join(os.tmpdir(), `ledgerlink-test-${randomBytes(4).toString('hex')}`), ...env });
  const runtime: Runtime = { config, database: db.database, clock, keys: keysFrom(randomBytes(32)) };
  const app = await buildApp(runtime, appOptions);
  await app.ready();
  // Every answer to a request for an operation of the reference description is checked against it (conformance.ts).
  checkConformance(app);
  return {
    app,
    runtime,
    clock,
    db,
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

export interface TestPartner extends PartnerCredentials {
  token: string;
  /** Headers for an authenticated JSON call. */
  headers: Record<string, string>;
}

/** Creates a partner and authenticates it through the API. */
export async function partnerWithToken(ctx: TestContext, plan: 'testdrive' | 'production' = 'testdrive'): Promise<TestPartner> {
  const creds = await createPartner(ctx.runtime, { name: 'Test partner', plan });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/aggregation/v2/partners/authentication',
    headers: { 'service-app-key': creds.appKey },
    payload: { partnerId: creds.partnerId, partnerSecret: creds.partnerSecret },
  });
  if (res.statusCode !== 200) throw new Error(`authentication failed: ${res.statusCode} ${res.body}`);
  const token = res.json<{ token: string }>().token;
  return { ...creds, token, headers: { 'service-app-key': creds.appKey, 'service-app-token': token, accept: 'application/json' } };
}

/** Authenticates the partner again: a token lasts two hours, and tests that move the clock by days need a new one. */
export async function renewToken(ctx: TestContext, partner: TestPartner): Promise<TestPartner> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/aggregation/v2/partners/authentication',
    headers: { 'service-app-key': partner.appKey },
    payload: { partnerId: partner.partnerId, partnerSecret: partner.partnerSecret },
  });
  if (res.statusCode !== 200) throw new Error(`authentication failed: ${res.statusCode} ${res.body}`);
  partner.token = res.json<{ token: string }>().token;
  partner.headers['service-app-token'] = partner.token;
  return partner;
}
