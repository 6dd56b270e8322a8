import fs from 'node:fs';
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { xmlWriter } from '../../src/contract/xml/serialize.js';
import {
  ConformanceChecker,
  ConformanceDrift,
  checkConformance,
  loadAllowList,
  loadReference,
  type AllowList,
  type ObservedResponse,
} from '../helpers/conformance.js';

type Json = Record<string, any>;

const reference = loadReference();
const allowList = loadAllowList();
const COMPAT_DOC = fs.readFileSync(new URL('../../docs/compatibility.md', import.meta.url), 'utf8');
const checker = new ConformanceChecker(reference, allowList);
const strict = new ConformanceChecker(reference, { differences: [], referenceCorrections: allowList.referenceCorrections });

const CUSTOMER = '/aggregation/v1/customers/1005061234';
const ACCOUNTS = `${CUSTOMER}/accounts`;

function resolve(node: Json): Json {
  let n = node;
  while (n?.$ref)
    n = n.$ref
      .split('/')
      .slice(1)
      .reduce((x: Json, p: string) => x[p.replace(/~1/g, '/')], reference);
  return n;
}

/**
 * A value of a reference schema made of the examples the reference gives, with every property present. Where the
 * reference contradicts itself (CustomerAccount requires an `accountNickname` it does not declare; a `format: date`
 * with an epoch example; a string with a number example), the sample follows the schema.
 */
function sample(schema: Json): unknown {
  const s = resolve(schema);
  if (s.allOf) return Object.assign({}, ...s.allOf.map(sample));
  if (s.type === 'array') return [sample(s.items)];
  if (s.type === 'object' && s.properties) {
    const undeclared = ((s.required ?? []) as string[]).filter((k) => !(k in s.properties)).map((k) => [k, 'text']);
    return Object.fromEntries([...Object.entries(s.properties as Json).map(([k, v]) => [k, sample(v as Json)]), ...undeclared]);
  }
  if (s.format === 'date') return '2022-02-16';
  const kind = typeof s.example === 'number' && Number.isInteger(s.example) && s.type === 'integer' ? 'integer' : typeof s.example;
  if (
    s.example !== undefined &&
    (kind === s.type || (kind === 'integer' && s.type === 'number') || (kind === 'number' && s.type === 'number') || s.type === undefined)
  )
    return s.example;
  return ({ integer: 1, number: 1.5, boolean: true, string: 'text' } as Json)[s.type] ?? 'text';
}

function responseSchema(method: string, path: string, status: string): Json {
  return resolve(resolve(reference.paths[path][method].responses[status]).content['application/json'].schema);
}

const json = (method: string, url: string, statusCode: number, body: unknown): ObservedResponse => ({
  method,
  url,
  statusCode,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
});
const xml = (method: string, url: string, statusCode: number, body: string): ObservedResponse => ({
  method,
  url,
  statusCode,
  contentType: 'application/xml; charset=utf-8',
  body,
});

