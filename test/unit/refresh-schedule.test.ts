import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimplefinConnector } from '../../src/connectors/simplefin/connector.js';
import { writeSession } from '../../src/connectors/simplefin/session.js';
import { simplefinUrlPolicy } from '../../src/connectors/simplefin/token.js';
import { TEST_INSTITUTIONS } from '../../src/connectors/testbank/institutions.js';
import { ConfigError, loadConfig } from '../../src/main/config.js';
import { USER_FIXABLE_CODES } from '../../src/modules/aggregation/failures.js';
import {
  DEFAULT_REFRESH_INTERVAL_SECONDS,
  FIRST_RETRY_SECONDS,
  jittered,
  nextRefresh,
  REFRESH_JITTER,
  retryDelaySeconds,
  scheduleAfter,
} from '../../src/modules/aggregation/schedule.rules.js';
import { ManualClock } from '../../src/platform/clock.js';

const HOUR = 3600;
const DAY = 24 * HOUR;
const NOW = 1_790_000_000;
const noJitter = () => 0.5;

describe('when a login is refreshed next', () => {
  it('after a success: the interval from now, moved by at most 10% either way', () => {
    expect(nextRefresh({ code: 0, failures: 3, now: NOW, intervalSeconds: DAY }, noJitter)).toEqual({ dueAt: NOW + DAY, failures: 0 });
    expect(nextRefresh({ code: 0, failures: 0, now: NOW, intervalSeconds: DAY }, () => 0).dueAt).toBe(NOW + DAY - DAY / 10);
    expect(nextRefresh({ code: 0, failures: 0, now: NOW, intervalSeconds: DAY }, () => 0.999999).dueAt).toBe(NOW + DAY + DAY / 10);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 720 * HOUR }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (seconds, r) => {
        const moved = jittered(seconds, () => r);
        expect(Math.abs(moved - seconds)).toBeLessThanOrEqual(Math.ceil(seconds * REFRESH_JITTER));
      }),
    );
  });

  it('after a temporary failure: 15 minutes, doubling with every failure in a row, never more than the interval', () => {
    const delays = Array.from({ length: 10 }, (_, i) => retryDelaySeconds(i + 1, DAY));
    expect(delays).toEqual([900, 1800, 3600, 7200, 14400, 28800, 57600, DAY, DAY, DAY]);
    expect(retryDelaySeconds(1, 3 * HOUR)).toBe(FIRST_RETRY_SECONDS);
    expect(retryDelaySeconds(5000, 3 * HOUR)).toBe(3 * HOUR);

    let failures = 0;
    const due: number[] = [];
    for (let i = 0; i < 9; i++) {
      const next = nextRefresh({ code: 102, failures, now: NOW, intervalSeconds: DAY }, noJitter);
      failures = next.failures;
      due.push(next.dueAt! - NOW);
    }
    expect(failures).toBe(9);
    expect(due).toEqual(delays.slice(0, 9));
    // Anything not the user's to fix counts as temporary, and a success starts over.
    expect(nextRefresh({ code: 999, failures: 0, now: NOW, intervalSeconds: DAY }, noJitter)).toEqual({ dueAt: NOW + 900, failures: 1 });
    expect(nextRefresh({ code: 0, failures, now: NOW, intervalSeconds: DAY }, noJitter).failures).toBe(0);
  });

  it('after a failure only the user can fix: not at all', () => {
    for (const code of [103, 108, 109, 185, 187, 945, 946, 947, 948]) {
      expect(USER_FIXABLE_CODES.has(code)).toBe(true);
      expect(nextRefresh({ code, failures: 2, now: NOW, intervalSeconds: DAY }, noJitter)).toEqual({ dueAt: null, failures: 2 });
    }
  });

  it('plans real institutions’ logins on the service clock with the configured interval, never test bank or statement-file ones', () => {
    const clock = new ManualClock(NOW * 1000);
    const runtime = (hours: string) => ({ clock, config: loadConfig({ LEDGERLINK_REFRESH_INTERVAL_HOURS: hours }) });
    for (const t of TEST_INSTITUTIONS) expect(scheduleAfter(runtime('24'), { institution_id: t.id }, 0)).toEqual({});
    expect(scheduleAfter(runtime('24'), { institution_id: 600_001, source: 'statement-file' }, 0)).toEqual({});
    const planned = scheduleAfter(runtime('6'), { institution_id: 590_000 }, 0);
    expect(planned.refresh_failures).toBe(0);
    expect(Math.abs(Number(planned.refresh_due_at) - (NOW + 6 * HOUR))).toBeLessThanOrEqual(0.6 * HOUR);
    expect(scheduleAfter(runtime('6'), { institution_id: 600_001, refresh_failures: 1 }, 102)).toMatchObject({ refresh_failures: 2 });
    expect(scheduleAfter(runtime('6'), { institution_id: 600_001 }, 103)).toEqual({ refresh_due_at: null, refresh_failures: 0 });
    // Off (0): logins are still planned, a day apart, so turning it on later starts from sensible times.
    const off = scheduleAfter(runtime('0'), { institution_id: 600_001 }, 0);
    expect(Math.abs(Number(off.refresh_due_at) - (NOW + DEFAULT_REFRESH_INTERVAL_SECONDS))).toBeLessThanOrEqual(DAY / 10);
  });
});

