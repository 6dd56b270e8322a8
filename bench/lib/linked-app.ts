/** An in-process app on a throwaway SQLite store, with a partner and a customer who linked test profile_03. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildApp } from '../../src/main/app.js';
import { loadConfig } from '../../src/main/config.js';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { createPartner } from '../../src/modules/partners/service.js';
import type { App } from '../../src/http/app-types.js';
import { systemClock } from '../../src/platform/clock.js';
import { keysFrom } from '../../src/platform/keys.js';
import type { Runtime } from '../../src/main/runtime.js';
import { openStore } from './store.js';

export interface LinkedApp {
  app: App;
  runtime: Runtime;
  /** Authenticated JSON headers of the partner. */
  headers: Record<string, string>;
  /** The customer who linked profile_03 at 102105 and had the initial aggregation (180 days). */
  customerId: string;
  close(): Promise<void>;
}

export async function openLinkedApp(name: string): Promise<LinkedApp> {
  const store = await openStore('sqlite');
  await ensureInstitutionCatalog(store.database);
  const config = loadConfig({ LEDGERLINK_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), `ledgerlink-${name}-`)) });
  const runtime: Runtime = { config, database: store.database, clock: systemClock, keys: keysFrom(randomBytes(32)) };
  const app = await buildApp(runtime, { logger: false });
  await app.ready();
  const creds = await createPartner(runtime, { name });
  const auth = await app.inject({
    method: 'POST',
    url: '/aggregation/v2/partners/authentication',
    headers: { 'service-app-key': creds.appKey },
    payload: { partnerId: creds.partnerId, partnerSecret: creds.partnerSecret },
  });
  const headers = { 'service-app-key': creds.appKey, 'service-app-token': auth.json<{ token: string }>().token, accept: 'application/json' };
  const customerId = (await app.inject({ method: 'POST', url: '/aggregation/v2/customers/testing', headers, payload: { username: `${name}_customer` } })).json<{
    id: string;
  }>().id;
  await app.inject({
    method: 'POST',
    url: `/aggregation/v1/customers/${customerId}/institutions/102105/accounts/addall`,
    headers,
    payload: {
      credentials: [
        { id: '102105001', value: 'profile_03' },
        { id: '102105002', value: 'profile_03' },
      ],
    },
  });
  const refreshed = await app.inject({ method: 'POST', url: `/aggregation/v1/customers/${customerId}/accounts`, headers, payload: {} });
  if (refreshed.statusCode !== 200) throw new Error(`initial aggregation failed: ${refreshed.statusCode} ${refreshed.body}`);
  return {
    app,
    runtime,
    headers,
    customerId,
    close: async () => {
      await app.close();
      await store.drop();
    },
  };
}