describe('the conformance check', () => {
  it('finds the reference operation of a concrete request, the most specific template first', () => {
    expect(checker.match('GET', `${ACCOUNTS}?status=active`)?.operationId).toBe('GetCustomerAccounts');
    expect(checker.match('GET', `${ACCOUNTS}/simple`)?.operationId).toBe('GetCustomerAccountsSimple');
    expect(checker.match('GET', `${ACCOUNTS}/5011648377/simple`)?.operationId).toBe('GetCustomerAccountSimple');
    expect(checker.match('POST', `${ACCOUNTS}/`)?.operationId).toBe('RefreshCustomerAccounts');
    expect(checker.match('GET', '/aggregation/v1/partners/me')).toBeUndefined();
    expect(checker.match('PATCH', ACCOUNTS)).toBeUndefined();
    expect(checker.check(json('GET', '/health', 200, { ok: true }))).toBeUndefined();
  });

  it("passes answers made of the reference's own examples, in JSON and in XML", () => {
    const cases: Array<[string, string, string, string, number]> = [
      ['get', '/aggregation/v1/customers/{customerId}/accounts', 'GetCustomerAccounts', ACCOUNTS, 200],
      [
        'get',
        '/aggregation/v4/customers/{customerId}/accounts/{accountId}/transactions',
        'GetCustomerAccountTransactions',
        `/aggregation/v4/customers/1/accounts/2/transactions`,
        200,
      ],
      ['get', '/aggregation/v1/customers/{customerId}', 'GetCustomer', CUSTOMER, 200],
      ['get', '/institution/v2/institutions', 'GetInstitutions', '/institution/v2/institutions?search=x', 200],
      ['post', '/aggregation/v2/customers/testing', 'AddTestingCustomer', '/aggregation/v2/customers/testing', 201],
    ];
    for (const [method, path, operationId, url, status] of cases) {
      const body = sample(responseSchema(method, path, String(status)));
      const asJson = checker.check(json(method.toUpperCase(), url, status, body))!;
      expect(asJson.operationId).toBe(operationId);
      expect(asJson.problems, operationId).toEqual([]);
      // The OpenAPI default XML form: arrays as repeated elements named after the property.
      const root = ({ GetInstitutions: 'root', AddTestingCustomer: 'customer' } as Json)[operationId] ?? 'answer';
      const asXml = checker.check(xml(method.toUpperCase(), url, status, xmlWriter(undefined, root)(body)))!;
      expect(asXml.problems, `${operationId} xml`).toEqual([]);
    }
  });

  it('passes every error example of the reference (its error code, a number or a string, by the correction)', () => {
    const examples = Object.values(reference.components.examples as Json)
      .map((e) => (e as Json).value)
      .filter((v) => v && 'code' in v && 'message' in v);
    expect(examples.length).toBeGreaterThan(10);
    for (const value of examples) expect(checker.check(json('GET', ACCOUNTS, 400, value))!.problems, JSON.stringify(value)).toEqual([]);
    expect(checker.check(json('GET', ACCOUNTS, 404, { code: 14001, message: 'Customer not found' }))!.problems).toEqual([]);
    expect(
      checker.check(xml('GET', ACCOUNTS, 404, '<?xml version="1.0"?><error><code>14001</code><message>Customer not found</message></error>'))!.problems,
    ).toEqual([]);
  });

  it('catches a drifted JSON answer: a missing required field, a wrong type, an error without code', () => {
    const account = sample(responseSchema('get', '/aggregation/v1/customers/{customerId}/accounts', '200')) as Json;
    const item = account.accounts[0];
    delete item.institutionLoginId;
    item.balance = '401.26';
    const result = strict.check(json('GET', ACCOUNTS, 200, account))!;
    expect(result.operationId).toBe('GetCustomerAccounts');
    expect(result.problems.map((p) => [p.pointer, p.keyword])).toEqual([
      ['/accounts/0/institutionLoginId', 'required'],
      ['/accounts/0/balance', 'type'],
    ]);
    expect(strict.check(json('GET', ACCOUNTS, 404, { message: 'no code' }))!.problems.map((p) => p.pointer)).toEqual(['/code']);
    expect(strict.check(json('GET', ACCOUNTS, 404, { code: { nested: 1 }, message: 'x' }))!.problems.map((p) => p.pointer)).toEqual(['/code']);
    // An error status the operation does not list still has the reference's common error body.
    const unlisted = strict.check(json('GET', ACCOUNTS, 406, { error: 'Not Acceptable' }))!;
    expect([unlisted.responseKey, unlisted.problems.map((p) => p.pointer)]).toEqual(['error', ['/code']]);
    expect(strict.check(json('GET', ACCOUNTS, 429, { code: '10033', message: 'Too many requests' }))!.problems).toEqual([]);
    // A status the reference does not describe that is no error is not checked (and counted as such).
    expect(strict.check(json('GET', ACCOUNTS, 202, { anything: 1 }))).toMatchObject({ responseKey: undefined, problems: [] });
    // Not JSON at all, a body where the reference has none, no body where it has one.
    expect(strict.check({ ...json('GET', ACCOUNTS, 200, {}), body: '{"accounts":' })!.problems[0]!.keyword).toBe('parse');
    expect(strict.check(json('DELETE', CUSTOMER, 204, { deleted: true }))!.problems[0]!.keyword).toBe('noContent');
    expect(strict.check({ method: 'GET', url: ACCOUNTS, statusCode: 200, contentType: '', body: '' })!.problems[0]!.keyword).toBe('body');
    expect(strict.check({ method: 'GET', url: ACCOUNTS, statusCode: 200, contentType: 'text/html', body: '<html/>' })!.problems[0]!.keyword).toBe(
      'contentType',
    );
  });

  it('checks an error status a Connect Components operation does not list against its own error body', () => {
    const url = '/connect-components/configurations';
    const own = { Errors: { Error: [{ Source: 'Connect-Components', ReasonCode: '10043', Description: 'Not acceptable', Recoverable: false, Details: 'x' }] } };
    const listed = strict.check(json('POST', url, 400, own))!;
    expect([listed.responseKey, listed.problems]).toEqual(['400', []]);
    // Not acceptable is a status it does not list: the operation's own body still applies, and the common one does not.
    expect(strict.check(json('POST', url, 406, own))).toMatchObject({ responseKey: 'error', problems: [] });
    expect(strict.check(json('POST', url, 406, { code: '10043', message: 'Not acceptable' }))!.problems.map((p) => [p.pointer, p.keyword])).toEqual([
      ['/Errors', 'required'],
    ]);
    expect(strict.check(json('POST', url, 406, { Errors: { Error: [{ Recoverable: 'false' }] } }))!.problems.map((p) => p.keyword)).toEqual(['type']);
    // An operation whose errors have the common body keeps being checked against it.
    expect(strict.check(json('GET', ACCOUNTS, 406, own))!.problems.map((p) => p.pointer)).toEqual(['/code']);
  });

  it('catches a drifted XML answer: the wrong root where the interface states one, misnamed items, a wrong type', () => {
    const list = sample(responseSchema('get', '/institution/v2/institutions', '200')) as Json;
    const wrongRoot = strict.check(xml('GET', '/institution/v2/institutions', 200, xmlWriter(undefined, 'institutions')(list)))!;
    expect(wrongRoot.problems.map((p) => [p.pointer, p.keyword])).toEqual([['', 'xmlRoot']]);
    // The interface states repeated <institutions> elements: <institution> items are not that.
    const renamed = xmlWriter(
      { type: 'object', properties: { institutions: { type: 'array', items: { xml: { name: 'institution' } } } }, additionalProperties: {} },
      'root',
    )(list);
    expect(strict.check(xml('GET', '/institution/v2/institutions', 200, renamed))!.problems.map((p) => [p.pointer, p.keyword])).toEqual([
      ['/institutions', 'xmlName'],
    ]);
    expect(strict.check(xml('GET', '/institution/v2/institutions', 200, '<root><found>1</found>'))!.problems.map((p) => p.keyword)).toEqual(['parse']);
    const wrongType = xmlWriter(undefined, 'root')({ ...list, found: 'many' });
    expect(strict.check(xml('GET', '/institution/v2/institutions', 200, wrongType))!.problems.map((p) => [p.pointer, p.keyword])).toEqual([['/found', 'type']]);
    const accounts = sample(responseSchema('get', '/aggregation/v1/customers/{customerId}/accounts', '200')) as Json;
    delete accounts.accounts[0].name;
    const missing = strict.check(xml('GET', ACCOUNTS, 200, xmlWriter(undefined, 'accounts')(accounts)))!;
    expect(missing.problems.map((p) => [p.pointer, p.keyword])).toEqual([['/accounts/0/name', 'required']]);
    // Items named by the singular (how Ledgerlink names them) and wrapped lists are read as the same list.
    const singular = xmlWriter(
      { type: 'object', properties: { accounts: { type: 'array', items: { xml: { name: 'account' } } } }, additionalProperties: {} },
      'accounts',
    )(accounts);
    expect(singular).toContain('<accounts><account><id>');
    expect(strict.check(xml('GET', ACCOUNTS, 200, singular))!.problems.map((p) => p.pointer)).toEqual(['/accounts/0/name']);
    const wrapped = xmlWriter(
      { type: 'object', properties: { accounts: { type: 'array', xml: { wrapped: true }, items: { xml: { name: 'account' } } } }, additionalProperties: {} },
      'root',
    )(accounts);
    expect(wrapped).toContain('<root><accounts><account><id>');
    expect(strict.check(xml('GET', ACCOUNTS, 200, wrapped))!.problems.map((p) => p.pointer)).toEqual(['/accounts/0/name']);
  });

  it('lets an allow-listed difference pass, and only that one', () => {
    const list: AllowList = {
      referenceCorrections: allowList.referenceCorrections,
      differences: [{ operation: 'GetCustomer', status: '200', pointer: '/createdDate', keyword: 'type', reason: 'test' }],
    };
    const allowing = new ConformanceChecker(reference, list);
    const customer = { id: '1', username: 'customer_1', type: 'testing', createdDate: 1607450357 };
    expect(strict.check(json('GET', CUSTOMER, 200, customer))!.problems.map((p) => p.pointer)).toEqual(['/createdDate']);
    const allowed = allowing.check(json('GET', CUSTOMER, 200, customer))!;
    expect(allowed.problems).toEqual([]);
    expect(allowed.allowed.map((a) => [a.problem.pointer, a.entry])).toEqual([['/createdDate', 0]]);
    // Another problem at the same place, another field, another status, another operation: still drift.
    expect(allowing.check(json('GET', CUSTOMER, 200, { ...customer, createdDate: undefined }))!.problems.map((p) => p.keyword)).toEqual(['required']);
    expect(allowing.check(json('GET', CUSTOMER, 200, { ...customer, lastModifiedDate: 1 }))!.problems.map((p) => p.pointer)).toEqual(['/lastModifiedDate']);
    expect(
      allowing
        .check(json('GET', '/aggregation/v1/customers?search=x', 200, { displaying: 1, moreAvailable: false, customers: [customer] }))!
        .problems.map((p) => p.pointer),
    ).toEqual(['/customers/0/createdDate']);
    // `*` stands for any one segment, a status class for its statuses; an entry may name several operations.
    const wildcard = new ConformanceChecker(reference, {
      ...list,
      differences: [{ operation: ['GetCustomer', 'GetCustomers'], status: '2XX', pointer: '/customers/*/createdDate', reason: 'test' }],
    });
    expect(
      wildcard.check(json('GET', '/aggregation/v1/customers', 200, { displaying: 2, moreAvailable: false, customers: [customer, customer] }))!.problems,
    ).toEqual([]);
    expect(wildcard.check(json('GET', CUSTOMER, 200, customer))!.problems.map((p) => p.pointer)).toEqual(['/createdDate']);
  });
});

