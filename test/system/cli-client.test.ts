import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onceOnly, STORE_NEUTRAL } from '../helpers/db.js';
import { connectWebhookSecret } from '../../src/modules/connect/webhooks.service.js';
import { createPartner, type PartnerCredentials } from '../../src/modules/partners/service.js';
import { seedCustomers } from '../../src/modules/sandbox/seed.service.js';
import { enqueueDelivery } from '../../src/outbox/enqueue.js';
import { cliArgs, runCli, startProcess, startServe, type ServerProcess } from '../helpers/cli.js';
import { startListener, waitFor, type Listener } from '../helpers/listener.js';
import { processHarness, type ProcessStore } from '../helpers/process-store.js';

/** Nothing of the test runner's own configuration leaks into the CLI: no store, no service, no profile. */
function cleanEnv(home: string): Record<string, string | undefined> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: undefined,
    LEDGERLINK_CONFIG: undefined,
    LEDGERLINK_PROFILE: undefined,
    LEDGERLINK_URL: undefined,
    LEDGERLINK_APP_KEY: undefined,
    LEDGERLINK_PARTNER_ID: undefined,
    LEDGERLINK_PARTNER_SECRET: undefined,
    DATABASE_URL: undefined,
    LEDGERLINK_DATA_DIR: undefined,
    LEDGERLINK_MASTER_KEY: undefined,
  };
}

const tempDir = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `ledgerlink-${name}-`));

/** Everything below a directory, as paths relative to it. */
function tree(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true }).map(String).sort();
}

