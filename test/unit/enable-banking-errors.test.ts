import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENABLE_BANKING_ERROR_TABLE, failureOf, sessionStatusFailure } from '../../src/connectors/enablebanking/errors.js';

const api = (status: number, error?: string) => (error ? { kind: 'api' as const, status, error } : { kind: 'api' as const, status });

describe('Enable Banking errors', () => {
  it('make an ended session one of the OAuth codes Connect Fix repairs: expired 945, closed 946, revoked 947', () => {
    expect(failureOf(api(401, 'EXPIRED_SESSION'), 'read').code).toBe(945);
    expect(failureOf(api(401, 'CLOSED_SESSION'), 'read').code).toBe(946);
    expect(failureOf(api(404, 'SESSION_DOES_NOT_EXIST'), 'read').code).toBe(946);
    expect(failureOf(api(401, 'REVOKED_SESSION'), 'read').code).toBe(947);
    expect(sessionStatusFailure('AUTHORIZED')).toBeUndefined();
    expect(['EXPIRED', 'CLOSED', 'REVOKED', 'CANCELLED', 'INVALID'].map((s) => sessionStatusFailure(s)?.code)).toEqual([945, 946, 947, 946, 946]);
  });

  it("make the bank's rate limit, its errors, Enable Banking's, the network and whatever is unknown temporary (102)", () => {
    for (const problem of [
      api(429, 'ASPSP_RATE_LIMIT_EXCEEDED'),
      api(429),
      api(400, 'ASPSP_ERROR'),
      api(504, 'ASPSP_TIMEOUT'),
      api(500),
      api(503, 'SOMETHING_NEW'),
      api(400, 'WRONG_REQUEST_PARAMETERS'),
      api(302),
      api(401),
      api(401, 'UNAUTHORIZED_ACCESS'),
      { kind: 'timeout' as const },
      { kind: 'unreachable' as const },
      { kind: 'refused' as const },
      { kind: 'too-large' as const },
      { kind: 'malformed' as const, detail: 'balances is not a list' },
      { kind: 'too-many-pages' as const, pages: 100 },
    ]) {
      expect(failureOf(problem, 'read').code, JSON.stringify(problem)).toBe(102);
    }
    expect(failureOf(api(429, 'ASPSP_RATE_LIMIT_EXCEEDED'), 'read').message).toMatch(/limits how often/);
    expect(failureOf(api(503, 'SOMETHING_NEW'), 'read').message).toContain('HTTP 503');
    expect(failureOf(api(401, 'UNAUTHORIZED_ACCESS'), 'read').message).toContain('UNAUTHORIZED_ACCESS');
    expect(sessionStatusFailure('PENDING_AUTHORIZATION')).toMatchObject({ code: 102, message: expect.stringContaining('PENDING_AUTHORIZATION') });
  });

  it('make a sign-in the bank did not complete 103, and what the customer must do at the bank 108', () => {
    for (const error of ['WRONG_AUTHORIZATION_CODE', 'EXPIRED_AUTHORIZATION_CODE', 'ALREADY_AUTHORIZED', undefined]) {
      expect(failureOf(api(400, error), 'authorize').code).toBe(103);
    }
    // Outside POST /sessions an unknown 4xx is not the customer's to fix.
    expect(failureOf(api(400), 'read').code).toBe(102);
    expect(failureOf(api(429), 'authorize').code).toBe(102);
    expect(failureOf(api(400, 'ASPSP_PSU_ACTION_REQUIRED'), 'read').code).toBe(108);
    expect(failureOf(api(404, 'ACCOUNT_DOES_NOT_EXIST'), 'read').code).toBe(108);
    expect(failureOf(api(403, 'ASPSP_ACCOUNT_NOT_ACCESSIBLE'), 'read').code).toBe(108);
  });

  it('are documented by one table built from the same functions, one row a situation, every code a failure code', () => {
    const situations = ENABLE_BANKING_ERROR_TABLE.map((row) => row.situation);
    expect(new Set(situations).size).toBe(situations.length);
    expect(new Set(ENABLE_BANKING_ERROR_TABLE.map((row) => row.code))).toEqual(new Set([945, 946, 947, 103, 108, 102]));
    const row = (text: string) => ENABLE_BANKING_ERROR_TABLE.find((r) => r.situation.includes(text));
    expect(row('EXPIRED_SESSION')).toMatchObject({ code: 945, message: failureOf(api(401, 'EXPIRED_SESSION'), 'read').message });
    expect(row('ASPSP_RATE_LIMIT_EXCEEDED')?.code).toBe(102);
    expect(row('unattended reads')?.message).toContain('4 reads a day');
    for (const r of ENABLE_BANKING_ERROR_TABLE) expect(r.message).toMatch(/[.!]$/);
  });
});

describe('the status codes table of docs/connectors.md', () => {
  it('is ENABLE_BANKING_ERROR_TABLE, row for row', () => {
    const doc = readFileSync(new URL('../../docs/connectors.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Enable Banking (Europe)'), doc.indexOf('## OFX Direct Connect'));
    const rows = [...section.matchAll(/^\| (.+) \| (\d+) \|$/gm)].map((m) => ({ situation: m[1], code: Number(m[2]) }));
    expect(rows).toEqual(ENABLE_BANKING_ERROR_TABLE.map((r) => ({ situation: r.situation, code: r.code })));
  });
});
