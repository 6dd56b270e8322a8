import { appRegistration } from '../helpers/apps.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { appStatuses, registerApp, settleApps } from '../../src/modules/apps/service.js';
import { runCli } from '../helpers/cli.js';
import { STORE_NEUTRAL } from '../helpers/db.js';
import { processHarness, type ProcessStore } from '../helpers/process-store.js';

const registration = (appName: string) => appRegistration(appName);

describe.each(STORE_NEUTRAL)('ledgerlink apps on %s', (dialect) => {
  const { openStore } = processHarness(dialect);
  let store: ProcessStore;
  const apps = (args: string[]) => runCli(['apps', ...args, '--data', store.data], store.env);
  const statusOf = async (preAppId: number) => (await appStatuses(store.runtime, store.partnerId, { preAppId: String(preAppId) })).applications[0]!;

  beforeAll(async () => {
    store = await openStore({ LEDGERLINK_MODE: 'production' });
  }, 120_000);

  it('approves and rejects production registrations, which stay pending until then', { timeout: 120_000 }, async () => {
    const kept = (await registerApp(store.runtime, store.partnerId, registration('Kept Budget'))).preAppId;
    const refused = (await registerApp(store.runtime, store.partnerId, registration('Refused Budget'))).preAppId;
    await settleApps(store.runtime, store.partnerId);
    expect(await statusOf(kept)).toMatchObject({ status: 'P' });

    const pending = await apps(['list', '--status', 'P', '--json']);
    expect(pending.code, pending.stderr).toBe(0);
    expect(JSON.parse(pending.stdout).applications.map((a: { preAppId: number }) => a.preAppId)).toEqual([kept, refused]);

    const approved = await apps(['approve', String(kept), '--json']);
    expect(approved.code, approved.stderr).toBe(0);
    const decision = JSON.parse(approved.stdout);
    expect(decision).toMatchObject({ preAppId: kept, partnerId: store.partnerId, appName: 'Kept Budget', status: 'A', note: 'Approved' });
    expect(await statusOf(kept)).toMatchObject({ status: 'A', applicationId: decision.applicationId });

    const noNote = await apps(['reject', String(refused)]);
    expect(noNote.code).toBe(2);
    expect(noNote.stderr).toContain('--note');
    const rejected = await apps(['reject', String(refused), '--note', 'The app URL does not answer.']);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.stdout).toContain(`App registration ${refused} (Refused Budget) of partner ${store.partnerId}: rejected.`);
    expect(await statusOf(refused)).toMatchObject({ status: 'R', note: 'The app URL does not answer.' });

    const listed = await apps(['list']);
    expect(listed.stdout).toContain('approved');
    expect(listed.stdout).toContain(decision.applicationId);
    const unknown = await apps(['approve', '99999999']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('App registration 99999999 not found.');
  });
});
