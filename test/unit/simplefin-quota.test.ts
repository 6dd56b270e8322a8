import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResult, ConnectorFailure, ConnectorResult, ConnectorSession } from '../../src/connectors/connector.js';
import { createHttpTransport } from '../../src/connectors/simplefin/client.js';
import { SimplefinConnector, type SimplefinConnectorOptions, simplefinNotices } from '../../src/connectors/simplefin/connector.js';
import { formatEpoch } from '../../src/connectors/simplefin/errors.js';
import { DAY, mergeRequestLogs, nextAllowedAt, RequestLedger, requestsLeft, splitWindows } from '../../src/connectors/simplefin/quota.js';
import { simplefinUrlPolicy } from '../../src/connectors/simplefin/token.js';
import { type BridgeAccount, type BridgeTransaction, type SimplefinBridge, startSimplefinBridge } from '../helpers/simplefin-bridge.js';

const NOW = 1_790_000_000;
const INST = 300002;
const ctx = (now: number) => ({ institutionId: INST, now });

function sessionOf(result: AuthResult): ConnectorSession {
  if (!result.ok || result.kind !== 'authenticated') throw new Error(`expected a session, got ${JSON.stringify(result)}`);
  return result.session;
}

function ok<T>(result: ConnectorResult<T>): { value: T; session: ConnectorSession | undefined } {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.message}`);
  return { value: result.value, session: result.session };
}

function failure(result: ConnectorResult<unknown>): ConnectorFailure {
  if (result.ok) throw new Error('expected a failure');
  return result;
}

/** One transaction every five days for a year and a half before NOW, in each of two accounts. */
function yearOfAccounts(): BridgeAccount[] {
  const transactions = (prefix: string): BridgeTransaction[] =>
    Array.from({ length: 110 }, (_, i) => ({ id: `${prefix}-${i}`, posted: NOW - (i * 5 + 1) * DAY, amount: `-${i + 1}.00`, description: `PURCHASE ${i}` }));
  return [
    { id: 'ACT-A', name: 'Checking', balance: '100.00', 'balance-date': NOW, transactions: transactions('A') },
    { id: 'ACT-B', name: 'Savings', balance: '900.00', 'balance-date': NOW, transactions: transactions('B') },
  ];
}

describe('quota arithmetic', () => {
  it('allows the quota within any 24 hours, and names when the next request is allowed', () => {
    const requests = [NOW - 23 * 3600, NOW - 3600, NOW - 60];
    expect(requestsLeft(requests, NOW, 3)).toBe(0);
    expect(nextAllowedAt(requests, NOW, 3)).toBe(NOW + 3600);
    expect(nextAllowedAt(requests, NOW, 4)).toBe(NOW);
    expect(requestsLeft(requests, NOW + 3600, 3)).toBe(1);
    expect(requestsLeft([NOW - DAY, NOW - DAY - 10], NOW, 1)).toBe(1);
  });

  it('forgets times more than a day ahead (a clock moved back), but counts nearer future ones', () => {
    expect(requestsLeft([NOW + 2 * DAY, NOW + 600], NOW, 2)).toBe(1);
  });

  it('merges two records of one history without losing or doubling a request', () => {
    expect(mergeRequestLogs([1, 2, 2, 5], [2, 3, 5, 5])).toEqual([1, 2, 2, 3, 5, 5]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 })), fc.array(fc.integer({ min: 0, max: 50 })), (a, b) => {
        const merged = mergeRequestLogs(a, b);
        expect(merged.length).toBeGreaterThanOrEqual(Math.max(a.length, b.length));
        expect(merged.length).toBeLessThanOrEqual(a.length + b.length);
        expect(mergeRequestLogs(a, a)).toEqual([...a].sort((x, y) => x - y));
        expect(mergeRequestLogs(merged, b)).toEqual(merged);
      }),
    );
  });

  it('splits a range into consecutive windows of at most the maximum, oldest first', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 9 }),
        fc.integer({ min: 1, max: 10 ** 7 }).chain((max) => fc.tuple(fc.constant(max), fc.integer({ min: 0, max: max * 300 }))),
        (start, [max, length]) => {
          const windows = splitWindows(start, start + length, max);
          expect(windows.length).toBe(Math.ceil(length / max));
          let at = start;
          for (const w of windows) {
            expect(w.start).toBe(at);
            expect(w.end - w.start).toBeGreaterThan(0);
            expect(w.end - w.start).toBeLessThanOrEqual(max);
            at = w.end;
          }
          expect(at).toBe(Math.max(start, start + length));
        },
      ),
    );
  });

  it('counts reservations of concurrent callers holding the same stored record', () => {
    const ledger = new RequestLedger();
    const stored = [NOW - 100];
    expect(ledger.reserve('https://u:p@b.example/s', stored, NOW, 3)).toEqual({ ok: true, requests: [NOW - 100, NOW] });
    expect(ledger.reserve('https://u:p@b.example/s', stored, NOW, 3)).toEqual({ ok: true, requests: [NOW - 100, NOW, NOW] });
    expect(ledger.reserve('https://u:p@b.example/s', stored, NOW, 3)).toEqual({ ok: false, nextAt: NOW - 100 + DAY });
    expect(ledger.reserve('https://u:p@b.example/other', stored, NOW, 3).ok).toBe(true);
  });
});

describe('the daily quota at the bridge', () => {
  let bridge: SimplefinBridge;
  beforeEach(async () => {
    bridge = await startSimplefinBridge({ now: () => NOW });
  });
  afterEach(() => bridge.close());

  async function link(options: Partial<SimplefinConnectorOptions> = {}, accounts: BridgeAccount[] = yearOfAccounts()) {
    const connector = new SimplefinConnector({ transport: createHttpTransport({ mode: 'sandbox' }), allowUrl: simplefinUrlPolicy('sandbox'), ...options });
    const token = bridge.createSetupToken({ user: 'alice', accounts });
    const session = sessionOf(await connector.authenticate(ctx(NOW), [{ id: `${INST}001`, value: token }]));
    return { connector, session };
  }

  it('allows 24 requests a day, refuses the 25th without contacting the bridge, and allows again 24 hours after the first', async () => {
    const { connector, session: first } = await link();
    let session = first;
    // The sign-in made the first request; refreshes more than freshSeconds apart each make one.
    for (let i = 1; i < 24; i++) {
      const listed = ok(await connector.listAccounts(ctx(NOW + i * 1000), session));
      session = listed.session ?? session;
    }
    expect(bridge.accountRequests('alice')).toHaveLength(24);
    const refused = failure(await connector.listAccounts(ctx(NOW + 24 * 1000), session));
    expect(refused.code).toBe(102);
    expect(refused.message).toBe(
      `The SimpleFIN bridge allows 24 requests a day for this connection and they are used up; the next is allowed from ${formatEpoch(NOW + DAY)}.`,
    );
    // History loads count against the same quota.
    expect(failure(await connector.fetchTransactions(ctx(NOW + 24 * 1000), session, 'ACT-A', NOW - 80 * DAY, NOW)).code).toBe(102);
    failure(await connector.listAccounts(ctx(NOW + DAY - 1), session));
    expect(bridge.accountRequests('alice')).toHaveLength(24);

    ok(await connector.listAccounts(ctx(NOW + DAY), session));
    expect(bridge.accountRequests('alice')).toHaveLength(25);
  });

  it('keeps the count in the session, so another process holding it refuses too', async () => {
    const { connector, session: first } = await link({ dailyQuota: 3 });
    let session = first;
    for (const at of [1000, 2000]) session = ok(await connector.listAccounts(ctx(NOW + at), session)).session ?? session;
    const stored = JSON.parse(JSON.stringify(session)) as ConnectorSession;
    expect(stored.requests).toEqual([NOW, NOW + 1000, NOW + 2000]);
    const elsewhere = new SimplefinConnector({ transport: createHttpTransport({ mode: 'sandbox' }), allowUrl: simplefinUrlPolicy('sandbox'), dailyQuota: 3 });
    expect(failure(await elsewhere.listAccounts(ctx(NOW + 3000), stored)).code).toBe(102);
    expect(bridge.accountRequests('alice')).toHaveLength(3);
  });

  it('counts failed requests, which cannot replace the stored session', async () => {
    const { connector, session } = await link({ dailyQuota: 3 });
    bridge.fault({ status: 500 });
    expect(failure(await connector.listAccounts(ctx(NOW + 1000), session)).code).toBe(102);
    expect(failure(await connector.listAccounts(ctx(NOW + 2000), session)).code).toBe(102);
    bridge.fault(undefined);
    const refused = failure(await connector.listAccounts(ctx(NOW + 3000), session));
    expect(refused.message).toMatch(/used up/);
    expect(bridge.accountRequests('alice').map((r) => r.status)).toEqual([200, 500, 500]);
  });

  it('lets only one of two concurrent refreshes take the last request', async () => {
    const { connector, session } = await link({ dailyQuota: 2 });
    const results = await Promise.all([connector.listAccounts(ctx(NOW + 1000), session), connector.listAccounts(ctx(NOW + 1000), session)]);
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
    expect(bridge.accountRequests('alice')).toHaveLength(2);
  });

  it('serves calls within freshSeconds of an answer from the session, without a request', async () => {
    const { connector, session } = await link();
    const listed = ok(await connector.listAccounts(ctx(NOW + 60), session));
    expect(listed.session).toBeUndefined();
    const recent = ok(await connector.fetchTransactions(ctx(NOW + 60), session, 'ACT-A', NOW - 10 * DAY, NOW + 60));
    expect(recent.value.map((t) => t.ref)).toEqual(['ACT-A:A-1', 'ACT-A:A-0']);
    expect(bridge.accountRequests('alice')).toHaveLength(1);
  });

  it('loads a long history in windows of at most 90 days, oldest first, once for all accounts', async () => {
    const { connector, session } = await link({ historyDays: 365 });
    const from = NOW - 365 * DAY;
    const a = ok(await connector.fetchTransactions(ctx(NOW), session, 'ACT-A', from, NOW));
    const windows = bridge.accountRequests('alice').slice(1);
    const ranges = windows.map((r) => [Number(r.query['start-date']?.[0]), Number(r.query['end-date']?.[0])] as const);
    expect(ranges.length).toBe(4);
    for (const [start, end] of ranges) expect(end - start).toBeLessThanOrEqual(90 * DAY);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]?.[0]).toBe(ranges[i - 1]?.[1]);
    expect(ranges[0]?.[0]).toBe(NOW + 1 - 365 * DAY);
    // The last window ends where the sign-in's recent answer begins.
    expect(ranges[3]?.[1]).toBe(NOW + 1 - 14 * DAY);
    expect(windows.every((r) => r.status === 200)).toBe(true);
    // Every transaction of the last 365 days, oldest first, none twice.
    const expected = Array.from({ length: 73 }, (_, i) => `ACT-A:A-${72 - i}`);
    expect(a.value.map((t) => t.ref)).toEqual(expected);
    // The other account's history came with the same answers.
    const b = ok(await connector.fetchTransactions(ctx(NOW), a.session ?? session, 'ACT-B', from, NOW));
    expect(b.value).toHaveLength(73);
    expect(bridge.accountRequests('alice')).toHaveLength(5);
  });

  it('stops a history load when the quota would be exceeded, returning what it fetched and a session that counts it', async () => {
    const { connector, session } = await link({ historyDays: 365, dailyQuota: 3 });
    const partial = ok(await connector.fetchTransactions(ctx(NOW), session, 'ACT-A', NOW - 365 * DAY, NOW));
    expect(bridge.accountRequests('alice')).toHaveLength(3);
    // The two oldest windows (180 days) and the sign-in's recent answer (14 days).
    const dates = partial.value.map((t) => t.transactionDate);
    expect(Math.min(...dates)).toBeGreaterThanOrEqual(NOW + 1 - 365 * DAY);
    expect(partial.value.filter((t) => t.transactionDate < NOW + 1 - 185 * DAY)).toHaveLength(36);
    expect(partial.value.filter((t) => t.transactionDate >= NOW + 1 - 185 * DAY && t.transactionDate < NOW - 14 * DAY)).toHaveLength(0);
    expect(partial.value.filter((t) => t.transactionDate >= NOW - 14 * DAY)).toHaveLength(3);
    if (!partial.session) throw new Error('expected a replacement session');
    expect(partial.session.requests).toEqual([NOW, NOW, NOW]);
    expect(simplefinNotices(partial.session).map((n) => n.message)).toEqual([
      `Transactions posted from ${formatEpoch(NOW + 1 - 185 * DAY)} to ${formatEpoch(NOW + 1 - 14 * DAY)} were not loaded: the bridge's daily request quota was used up.`,
    ]);
    const next = failure(await connector.fetchTransactions(ctx(NOW + 60), partial.session, 'ACT-A', NOW - 365 * DAY, NOW));
    expect(next.message).toMatch(/used up; the next is allowed from/);
    expect(bridge.accountRequests('alice')).toHaveLength(3);
  });

  it('never asks the bridge for more than its maximum range, whatever the options', async () => {
    await bridge.close();
    bridge = await startSimplefinBridge({ now: () => NOW, maxRangeDays: 30 });
    const { connector, session } = await link({ historyDays: 200, maxWindowDays: 30, recentDays: 45 });
    ok(await connector.fetchTransactions(ctx(NOW), session, 'ACT-A', NOW - 200 * DAY, NOW));
    const requests = bridge.accountRequests('alice');
    expect(requests.every((r) => r.status === 200)).toBe(true);
    expect(requests.map((r) => (Number(r.query['end-date']?.[0]) - Number(r.query['start-date']?.[0])) / DAY)).toEqual([30, 30, 30, 30, 30, 30, 20]);
  });
});
