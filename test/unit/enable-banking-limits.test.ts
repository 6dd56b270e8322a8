import { describe, expect, it } from 'vitest';
import type { ConnectorSession } from '../../src/connectors/connector.js';
import { EnableBankingClient } from '../../src/connectors/enablebanking/client.js';
import { EnableBankingConnector } from '../../src/connectors/enablebanking/connector.js';
import { JwtSigner } from '../../src/connectors/enablebanking/jwt.js';
import {
  ReadLedger,
  readsOnDay,
  recentReads,
  scheduledReadAt,
  UNATTENDED_READS_PER_DAY,
  UNATTENDED_SPACING,
  unattendedReadAt,
} from '../../src/connectors/enablebanking/limits.js';
import { writeSession } from '../../src/connectors/enablebanking/session.js';
import { applicationKey, balance, STUB_BASE, stubApi } from '../helpers/enable-banking-stub.js';

const DAY = 86_400;
const HOUR = 3600;
const MIDNIGHT = Date.parse('2026-11-25T00:00:00Z') / 1000;

describe('the 4-a-day rule', () => {
  it('lets the scheduled refresh run at once, then 6 hours after the previous, and not a fifth time in a UTC day', () => {
    expect(UNATTENDED_READS_PER_DAY).toBe(4);
    expect(UNATTENDED_SPACING).toBe(6 * HOUR);
    expect(scheduledReadAt([], MIDNIGHT + HOUR)).toBe(MIDNIGHT + HOUR);
    expect(scheduledReadAt([MIDNIGHT + HOUR], MIDNIGHT + 2 * HOUR)).toBe(MIDNIGHT + 7 * HOUR);
    // Four early in the day (manual refreshes through the API): the scheduled one waits for the next UTC day.
    const four = [1, 2, 3, 4].map((h) => MIDNIGHT + h * HOUR);
    expect(scheduledReadAt(four, MIDNIGHT + 12 * HOUR)).toBe(MIDNIGHT + DAY);
    expect(unattendedReadAt(four, MIDNIGHT + 12 * HOUR)).toBe(MIDNIGHT + DAY);
    // Late in the day, 6 hours on is tomorrow, whose count starts again.
    expect(scheduledReadAt([MIDNIGHT + 22 * HOUR], MIDNIGHT + 23 * HOUR)).toBe(MIDNIGHT + DAY + 4 * HOUR);
  });

  it('lets a refresh someone asked for run whenever the day has room, however recent the last', () => {
    expect(unattendedReadAt([MIDNIGHT + HOUR], MIDNIGHT + HOUR + 60)).toBe(MIDNIGHT + HOUR + 60);
    expect(readsOnDay([MIDNIGHT - 1, MIDNIGHT, MIDNIGHT + DAY - 1, MIDNIGHT + DAY], MIDNIGHT + HOUR)).toBe(2);
  });

  it('forgets reads older than two days, and those of a clock since moved back more than a day', () => {
    const now = MIDNIGHT + 10 * HOUR;
    expect(recentReads([now - 3 * DAY, now - DAY, now, now, now + 2 * DAY], now)).toEqual([now - DAY, now]);
  });

  it('keeps the reads of this process by session, merged with what a session stored', () => {
    const ledger = new ReadLedger();
    expect(ledger.record('s-1', [MIDNIGHT + HOUR], MIDNIGHT + 2 * HOUR)).toEqual([MIDNIGHT + HOUR, MIDNIGHT + 2 * HOUR]);
    expect(ledger.recent('s-1', [], MIDNIGHT + 3 * HOUR)).toEqual([MIDNIGHT + HOUR, MIDNIGHT + 2 * HOUR]);
    expect(ledger.recent('s-2', [MIDNIGHT], MIDNIGHT + 3 * HOUR)).toEqual([MIDNIGHT]);
  });
});

describe('backgroundRefreshAt over simulated days', () => {
  it('lets a scheduler ticking every 10 minutes refresh 4 times each UTC day, 6 hours apart, while attended reads do not count', async () => {
    const api = stubApi({
      'GET /sessions/s-1': { body: { status: 'AUTHORIZED' } },
      'GET /accounts/uid-a/balances': { body: { balances: [balance('CLBD', '10.00')] } },
    });
    const client = new EnableBankingClient({
      baseUrl: new URL(STUB_BASE),
      transport: api.transport,
      signer: new JwtSigner('app', applicationKey().privateKey),
    });
    const bank = { name: 'OP', country: 'FI', psu_types: ['personal' as const], maximum_consent_validity: 180 * DAY, required_psu_headers: ['Psu-Ip-Address'] };
    const connector = new EnableBankingConnector({ client, bank, ledger: new ReadLedger(), mode: 'production' });
    let session: ConnectorSession = writeSession({
      sessionId: 's-1',
      psuType: 'personal',
      authorizedAt: MIDNIGHT - DAY,
      validUntil: MIDNIGHT + 90 * DAY,
      accounts: [{ ref: 'hash-a', uid: 'uid-a' }],
      unattended: [],
    });
    const start = MIDNIGHT + 3 * HOUR + 7 * 60;
    const runs: number[] = [];
    for (let now = start; now < start + 3 * DAY; now += 600) {
      // The customer opens Connect twice a day: those reads send the PSU headers and leave the schedule alone.
      if ((now - start) % (12 * HOUR) === 0) {
        const attended = await connector.listAccounts({ institutionId: 800_001, now, psu: { ipAddress: '198.51.100.7', userAgent: 'Firefox' } }, session);
        if (!attended.ok) throw new Error(attended.message);
        session = attended.session ?? session;
      }
      if (connector.backgroundRefreshAt({ institutionId: 800_001, now }, session) > now) continue;
      const result = await connector.listAccounts({ institutionId: 800_001, now }, session);
      if (!result.ok) throw new Error(`the scheduled refresh at ${now} failed: ${result.message}`);
      session = result.session ?? session;
      runs.push(now);
    }
    const byDay = new Map<number, number>();
    for (const run of runs) byDay.set(Math.floor(run / DAY), (byDay.get(Math.floor(run / DAY)) ?? 0) + 1);
    expect([...byDay.values()].every((n) => n <= UNATTENDED_READS_PER_DAY)).toBe(true);
    expect(runs.slice(1).every((run, i) => run - runs[i]! >= UNATTENDED_SPACING)).toBe(true);
    // Three days from 03:07 hold 12 slots 6 hours apart.
    expect(runs).toHaveLength(12);
    expect(session.unattended).toEqual(runs.filter((t) => t > runs[runs.length - 1]! - 2 * DAY));
  });
});
