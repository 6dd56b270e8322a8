import { describe, expect, it } from 'vitest';
import { SYSTEM_DIALECTS } from '../helpers/db.js';
import { createEngine } from '../../src/modules/aggregation/engine.js';
import { finishLink, startLink } from '../../src/modules/aggregation/linking.service.js';
import { createCustomer } from '../../src/modules/customers/service.js';
import { addOfxInstitution } from '../../src/modules/institutions/service.js';
import { createPartner } from '../../src/modules/partners/service.js';
import { enqueuePushNotifications } from '../../src/modules/txpush/notify.service.js';
import { waitFor } from '../helpers/listener.js';
import { startOfxServer, type OfxServer, type OfxServerFailure, type OfxServerUser } from '../helpers/ofx-server.js';
import { processHarness } from '../helpers/process-store.js';
import type { Runtime } from '../../src/main/runtime.js';

const DAY = 86_400;

/** One checking account per user at a local OFX server, with one transaction three days before `now`. */
function ofxUsers(userIds: string[], now: number, failure?: OfxServerFailure): OfxServerUser[] {
  return userIds.map((userId) => ({
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
    ...(failure ? { failure } : {}),
  }));
}

/** Links each user of the server for a production customer of its own, due for its scheduled refresh at `now`; their login ids. */
async function linkDue(runtime: Runtime, server: OfxServer, userIds: string[], now: number): Promise<number[]> {
  const engine = createEngine(runtime, { onEventsRecorded: enqueuePushNotifications });
  const institutionId = await addOfxInstitution(
    runtime.database,
    'sandbox',
    { name: 'Harbor Test Credit Union', url: server.url, fid: '1234', org: 'HTCU' },
    now,
  );
  const partner = await createPartner(runtime, { name: 'Real data', plan: 'production' });
  const loginIds: number[] = [];
  for (const userId of userIds) {
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
  await runtime.database.kysely.updateTable('institution_logins').set({ refresh_due_at: now }).where('id', 'in', loginIds).execute();
  return loginIds;
}

/** Sign-ons that asked for the user's accounts: one per refresh. */
const signOns = (server: OfxServer, userId: string) =>
  server.requests.filter((r) => r.signon?.userId === userId && r.transactions.some((t) => t.kind === 'accountInfo')).length;

describe.each(SYSTEM_DIALECTS)('scheduled refresh in real worker processes on %s', (dialect) => {
  const { openStore, worker, stopAll, afterTest, processes } = processHarness(dialect);

  it('refreshes each due login of a real institution once, whichever worker claims it, and stops cleanly on SIGTERM', { timeout: 120_000 }, async () => {
    const users = ['ann', 'ben', 'cat', 'dan'];
    const now = Math.floor(Date.now() / 1000);
    // Slow enough that two workers would overlap on a login they both took.
    const ofx = await startOfxServer({ format: 'sgml', users: ofxUsers(users, now, { delayMs: 50 }) });
    afterTest(() => ofx.close());
    const store = await openStore();
    const { runtime } = store;
    const db = runtime.database.kysely;
    const loginIds = await linkDue(runtime, ofx, users, now);
    const linked = new Map(users.map((u) => [u, signOns(ofx, u)]));

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

    for (const userId of users) expect(signOns(ofx, userId) - linked.get(userId)!).toBe(1);
    for (const l of await db.selectFrom('institution_logins').selectAll().where('id', 'in', loginIds).execute()) {
      expect(l.aggregation_status_code).toBe(0);
      expect(l.refresh_lease_owner).toBeNull();
      expect(Number(l.refresh_due_at)).toBeGreaterThan(now + 0.8 * DAY);
    }
  });

  it('renews the lease while a worker waits on a slow institution, and lets another worker take the login once the first is killed and its lease runs out', {
    timeout: 120_000,
  }, async () => {
    const now = Math.floor(Date.now() / 1000);
    const ofx = await startOfxServer({ format: 'sgml', users: ofxUsers(['eve'], now) });
    afterTest(() => ofx.close());
    // A lease of two seconds, renewed every two thirds of a second while the refresh runs.
    const store = await openStore({ LEDGERLINK_REFRESH_LEASE_SECONDS: '2' });
    const db = store.runtime.database.kysely;
    const [loginId] = await linkDue(store.runtime, ofx, ['eve'], now);
    const lease = () =>
      db
        .selectFrom('institution_logins')
        .select(['refresh_lease_owner', 'refresh_lease_until', 'aggregation_success_at'])
        .where('id', '=', loginId!)
        .executeTakeFirstOrThrow();
    const linked = signOns(ofx, 'eve');

    ofx.hold('eve');
    const first = await worker(store, 'worker-a');
    await ofx.whenHeld(1, 'eve');
    const taken = await lease();
    expect(taken.refresh_lease_owner).toMatch(/^worker-a#/);
    // The institution keeps it waiting past the lease it took: the worker still holds it, further on.
    await waitFor(
      'the lease renewed past its first end',
      async () => {
        const now = await lease();
        return now.refresh_lease_owner === taken.refresh_lease_owner && Number(now.refresh_lease_until) > Number(taken.refresh_lease_until) + 2;
      },
      30_000,
    );

    // The worker dies mid-refresh: nothing renews the lease any more, and it runs out.
    first.kill('SIGKILL');
    await first.exited;
    ofx.release('eve');
    const held = await lease();
    await waitFor('the dead worker’s lease to run out', () => Math.floor(Date.now() / 1000) > Number(held.refresh_lease_until), 30_000);
    expect((await lease()).aggregation_success_at).toBeNull();

    await worker(store, 'worker-b');
    await waitFor('the login refreshed by the second worker', async () => (await lease()).aggregation_success_at !== null, 60_000);
    expect(await stopAll()).toEqual([0]);
    const row = await db.selectFrom('institution_logins').selectAll().where('id', '=', loginId!).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ aggregation_status_code: 0, refresh_lease_owner: null });
    // The dead worker's sign-on and the second worker's.
    expect(signOns(ofx, 'eve') - linked).toBe(2);
  });
});
