/**
 * An in-process stand-in for the Enable Banking API, for the connector's unit tests: a transport that answers each
 * request from a table of routes (`GET /sessions/s-1`) and logs what it was sent, and builders of the API's records
 * with plausible defaults. The application's key is made once per test file, written to a temporary PEM file as the
 * control panel gives it.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EnableBankingRequest, EnableBankingTransport } from '../../src/connectors/enablebanking/client.js';
import { EnableBankingTransportError } from '../../src/connectors/enablebanking/client.js';

export interface StubRequest {
  method: string;
  /** The path below the API's base address. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
}

export type StubAnswer = { status?: number; body: unknown } | { fail: EnableBankingTransportError['kind'] };
export type StubRoute = StubAnswer | ((request: StubRequest) => StubAnswer);

export const STUB_BASE = 'https://api.enablebanking.example';

export interface StubApi {
  transport: EnableBankingTransport;
  requests: StubRequest[];
  /** Sets (or replaces) the answer of `METHOD /path`. */
  route(key: string, answer: StubRoute): void;
}

/** A transport over a route table; an unknown route answers 404 with the API's error body. */
export function stubApi(routes: Record<string, StubRoute> = {}, base = STUB_BASE): StubApi {
  const table = new Map(Object.entries(routes));
  const requests: StubRequest[] = [];
  const transport: EnableBankingTransport = async (request: EnableBankingRequest) => {
    const url = new URL(request.url);
    const logged: StubRequest = {
      method: request.method,
      path: url.pathname.slice(new URL(base).pathname.replace(/\/$/, '').length),
      query: Object.fromEntries(url.searchParams),
      headers: { ...request.headers },
    };
    if (request.body !== undefined) logged.body = JSON.parse(request.body);
    requests.push(logged);
    const route = table.get(`${logged.method} ${logged.path}`);
    const answer = typeof route === 'function' ? route(logged) : (route ?? { status: 404, body: { code: 404, error: 'NOT_FOUND', message: 'Not found' } });
    if ('fail' in answer) throw new EnableBankingTransportError(answer.fail, answer.fail);
    return { status: answer.status ?? 200, body: typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body) };
  };
  return { transport, requests, route: (key, answer) => table.set(key, answer) };
}

/** An API error answer, as Enable Banking shapes them. */
export function apiError(status: number, error?: string): StubAnswer {
  return { status, body: { code: status, message: `stub ${error ?? status}`, ...(error ? { error } : {}), detail: null } };
}

/** An RSA key pair, the private one also as a PEM file. */
export function applicationKey(modulusLength = 2048): { privateKey: KeyObject; publicKey: KeyObject; file: string; pem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'eb-key-')), 'app.pem');
  writeFileSync(file, pem, { mode: 0o600 });
  return { privateKey, publicKey, file, pem };
}

/** Writes text to a fresh temporary file; its path. */
export function tempFile(name: string, content: string | Buffer): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'eb-file-')), name);
  writeFileSync(file, content);
  return file;
}

type Json = Record<string, unknown>;

/** A `GET /aspsps` entry. */
export function aspsp(name: string, country: string, extra: Json = {}): Json {
  return {
    name,
    country,
    logo: `https://enablebanking.com/brands/${country}/${encodeURIComponent(name)}/`,
    psu_types: ['personal'],
    auth_methods: [],
    maximum_consent_validity: 180 * 86_400,
    sandbox: null,
    beta: false,
    bic: 'NDEAFIHH',
    required_psu_headers: ['Psu-Ip-Address', 'Psu-User-Agent'],
    ...extra,
  };
}

/** An account resource of `POST /sessions`. */
export function accountResource(uid: string, hash: string, extra: Json = {}): Json {
  return {
    account_id: { iban: 'FI2112345600000785' },
    all_account_ids: [],
    name: 'Maija Meikäläinen',
    details: 'Everyday account',
    cash_account_type: 'CACC',
    currency: 'EUR',
    usage: 'PRIV',
    uid,
    identification_hash: hash,
    identification_hashes: [hash],
    ...extra,
  };
}

let transactionIds = 0;

/** A transaction of `GET /accounts/{uid}/transactions`; each gets a new transaction_id, as reads do. */
export function transaction(extra: Json = {}): Json {
  transactionIds += 1;
  return {
    entry_reference: 'E-1',
    transaction_id: `t-${transactionIds}`,
    transaction_amount: { amount: '12.50', currency: 'EUR' },
    credit_debit_indicator: 'DBIT',
    status: 'BOOK',
    booking_date: '2026-11-20',
    value_date: '2026-11-20',
    transaction_date: '2026-11-19',
    creditor: { name: 'K-Market Kamppi' },
    remittance_information: ['Card purchase 1234'],
    ...extra,
  };
}

/** A balance of `GET /accounts/{uid}/balances`. */
export function balance(type: string, amount: string, extra: Json = {}): Json {
  return { name: type, balance_amount: { amount, currency: 'EUR' }, balance_type: type, reference_date: '2026-11-20', ...extra };
}
