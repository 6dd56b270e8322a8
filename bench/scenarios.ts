/**
 * The requests bench/http.ts measures, with the data they need prepared through the CLI and the API of the
 * running service (never behind its back).
 */
import { createPartner } from './lib/process.js';

export interface Scenario {
  name: string;
  label: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Setup {
  url: string;
  dataDir: string;
  root: string;
  /** The service's PostgreSQL URL; absent for SQLite in dataDir. */
  databaseUrl?: string | undefined;
}

async function call(url: string, init: RequestInit): Promise<any> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

export async function scenarios(setup: Setup): Promise<Scenario[]> {
  const creds = createPartner(setup.dataDir, { root: setup.root, ...(setup.databaseUrl ? { databaseUrl: setup.databaseUrl } : {}) });
  const authBody = JSON.stringify({ partnerId: creds.partnerId, partnerSecret: creds.partnerSecret });
  const { token } = await call(`${setup.url}/aggregation/v2/partners/authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'service-app-key': creds.appKey },
    body: authBody,
  });
  const json = { 'service-app-key': creds.appKey, 'service-app-token': token, accept: 'application/json' };
  const xml = { ...json, accept: 'application/xml' };
  // A customer who linked test profile_03 and had its initial aggregation (180 days of transactions).
  const post = { ...json, 'content-type': 'application/json' };
  const { id: customerId } = await call(`${setup.url}/aggregation/v2/customers/testing`, {
    method: 'POST',
    headers: post,
    body: JSON.stringify({ username: 'bench_customer' }),
  });
  await call(`${setup.url}/aggregation/v1/customers/${customerId}/institutions/102105/accounts/addall`, {
    method: 'POST',
    headers: post,
    body: JSON.stringify({
      credentials: [
        { id: '102105001', value: 'profile_03' },
        { id: '102105002', value: 'profile_03' },
      ],
    }),
  });
  await call(`${setup.url}/aggregation/v1/customers/${customerId}/accounts`, { method: 'POST', headers: post, body: '{}' });
  const now = Math.floor(Date.now() / 1000);
  const transactions = `/aggregation/v3/customers/${customerId}/transactions?fromDate=${now - 180 * 86_400}&toDate=${now}&limit=25`;
  return [
    { name: 'transactions-json', label: 'GET v3 transactions, limit 25 (JSON)', method: 'GET', path: transactions, headers: json },
    { name: 'transactions-xml', label: 'GET v3 transactions, limit 25 (XML)', method: 'GET', path: transactions, headers: xml },
    { name: 'accounts-json', label: 'GET customer accounts (JSON)', method: 'GET', path: `/aggregation/v1/customers/${customerId}/accounts`, headers: json },
    {
      name: 'institutions-json',
      label: 'institution search, 25 results (JSON)',
      method: 'GET',
      path: '/institution/v2/institutions?search=bank&limit=25',
      headers: json,
    },
    {
      name: 'institutions-xml',
      label: 'institution search, 25 results (XML)',
      method: 'GET',
      path: '/institution/v2/institutions?search=bank&limit=25',
      headers: xml,
    },
    { name: 'partner-json', label: 'GET partner (tiny JSON)', method: 'GET', path: '/aggregation/v1/partners/me', headers: json },
    {
      name: 'authentication',
      label: 'partner authentication (new token each time)',
      method: 'POST',
      path: '/aggregation/v2/partners/authentication',
      headers: { 'content-type': 'application/json', 'service-app-key': creds.appKey, accept: 'application/json' },
      body: authBody,
    },
  ];
}