describe.each(STORE_NEUTRAL)('the CLI in client mode, against a running service on %s', (dialect) => {
  const { openStore, processes, afterTest } = processHarness(dialect);
  let store: ProcessStore;
  let server: ServerProcess;
  let other: PartnerCredentials;
  const listeners: Listener[] = [];

  /** Client-mode environment for a partner: its credentials in the LEDGERLINK_* variables, no store anywhere. */
  const envFor = (who: PartnerCredentials, home = tempDir('home')) => ({
    ...cleanEnv(home),
    LEDGERLINK_URL: server.url,
    LEDGERLINK_APP_KEY: who.appKey,
    LEDGERLINK_PARTNER_ID: who.partnerId,
    LEDGERLINK_PARTNER_SECRET: who.partnerSecret,
  });
  const client = (args: string[], who: PartnerCredentials = store.partner) => runCli(args, envFor(who), { cwd: tempDir('cwd') });

  async function target(): Promise<Listener> {
    const l = await startListener();
    listeners.push(l);
    return l;
  }

  afterTest(async () => {
    for (const l of listeners.splice(0)) await l.close();
  });

  beforeAll(async () => {
    // Every client command authenticates once: more than the default 20 a minute per app key here.
    store = await openStore({ LEDGERLINK_AUTH_RATE_LIMIT_PER_APP_KEY: '1000', LEDGERLINK_AUTH_RATE_LIMIT_PER_IP: '1000' });
    server = await startServe(['--data', store.data], store.env);
    other = await createPartner(store.runtime, { name: 'Other' });
  }, 120_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
  });

  it('login checks the credentials with the service and saves a 0600 profile the other commands use; wrong ones save nothing', async () => {
    const home = tempDir('home');
    const env = { ...cleanEnv(home), LEDGERLINK_CONFIG: path.join(home, 'profiles', 'ledgerlink.json') };
    const args = ['login', '--url', server.url, '--app-key', store.partner.appKey, '--partner-id', store.partnerId];
    const wrong = await runCli(args, env, { input: 'not-the-secret\n' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(new RegExp(`^error: the service at ${server.url} refused the credentials of partner ${store.partnerId}: Invalid credentials`));
    expect(wrong.stderr).toMatch(/\nhint: .*nothing was saved\n$/);
    expect(fs.existsSync(env.LEDGERLINK_CONFIG)).toBe(false);

    // The secret on stdin (as a pipe gives it), never on the command line.
    const login = await runCli(args, env, { input: `${store.partner.partnerSecret}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toBe(
      `Logged in to ${server.url} as partner ${store.partnerId}: saved as profile default in ${env.LEDGERLINK_CONFIG} (readable by you only).\n`,
    );
    expect(fs.statSync(env.LEDGERLINK_CONFIG).mode & 0o777).toBe(0o600);

    const mail = await runCli(['mail', 'list', '--json'], env, { cwd: tempDir('cwd') });
    expect([mail.code, mail.stderr]).toEqual([0, '']);
    expect(JSON.parse(mail.stdout)).toHaveProperty('messages');
    // A profile of that name is what --profile names; another is not there.
    const missing = await runCli(['mail', 'list', '--profile', 'staging'], env);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      `error: no profile staging in ${env.LEDGERLINK_CONFIG}\nhint: save one with \`ledgerlink login --profile staging ...\`\n`,
    ]);

    // The secret from LEDGERLINK_PARTNER_SECRET, into a profile of another name.
    const staging = await runCli([...args, '--profile', 'staging'], { ...env, LEDGERLINK_PARTNER_SECRET: store.partner.partnerSecret });
    expect(staging.stdout).toMatch(/ saved as profile staging in /);
    expect((await runCli(['mail', 'list', '--profile', 'staging'], env)).code).toBe(0);
    expect((await runCli(['logout', '--profile', 'staging'], env)).stdout).toBe(`Removed profile staging from ${env.LEDGERLINK_CONFIG}.\n`);

    const logout = await runCli(['logout'], env);
    expect(logout.stdout).toBe(`Removed profile default from ${env.LEDGERLINK_CONFIG}.\n`);
    const after = await runCli(['mail', 'list'], env, { cwd: tempDir('cwd') });
    expect(after.code).toBe(2);
    expect(after.stderr).toMatch(/^error: no Ledgerlink service to talk to/);
  });

  it('wrong credentials in the environment are a clear failure (exit 1) naming where they came from', async () => {
    const res = await runCli(['deliveries', 'list'], { ...envFor(store.partner), LEDGERLINK_PARTNER_SECRET: 'wrong-secret' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(new RegExp(`^error: the service at ${server.url} refused the credentials of partner ${store.partnerId}: Invalid credentials`));
    expect(res.stderr).toMatch(/\nhint: check the app key, partner id and secret \(from the LEDGERLINK_\* variables\), or run `ledgerlink login` again\n$/);
    // Before the partner's lock-out: the secret that works clears the count.
    expect((await client(['mail', 'list'])).code).toBe(0);
  });

  it("logs tail, mail list, and deliveries list and redeliver show the partner's own data at the service", { timeout: 90_000 }, async () => {
    const hook = await target();
    const db = store.runtime.database.kysely;
    const mine = await enqueueDelivery(db, store.runtime, {
      kind: 'webhook',
      partnerId: store.partnerId,
      url: hook.url,
      body: '{"eventType":"added"}',
      contentType: 'application/json',
    });
    const theirs = await enqueueDelivery(db, store.runtime, {
      kind: 'webhook',
      partnerId: other.partnerId,
      url: hook.url,
      body: '{}',
      contentType: 'application/json',
    });
    await enqueueDelivery(db, store.runtime, {
      kind: 'email',
      partnerId: store.partnerId,
      to: 'ada@example.com',
      subject: 'Link your bank',
      text: 'Open the link',
    });
    await waitFor(
      'both webhooks and the e-mail delivered',
      async () => (await db.selectFrom('deliveries').select('status').where('status', '!=', 'delivered').execute()).length === 0,
    );

    const listed = await client(['deliveries', 'list', '--json']);
    expect([listed.code, listed.stderr]).toEqual([0, '']);
    const ids = JSON.parse(listed.stdout).deliveries.map((d: { id: number }) => d.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    const text = await client(['deliveries', 'list', '--kind', 'webhook', '--status', 'delivered']);
    expect(text.stdout).toContain(`#${mine.id}  webhook  delivered`);
    const again = await client(['deliveries', 'redeliver', String(mine.id)]);
    expect(again.stdout).toBe(`Delivery ${mine.id} (event ${mine.eventId}) will be sent again now.\n`);
    await waitFor('the redelivery', () => hook.requests.filter((r) => r.eventId === mine.eventId).length === 2);
    // Another partner's delivery looks like an unknown one, and is not sent again.
    const refused = await client(['deliveries', 'redeliver', String(theirs.id)]);
    expect([refused.code, refused.stderr]).toEqual([1, `error: Delivery ${theirs.id} not found\n`]);

    const mail = await client(['mail', 'list']);
    expect(mail.stdout).toContain('Subject: Link your bank');
    expect((await client(['mail', 'list', '--json'], other)).stdout).toBe('{"messages":[]}\n');

    await fetch(`${server.url}/aggregation/v1/customers/42`, { headers: { 'service-app-key': store.partner.appKey, 'service-app-token': 'nope' } });
    let entries: Array<{ path: string; status: number; partner_id: string }> = [];
    await waitFor('the request in the log', async () => {
      const res = await client(['logs', 'tail', '--json', '--status', '4xx', '--limit', '1000']);
      entries = res.stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      return entries.some((e) => e.path === '/aggregation/v1/customers/42');
    });
    expect(entries.every((e) => e.status >= 400 && e.status < 500 && e.partner_id === store.partnerId)).toBe(true);
    // The CLI's own calls are not in the log it reads.
    const all = await client(['logs', 'tail', '--limit', '1000']);
    expect(all.stdout).not.toContain('/cli/v1/');
    expect(all.stdout).toMatch(/POST +\/aggregation\/v2\/partners\/authentication {2}200/);
    const badFilter = await client(['logs', 'tail', '--status', 'teapot']);
    expect(badFilter.code).toBe(2);
    expect(badFilter.stderr).toMatch(/^error: Invalid parameter \(status\)/);
  });

  it('sandbox clock, error and reset, and trigger, act through the sandbox API for the partner of the credentials', { timeout: 90_000 }, async () => {
    const seed = await seedCustomers(store.runtime, { partnerId: store.partnerId, plan: 'testdrive', customers: 1, profile: 'profile_01' });
    const customerId = String(seed.firstCustomerId);
    const login = await store.runtime.database.kysely
      .selectFrom('institution_logins')
      .select('id')
      .where('customer_id', '=', seed.firstCustomerId)
      .executeTakeFirstOrThrow();
    const acted = `Acted for partner ${store.partnerId} (the partner of the service credentials, at ${server.url}).\n`;

    const clock = await client(['sandbox', 'clock', customerId, '--days', '3']);
    expect([clock.code, clock.stderr]).toEqual([0, acted]);
    expect(clock.stdout).toMatch(new RegExp(`^Customer ${customerId}'s clock moved ahead 3 days; .*\\n  institution login ${login.id}: refreshed\\n$`));
    const broken = await client(['sandbox', 'error', customerId, String(login.id), '--code', '185', '--json']);
    expect(JSON.parse(broken.stdout)).toMatchObject({ institutionLoginId: String(login.id), aggregationStatusCode: 185 });
    const cleared = await client(['sandbox', 'error', customerId, String(login.id), '--clear']);
    expect(cleared.stdout).toBe(`Institution login ${login.id} is healthy again.\n`);
    const badCode = await client(['sandbox', 'error', customerId, String(login.id), '--code', '999']);
    expect(badCode.code).toBe(1);
    expect(badCode.stderr).toMatch(/^error: Invalid parameter \(code\): 999 is not an error state/);

    const hook = await target();
    const fired = await client(['trigger', 'connect.added', '--customer', customerId, '--webhook', hook.url]);
    expect([fired.code, fired.stderr]).toEqual([0, acted]);
    expect(fired.stdout).toMatch(
      new RegExp(`^Queued Connect webhook added \\(event evt_\\w+\\) for customer ${customerId} to .*\\nThe service at ${server.url} delivers it\\.\\n$`),
    );
    await waitFor('the webhook at the partner', () => hook.requests.length === 1);

    // Another partner's customer looks unknown; naming another partner is a usage mistake.
    const foreign = await client(['sandbox', 'reset', customerId], other);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/^error: .*not found/i);
    const elsewhere = await client(['sandbox', 'reset', customerId, '--partner', other.partnerId]);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toMatch(new RegExp(`^error: --partner ${other.partnerId} is not the partner of the service credentials \\(${store.partnerId}\\)`));

    const reset = await client(['sandbox', 'reset', customerId]);
    expect(reset.stdout).toMatch(new RegExp(`^Customer ${customerId} reset: 1 institution logins and \\d+ accounts removed\\.\\n$`));
  });

  it('listen takes what the service holds for it, forwards it signed as sent, reports the answer, and unregisters when it stops', {
    timeout: 90_000,
  }, async () => {
    const seed = await seedCustomers(store.runtime, { partnerId: store.partnerId, plan: 'testdrive', customers: 1, profile: 'profile_01' });
    const customerId = String(seed.firstCustomerId);
    const partnerHook = await target();
    const forward = await target();
    const listen = await startProcess(cliArgs(['listen', '--forward-to', forward.url]), envFor(store.partner), 60_000, /held for (listen:\/\/\d+)/);
    processes.push(listen);
    const listenerTarget = listen.url;
    expect(listen.stdout()).toContain(`of partner ${store.partnerId} from ${server.url}`);

    const fired = await client(['trigger', 'connect.added', '--customer', customerId, '--webhook', partnerHook.url, '--json']);
    const { eventId } = JSON.parse(fired.stdout);
    await waitFor('the webhook at the partner and at the forward target', () => partnerHook.requests.length === 1 && forward.requests.length === 1);
    const [atPartner, atForward] = [partnerHook.requests[0]!, forward.requests[0]!];
    expect([atForward.eventId, atForward.body]).toEqual([eventId, atPartner.body]);
    const body = new Webhook(connectWebhookSecret(store.runtime, store.partnerId)).verify(atForward.body, atForward.headers as Record<string, string>);
    expect(body).toMatchObject({ eventType: 'added', customerId });
    await waitFor(
      'the printed lines',
      () => listen.stdout().includes(`webhook  connect.added  ${eventId}  customer ${customerId}`) && listen.stdout().includes(`→ ${forward.url}  200`),
    );

    // The copy is a delivery of its own, attempted by the listener.
    let copy: { state: string; target: string; attempts: Array<{ statusCode: number; workerId: string }> } | undefined;
    await waitFor('the outcome recorded', async () => {
      const listed = JSON.parse((await client(['deliveries', 'list', '--json', '--target', listenerTarget])).stdout);
      copy = listed.deliveries[0];
      return copy?.state === 'delivered';
    });
    expect(copy!.attempts.map((a) => [a.statusCode, a.workerId])).toEqual([[200, listenerTarget]]);

    listen.kill('SIGTERM');
    expect(await listen.exited).toBe(0);
    expect(await store.runtime.database.kysely.selectFrom('sandbox_listeners').select('url').where('url', '=', listenerTarget).execute()).toEqual([]);
    await client(['trigger', 'connect.done', '--customer', customerId, '--webhook', partnerHook.url]);
    await waitFor('the second webhook at the partner', () => partnerHook.requests.length === 2);
    expect(forward.requests.length).toBe(1);
  });
});

// Nothing here depends on a store: once, in the SQLite project.
describe.runIf(onceOnly)('the CLI with neither a service nor a store', () => {
  it('says how to configure one, exits 2, and creates nothing where it runs', async () => {
    const home = tempDir('home');
    const cwd = tempDir('cwd');
    for (const args of [
      ['logs', 'tail'],
      ['listen'],
      ['trigger', 'connect.added', '--customer', '1005000000'],
      ['sandbox', 'reset', '1005000000'],
      ['deliveries', 'list'],
      ['mail', 'list'],
    ]) {
      const res = await runCli(args, cleanEnv(home), { cwd });
      expect([res.code, res.stdout], args.join(' ')).toEqual([2, '']);
      expect(res.stderr, args.join(' ')).toBe(
        'error: no Ledgerlink service to talk to (client mode) and no data store given (direct mode)\n' +
          'hint: run `ledgerlink login --url URL --app-key KEY --partner-id ID`, or set LEDGERLINK_URL (with LEDGERLINK_APP_KEY, LEDGERLINK_PARTNER_ID and LEDGERLINK_PARTNER_SECRET); or pass --data DIR to open a data store directly\n',
      );
    }
    expect(tree(cwd)).toEqual([]);
    expect(tree(home)).toEqual([]);
  });

  it('refuses a --data directory that holds no store (exit 2) instead of making one', async () => {
    const cwd = tempDir('cwd');
    const res = await runCli(['logs', 'tail', '--data', 'data'], cleanEnv(tempDir('home')), { cwd });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `error: no data store in ${fs.realpathSync(cwd)}/data (no ledgerlink.sqlite)\nhint: give --data DIR of an existing store (or DATABASE_URL); \`ledgerlink partner create\` or \`ledgerlink seed\` start a new one\n`,
    );
    expect(tree(cwd)).toEqual([]);
  });

  it('says when the service cannot be reached (exit 1)', async () => {
    const env = {
      ...cleanEnv(tempDir('home')),
      LEDGERLINK_URL: 'http://127.0.0.1:9',
      LEDGERLINK_APP_KEY: 'k',
      LEDGERLINK_PARTNER_ID: '1',
      LEDGERLINK_PARTNER_SECRET: 's',
    };
    const res = await runCli(['mail', 'list'], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: cannot reach the Ledgerlink service at http:\/\/127\.0\.0\.1:9: .*\nhint: is `ledgerlink serve` running there\?/);
  });
});
