import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/modules/aggregation/engine.js';
import { finishLink, startLink } from '../../src/modules/aggregation/linking.service.js';
import { createCustomer } from '../../src/modules/customers/service.js';
import { addOfxInstitution } from '../../src/modules/institutions/service.js';
import { createPartner } from '../../src/modules/partners/service.js';
import { waitFor } from '../helpers/listener.js';
import { startOfxServer } from '../helpers/ofx-server.js';
import { processHarness } from '../helpers/process-store.js';

const DAY = 86_400;

describe.each(['sqlite', 'postgres'] as const)('scheduled refresh in real worker processes on %s', (dialect) => {
  const { openStore, worker, stopAll, afterTest, processes } = processHarness(dialect);

  it('refreshes each due login of a real institution once, whichever worker claims it, and stops cleanly on SIGTERM', { timeout: 120_000 }, async () => {
    const users = ['ann', 'ben', 'cat', 'dan'];
    const now = Math.floor(Date.now() / 1000);
    const ofx = await startOfxServer({
      format: 'sgml',
      users: users.map((userId) => ({
        userId,
        password: 'pw-1',
        accounts: [
          {
            kind: 'bank' as const,
            bankId: '121000358',
            acctId: `CHK-${userId}`,
            acctType: 'CHECKING' as const,
            balance: 100,
            transactions: [{ fitId: 'F1', type: 'POS', posted: now - 3 * DAY, amount: -4.75, name: 'STARBUCKS 1234' }],
          },
        ],
        // Slow enough that two workers would overlap on a login they both took.
        failure: { delayMs: 50 },
      })),
    });
    afterTest(() => ofx.close());
    const store = await openStore();
    const { runtime } = store;
    const db = runtime.database.kysely;
    const engine = createEngine(runtime);
    const institutionId = await addOfxInstitution(
      runtime.database,
      'sandbox',
      { name: 'Harbor Test Credit Union', url: ofx.url, fid: '1234', org: 'HTCU' },
      now,
    );
    const partner = await createPartner(runtime, { name: 'Real data', plan: 'production' });
    const loginIds: number[] = [];
    for (const userId of users) {
      const customer = await createCustomer(runtime, { partnerId: partner.partnerId, plan: 'production' }, 'active', { username: `customer_${userId}` });
      const step = await startLink(engine, {
        partnerId: partner.partnerId,
        customerId: String(customer.id),
        institutionId,
        credentials: [
          { id: `${institutionId}001`, value: userId },
          { id: `${institutionId}002`, value: 'pw-1' },
        ],
      });
      if (step.step !== 'accounts') throw new Error(`linking failed: ${JSON.stringify(step)}`);
      loginIds.push((await finishLink(engine, { partnerId: partner.partnerId, sessionId: step.sessionId })).institutionLoginId);
    }
    // Due a day from now; make them due now.
    await db.updateTable('institution_logins').set({ refresh_due_at: now }).execute();
    const signOns = (userId: string) => ofx.requests.filter((r) => r.signon?.userId === userId && r.transactions.some((t) => t.kind === 'accountInfo')).length;
    const linked = new Map(users.map((u) => [u, signOns(u)]));

    await worker(store, 'worker-a');
    if (dialect === 'postgres') await worker(store, 'worker-b');
    const refreshed = async () =>
      (await db.selectFrom('institution_logins').select(['id', 'aggregation_success_at']).where('id', 'in', loginIds).execute()).every(
        (l) => l.aggregation_success_at !== null,
      );
    await waitFor('every login refreshed', refreshed, 60_000);
    const workers = [...processes];
    const codes = await stopAll();
    // A worker killed by a signal instead of exiting says why on its stderr.
    codes.forEach((code, i) => expect(code, `worker ${i} exit: ${workers[i]?.child.signalCode ?? ''} ${workers[i]?.stderr().slice(-2000)}`).toBe(0));

    for (const userId of users) expect(signOns(userId) - linked.get(userId)!).toBe(1);
    for (const l of await db.selectFrom('institution_logins').selectAll().where('id', 'in', loginIds).execute()) {
      expect(l.aggregation_status_code).toBe(0);
      expect(l.refresh_lease_owner).toBeNull();
      expect(Number(l.refresh_due_at)).toBeGreaterThan(now + 0.8 * DAY);
    }
  });
});
