import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { STORE_NEUTRAL } from '../helpers/db.js';
import { connectWebhookSecret } from '../../src/modules/connect/webhooks.service.js';
import { createPartner } from '../../src/modules/partners/service.js';
import { seedCustomers } from '../../src/modules/sandbox/seed.service.js';
import { subscribe } from '../../src/modules/txpush/service.js';
import { cliArgs, runCli, startProcess, type ServerProcess } from '../helpers/cli.js';
import { freePort, startListener, waitFor, type Listener } from '../helpers/listener.js';
import { processHarness, type ProcessStore } from '../helpers/process-store.js';

describe.each(STORE_NEUTRAL)('ledgerlink sandbox, trigger and listen on %s', (dialect) => {
  const { openStore, worker, processes, afterTest } = processHarness(dialect);
  const listeners: Listener[] = [];
  afterTest(async () => {
    for (const l of listeners.splice(0)) await l.close();
  });

  async function target(): Promise<Listener> {
    const l = await startListener();
    listeners.push(l);
    return l;
  }

  async function startListen(store: ProcessStore, args: string[]): Promise<ServerProcess> {
    const p = await startProcess(cliArgs(['listen', ...args, '--data', store.data]), store.env, 60_000, /listening on (http:\/\/\S+)/);
    processes.push(p);
    return p;
  }

  /** A customer of the store's partner with linked test-bank accounts and transactions. */
  async function seeded(store: ProcessStore): Promise<{ customerId: string; accountId: string }> {
    const seed = await seedCustomers(store.runtime, { partnerId: store.partnerId, plan: 'testdrive', customers: 1, profile: 'profile_01' });
    const account = await store.runtime.database.kysely
      .selectFrom('accounts')
      .select('id')
      .where('customer_id', '=', seed.firstCustomerId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    return { customerId: String(seed.firstCustomerId), accountId: String(account.id) };
  }

  it('listen answers the verification, receives a push fired with `trigger`, prints it and forwards the same body', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const store = await openStore({ LEDGERLINK_PUSH_EXTRA_PORTS: String(port) });
    const { customerId, accountId } = await seeded(store);
    const forward = await target();
    const listen = await startListen(store, ['--forward-to', forward.url, '--port', String(port)]);
    expect(listen.url).toBe(`http://127.0.0.1:${port}/`);

    // The partner subscribes listen's URL: the handshake is answered by listen itself.
    const subs = await subscribe(store.runtime, { partnerId: store.partnerId, plan: 'testdrive' }, customerId, accountId, {
      callbackUrl: listen.url,
      format: 'json',
    });
    await waitFor('the handshake line', () => /verification +answered the handshake/.test(listen.stdout()));

    await worker(store, 'sandbox-worker');
    const fired = await runCli(
      ['trigger', 'transaction.created', '--partner', store.partnerId, '--customer', customerId, '--account', accountId, '--json', '--data', store.data],
      store.env,
    );
    expect(fired.code, fired.stderr).toBe(0);
    expect(JSON.parse(fired.stdout)).toMatchObject({ eventType: 'transaction.created', customerId, accountId, notifications: 1 });

    await waitFor('the forwarded push', () => forward.requests.length === 1);
    const got = forward.requests[0]!;
    const event = JSON.parse(got.body).event;
    expect(event).toMatchObject({ class: 'transaction', type: 'created' });
    expect(String(event.records[0].accountId)).toBe(accountId);
    // Forwarded unchanged: the subscription's signing key verifies it at the forward target.
    const key = subs.find((s) => s.type === 'transaction')!.signingKey;
    expect(() => new Webhook(key).verify(got.body, got.headers as Record<string, string>)).not.toThrow();
    await waitFor('the forward report', () => listen.stdout().includes(`→ ${forward.url}  200`));
    const line = listen
      .stdout()
      .split('\n')
      .find((l) => l.includes('transaction.created'))!;
    expect(line).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  txpush   transaction\\.created  ${got.eventId}  account ${accountId}  transaction ${event.records[0].id}$`),
    );
  });

  it("listen --partner receives the partner's webhooks without reconfiguring anything, and stops receiving when it ends", { timeout: 120_000 }, async () => {
    const store = await openStore();
    const { customerId } = await seeded(store);
    const partnerWebhook = await target();
    const forward = await target();
    const listen = await startListen(store, ['--partner', store.partnerId, '--forward-to', forward.url]);
    expect(listen.stdout()).toContain(`of partner ${store.partnerId}`);
    await worker(store, 'sandbox-worker');

    const fired = await runCli(['trigger', 'connect.added', '--customer', customerId, '--webhook', partnerWebhook.url, '--data', store.data], store.env);
    expect(fired.code, fired.stderr).toBe(0);
    expect(fired.stdout).toMatch(/^Queued Connect webhook added \(event evt_\w+\) for customer \d+ to /);

    await waitFor("the webhook at the partner and at listen's forward target", () => partnerWebhook.requests.length === 1 && forward.requests.length === 1);
    const [atPartner, atForward] = [partnerWebhook.requests[0]!, forward.requests[0]!];
    expect(atForward.body).toBe(atPartner.body);
    expect(atForward.eventId).toBe(atPartner.eventId);
    const body = new Webhook(connectWebhookSecret(store.runtime, store.partnerId)).verify(atForward.body, atForward.headers as Record<string, string>) as {
      eventType: string;
      customerId: string;
    };
    expect(body).toMatchObject({ eventType: 'added', customerId });
    await waitFor('the printed line', () => listen.stdout().includes(`webhook  connect.added  ${atPartner.eventId}  customer ${customerId}`));

    // Stopped, listen removes its registration: later events go to the partner only.
    listen.kill('SIGTERM');
    expect(await listen.exited).toBe(0);
    expect(await store.runtime.database.kysely.selectFrom('sandbox_listeners').selectAll().execute()).toEqual([]);
    const again = await runCli(['trigger', 'connect.done', '--customer', customerId, '--webhook', partnerWebhook.url, '--data', store.data], store.env);
    expect(again.code, again.stderr).toBe(0);
    await waitFor('the second webhook at the partner', () => partnerWebhook.requests.length === 2);
    expect(forward.requests.length).toBe(1);
  });

  it('sandbox clock, error and reset work from the command line', { timeout: 150_000 }, async () => {
    const store = await openStore();
    const { customerId } = await seeded(store);
    const login = await store.runtime.database.kysely
      .selectFrom('institution_logins')
      .select('id')
      .where('customer_id', '=', Number(customerId))
      .executeTakeFirstOrThrow();
    const run = (args: string[]) => runCli(['sandbox', ...args, '--data', store.data], store.env);

    const clock = await run(['clock', customerId, '--days', '3']);
    expect(clock.code, clock.stderr).toBe(0);
    expect(clock.stdout).toMatch(new RegExp(`^Customer ${customerId}'s clock moved ahead 3 days; .*\\n  institution login ${login.id}: refreshed\\n$`));
    const broken = await run(['error', customerId, String(login.id), '--code', '185', '--json']);
    expect(JSON.parse(broken.stdout)).toMatchObject({ institutionLoginId: String(login.id), aggregationStatusCode: 185 });
    const failing = await run(['clock', customerId, '--days', '1', '--json']);
    expect(JSON.parse(failing.stdout).institutionLogins).toEqual([{ institutionLoginId: String(login.id), aggregationStatusCode: 185 }]);
    const cleared = await run(['error', customerId, String(login.id), '--clear']);
    expect(cleared.stdout).toBe(`Institution login ${login.id} is healthy again.\n`);
    const badCode = await run(['error', customerId, String(login.id), '--code', '999']);
    // The store it opened, then the error in one line.
    expect([badCode.code, badCode.stderr.split('\n').length]).toEqual([1, 3]);
    expect(badCode.stderr).toMatch(/^store: .*\nerror: Invalid parameter \(code\): 999 is not an error state/);
    const reset = await run(['reset', customerId]);
    expect(reset.stdout).toMatch(new RegExp(`^Customer ${customerId} reset: 1 institution logins and \\d+ accounts removed\\.\\n$`));
    expect(await store.runtime.database.kysely.selectFrom('accounts').select('id').where('customer_id', '=', Number(customerId)).execute()).toEqual([]);
  });

  it('sandbox and trigger report mistakes as one line plus a hint, and refuse production-plan partners', { timeout: 150_000 }, async () => {
    const store = await openStore();
    const customerId = String(
      (await seedCustomers(store.runtime, { partnerId: store.partnerId, plan: 'testdrive', customers: 1, profile: 'profile_01' })).firstCustomerId,
    );
    const run = (args: string[]) => runCli(['sandbox', ...args, '--data', store.data], store.env);
    const unknown = await runCli(['trigger', 'account.exploded', '--customer', customerId, '--data', store.data], store.env);
    expect([unknown.code, unknown.stderr]).toEqual([2, 'error: unknown event "account.exploded"\nhint: run `ledgerlink trigger --help` for the list\n']);
    const noDays = await run(['clock', customerId]);
    expect(noDays.code).toBe(2);
    expect(noDays.stderr).toMatch(/^error: sandbox clock needs --days N\nhint: usage: ledgerlink sandbox /);
    // Production-plan partners are refused by every sandbox command, listen --partner included.
    const prod = await createPartner(store.runtime, { name: 'Production', plan: 'production' });
    for (const args of [
      ['sandbox', 'reset', customerId],
      ['trigger', 'connect.done', '--customer', customerId, '--webhook', 'http://127.0.0.1:9/hook'],
      ['listen', '--port', '0'],
    ]) {
      const refused = await runCli([...args, '--partner', prod.partnerId, '--data', store.data], store.env);
      expect([refused.code, refused.stderr.replace(/^store: .*\n/, '')], args.join(' ')).toEqual([
        1,
        `error: Partner ${prod.partnerId} is on the production plan: sandbox controls are only for partners on the Test Drive plan.\n`,
      ]);
    }
    const list = await runCli(['trigger', '--help']);
    expect(list.stdout).toContain('transaction.created');
    expect(list.stdout).toContain('connect.institutionLoginDeleted');
  });
});
