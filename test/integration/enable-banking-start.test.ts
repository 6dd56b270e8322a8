import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackgroundWork } from '../../src/main/background.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { startEnableBankingFake, type EnableBankingFake } from '../helpers/enable-banking.js';
import { waitFor } from '../helpers/listener.js';

/** What a worker does at start for Enable Banking: the bank list into the catalogue, and the application checked. */
describe('Enable Banking when the worker starts', () => {
  let fake: EnableBankingFake;
  let ctx: TestContext;
  let partner: TestPartner;
  let keyDir: string;
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  );

  beforeAll(async () => {
    // The application allows another callback than this service's.
    fake = await startEnableBankingFake({ redirectUrls: ['https://elsewhere.example/callback'] });
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'll-eb-start-'));
    ctx = await createTestContext({
      LEDGERLINK_ENABLE_BANKING_APP_ID: fake.appId,
      LEDGERLINK_ENABLE_BANKING_KEY_FILE: fake.writeKeyFile(keyDir),
      LEDGERLINK_ENABLE_BANKING_URL: fake.url,
      LEDGERLINK_PUBLIC_URL: 'https://ledgerlink.example.org',
      LEDGERLINK_REFRESH_INTERVAL_HOURS: '0',
    });
    partner = await partnerWithToken(ctx, 'production');
  });
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
    fs.rmSync(keyDir, { recursive: true, force: true });
  });

  it('lists the banks in the catalogue and warns, without stopping, that the callback is not registered', async () => {
    const work = await startBackgroundWork(ctx.runtime, logger);
    try {
      await waitFor('the callback warning', () => lines.some((l) => l.level === 40 && l.msg.includes('/connect/oauth/callback')));
      const warning = lines.find((l) => l.level === 40 && l.msg.includes('/connect/oauth/callback'))!;
      expect(warning.msg).toContain('enablebanking: ');
      expect(warning.msg).toContain('https://ledgerlink.example.org/connect/oauth/callback');
      await waitFor('the bank list', () => lines.some((l) => l.msg === 'institution list synchronised'));
      const found = await ctx.app.inject({ url: '/institution/v2/institutions?search=Aurora%20Pankki', headers: partner.headers });
      expect(found.json().institutions[0]).toMatchObject({ name: 'Aurora Pankki', currency: 'EUR' });
      // The key never reaches the log.
      const keyBody = fake.privateKeyPem.split('\n')[1]!;
      expect(lines.some((l) => JSON.stringify(l).includes(keyBody))).toBe(false);
    } finally {
      await work.stop();
    }
  });
});
