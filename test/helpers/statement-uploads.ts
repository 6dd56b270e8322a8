/**
 * Statement files uploaded through the partner API: the set-up the upload tests share (the app with the institution
 * catalogue, a partner) and the upload call.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { ensureInstitutionCatalog } from '../../src/modules/institutions/seed.service.js';
import { allTransactions, DAY, nowOf, type TransactionJson } from './aggregation.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from './context.js';
import { addCustomer } from './customers.js';

/** The test institution files are uploaded to. */
export const FINBANK = 101732;

export interface StatementUploadOptions {
  /** The Content-Type; none is sent without it. */
  type?: string;
  query?: Record<string, string>;
  institutionId?: number;
  accept?: string;
}

/** The upload route of a customer's institution (FINBANK unless named), with the query when there is one. */
export function statementUploadPath(customerId: string, options: Pick<StatementUploadOptions, 'query' | 'institutionId'> = {}): string {
  const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
  return `/aggregation/v1/customers/${customerId}/institutions/${options.institutionId ?? FINBANK}/statements${query}`;
}

/** Uploads a statement file as `who`; answers the raw response. */
export function uploadStatement(
  ctx: TestContext,
  who: TestPartner,
  customerId: string,
  file: string | Buffer,
  options: StatementUploadOptions = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url: statementUploadPath(customerId, options),
    headers: { ...who.headers, accept: options.accept ?? 'application/json', ...(options.type !== undefined ? { 'content-type': options.type } : {}) },
    payload: file,
  });
}

/** The same, failing the test unless the upload succeeds; answers the JSON body. */
export async function uploadStatementOk(ctx: TestContext, who: TestPartner, customerId: string, file: string | Buffer, options: StatementUploadOptions = {}) {
  const res = await uploadStatement(ctx, who, customerId, file, options);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every transaction of the customer dated from 400 days before now to tomorrow: all an upload of a test stores. */
export function uploadedTransactions(ctx: TestContext, who: TestPartner, customerId: string): Promise<TransactionJson[]> {
  return allTransactions(ctx, who, customerId, { fromDate: nowOf(ctx) - 400 * DAY, toDate: nowOf(ctx) + DAY });
}

/** The app with the institution catalogue, its clock at `now` (an ISO date-time), and a partner to upload as. */
export async function openStatementContext(now: string, env: Record<string, string> = {}): Promise<{ ctx: TestContext; partner: TestPartner }> {
  const ctx = await createTestContext(env);
  ctx.clock.set(Date.parse(now));
  await ensureInstitutionCatalog(ctx.runtime.database);
  return { ctx, partner: await partnerWithToken(ctx) };
}

export interface StatementUploads {
  readonly ctx: TestContext;
  readonly partner: TestPartner;
  /** A new customer of the partner. */
  customer(): Promise<string>;
  upload(customerId: string, file: string | Buffer, options?: StatementUploadOptions): Promise<LightMyRequestResponse>;
  uploadOk(customerId: string, file: string | Buffer, options?: StatementUploadOptions): ReturnType<typeof uploadStatementOk>;
  transactionsOf(customerId: string): Promise<TransactionJson[]>;
}

/**
 * Sets up the describe block it is called in: a statement context (openStatementContext) opened before its tests and
 * closed after them. Answers the calls its tests make, as that context's partner.
 */
export function statementUploads(now: string): StatementUploads {
  let opened: { ctx: TestContext; partner: TestPartner } | undefined;
  beforeAll(async () => {
    opened = await openStatementContext(now);
  }, 120_000);
  afterAll(async () => {
    await opened?.ctx.close();
  });
  const ready = () => {
    if (!opened) throw new Error('the statement context is opened before the tests');
    return opened;
  };
  return {
    get ctx() {
      return ready().ctx;
    },
    get partner() {
      return ready().partner;
    },
    customer: () => addCustomer(ready().ctx, ready().partner),
    upload: (customerId, file, options) => uploadStatement(ready().ctx, ready().partner, customerId, file, options),
    uploadOk: (customerId, file, options) => uploadStatementOk(ready().ctx, ready().partner, customerId, file, options),
    transactionsOf: (customerId) => uploadedTransactions(ready().ctx, ready().partner, customerId),
  };
}