describe('the settings', () => {
  it('refresh every 24 hours by default, 4 logins at a time per worker, 2 at a time per institution; 0 hours turns it off', () => {
    expect(loadConfig({})).toMatchObject({ refreshIntervalSeconds: DAY, refreshConcurrency: 4, refreshInstitutionConcurrency: 2 });
    expect(
      loadConfig({ LEDGERLINK_REFRESH_INTERVAL_HOURS: '6', LEDGERLINK_REFRESH_CONCURRENCY: '16', LEDGERLINK_REFRESH_INSTITUTION_CONCURRENCY: '5' }),
    ).toMatchObject({
      refreshIntervalSeconds: 6 * HOUR,
      refreshConcurrency: 16,
      refreshInstitutionConcurrency: 5,
    });
    expect(loadConfig({ LEDGERLINK_REFRESH_INTERVAL_HOURS: '0' }).refreshIntervalSeconds).toBe(0);
  });

  it.each([
    ['LEDGERLINK_REFRESH_INTERVAL_HOURS', '-1'],
    ['LEDGERLINK_REFRESH_INTERVAL_HOURS', '1.5'],
    ['LEDGERLINK_REFRESH_INTERVAL_HOURS', '721'],
    ['LEDGERLINK_REFRESH_INTERVAL_HOURS', 'daily'],
    ['LEDGERLINK_REFRESH_CONCURRENCY', '0'],
    ['LEDGERLINK_REFRESH_CONCURRENCY', '65'],
    ['LEDGERLINK_REFRESH_INSTITUTION_CONCURRENCY', '0'],
    ['LEDGERLINK_REFRESH_INSTITUTION_CONCURRENCY', '257'],
    ['LEDGERLINK_REFRESH_INSTITUTION_CONCURRENCY', 'two'],
  ])('refuse %s=%s, naming the setting', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

describe('SimpleFIN and the schedule', () => {
  const connector = new SimplefinConnector({ transport: async () => ({ status: 500, body: '' }) as never, allowUrl: simplefinUrlPolicy('sandbox') });
  const session = (requests: number[]) => writeSession({ accessUrl: 'https://user:secret@bridge.example/simplefin', requests, notices: [] });
  const ctx = { institutionId: 590_000, now: NOW };

  it('lets a scheduled refresh ask only while the last day holds fewer than half the quota of requests', () => {
    const hourly = (n: number) => Array.from({ length: n }, (_, i) => NOW - (n - i) * HOUR);
    expect(connector.backgroundRefreshAt(ctx, session([]))).toBe(NOW);
    expect(connector.backgroundRefreshAt(ctx, session(hourly(11)))).toBe(NOW);
    // 12 requests in the last day (24 a day is the quota): the next scheduled one waits until the oldest of them is a day old.
    expect(connector.backgroundRefreshAt(ctx, session(hourly(12)))).toBe(NOW - 12 * HOUR + DAY);
    expect(connector.backgroundRefreshAt(ctx, session(hourly(24)))).toBe(NOW - 12 * HOUR + DAY);
    // Requests older than a day no longer count.
    expect(connector.backgroundRefreshAt(ctx, session(hourly(12).map((t) => t - DAY)))).toBe(NOW);
  });
});