describe('the conformance check on app.inject', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  async function appAnswering(body: unknown) {
    const app = Fastify();
    app.get('/aggregation/v1/customers/:customerId', async () => body);
    app.get('/elsewhere', async () => ({ anything: true }));
    await app.ready();
    return checkConformance(app);
  }

  it('fails the request that receives a drifted answer, and passes the rest', async () => {
    vi.stubEnv('LEDGERLINK_CONFORMANCE', 'fail');
    const app = await appAnswering({ id: 1005061234, username: 'customer_1' });
    try {
      const error = await app.inject({ method: 'GET', url: CUSTOMER }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConformanceDrift);
      expect((error as Error).message).toMatch(/^Conformance drift: GetCustomer \(GET \/aggregation\/v1\/customers\/\{customerId\}\) answered 200 in json/);
      expect((error as Error).message).toContain('/id type: must be string');
      expect((error as Error).message).toContain('/type required');
      // The callback form gets the error too.
      const viaCallback = await new Promise((done) => app.inject({ method: 'GET', url: CUSTOMER }, (err) => done(err)));
      expect(viaCallback).toBeInstanceOf(ConformanceDrift);
      // Operations the reference does not have are not checked.
      expect((await app.inject({ method: 'GET', url: '/elsewhere' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('passes a conforming answer', async () => {
    vi.stubEnv('LEDGERLINK_CONFORMANCE', 'fail');
    const app = await appAnswering({ id: '1005061234', username: 'customer_1', type: 'testing', createdDate: '1607450357' });
    try {
      expect((await app.inject({ method: 'GET', url: CUSTOMER })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('the allow-list (test/fixtures/compatibility-allowlist.json)', () => {
  const operations = new Map<string, string[]>();
  for (const item of Object.values(reference.paths as Json)) {
    for (const op of Object.values(item as Json)) if ((op as Json).operationId) operations.set((op as Json).operationId, Object.keys((op as Json).responses));
  }

  it('names reference operations and statuses, each entry with a reason; deliberate ones are in docs/compatibility.md', () => {
    for (const e of allowList.differences) {
      const where = JSON.stringify(e);
      expect(e.reason?.trim(), where).toBeTruthy();
      expect(e.pointer === '' || e.pointer.startsWith('/'), where).toBe(true);
      for (const op of [e.operation].flat()) {
        if (op === '*') continue;
        expect(operations.has(op), where).toBe(true);
        expect(
          operations.get(op)!.some((s) => s === e.status || (/^\dXX$/.test(e.status) && s[0] === e.status[0])),
          where,
        ).toBe(true);
        if (!/^to fix\b/i.test(e.reason)) expect(COMPAT_DOC, where).toContain(op);
      }
    }
  });

  it('corrects only schemas the reference has, each with a reason', () => {
    for (const c of allowList.referenceCorrections) {
      expect(c.reason.trim()).toBeTruthy();
      const target = c.schema
        .split('/')
        .slice(1)
        .reduce((x: Json | undefined, p) => x?.[p], reference);
      expect(target, c.schema).toBeDefined();
    }
  });
});
