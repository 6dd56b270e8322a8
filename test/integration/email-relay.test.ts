import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listMail } from '../../src/outbox/service.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { generate } from '../helpers/connect.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../helpers/smtp.js';

// What a stranger with a Test Drive partner would send: any recipient, a sender name and lines of their choosing.
const PHISH = { to: 'victim@example.com', institutionName: 'Your Bank Security Team', signature: ['Verify now: https://evil.example/login'] };

describe('Connect e-mail is no open relay', () => {
  let ctx: TestContext;
  let sink: SmtpSink;
  let smtpUrl: string;
  let received: ReceivedMail[];

  beforeEach(async () => {
    sink = await startSmtpSink();
    smtpUrl = sink.url;
    received = sink.received;
  });
  afterEach(async () => {
    await ctx.close();
    await sink.close();
  });

  async function sendAs(partner: TestPartner, email: Record<string, unknown> = PHISH) {
    const customerId = await addCustomer(ctx, partner);
    return generate(ctx, partner, 'email', { customerId, email });
  }

  it("keeps a Test Drive partner's e-mail in the local mailbox although SMTP_URL is set", async () => {
    ctx = await createTestContext({ SMTP_URL: smtpUrl });
    const stranger = await partnerWithToken(ctx, 'testdrive');
    expect((await sendAs(stranger)).statusCode).toBe(200);
    await drainDeliveries(ctx.runtime);
    expect(received).toEqual([]);
    expect(await listMail(ctx.runtime.database.kysely, { partnerId: stranger.partnerId })).toEqual([expect.objectContaining({ to: 'victim@example.com' })]);
    // A production partner (made by the operator) still sends through the server.
    const operatorMade = await partnerWithToken(ctx, 'production');
    expect((await sendAs(operatorMade, { to: 'customer@example.com' })).statusCode).toBe(200);
    await drainDeliveries(ctx.runtime);
    expect(received.map((r) => r.to)).toEqual([['customer@example.com']]);
  });

  it('sends Test Drive e-mail through SMTP_URL only when the operator allows it with LEDGERLINK_TESTDRIVE_SMTP', async () => {
    ctx = await createTestContext({ SMTP_URL: smtpUrl, LEDGERLINK_TESTDRIVE_SMTP: 'on' });
    const partner = await partnerWithToken(ctx, 'testdrive');
    expect((await sendAs(partner, { to: 'dev@example.com' })).statusCode).toBe(200);
    await drainDeliveries(ctx.runtime);
    expect(received.map((r) => r.to)).toEqual([['dev@example.com']]);
    expect(await listMail(ctx.runtime.database.kysely)).toEqual([]);
  });

  it('refuses e-mail past the hourly limit with 429 14075 and Retry-After, per partner, until the hour has passed', async () => {
    ctx = await createTestContext({ LEDGERLINK_EMAIL_LIMIT_PER_HOUR: '3' });
    const partner = await partnerWithToken(ctx, 'production');
    const other = await partnerWithToken(ctx, 'testdrive');
    const customerId = await addCustomer(ctx, partner);
    const send = () => generate(ctx, partner, 'email', { customerId, email: { to: 'customer@example.com' } });
    expect((await send()).statusCode).toBe(200);
    ctx.clock.advance(10 * 60_000);
    expect((await send()).statusCode).toBe(200);
    expect((await send()).statusCode).toBe(200);
    ctx.clock.advance(10 * 60_000);
    const db = ctx.runtime.database.kysely;
    const links = async () => (await db.selectFrom('connect_links').select('id').execute()).length;
    const before = { links: await links(), deliveries: (await db.selectFrom('deliveries').select('id').execute()).length };

    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ code: '14075', message: expect.stringMatching(/3 e-mails in the last hour/) });
    // The first of the three leaves the hour 40 minutes from now.
    expect(refused.headers['retry-after']).toBe(String(40 * 60));
    expect(await links()).toBe(before.links);
    expect((await db.selectFrom('deliveries').select('id').execute()).length).toBe(before.deliveries);
    // Another partner has its own allowance.
    expect((await sendAs(other, { to: 'someone@example.com' })).statusCode).toBe(200);

    ctx.clock.advance(40 * 60_000 - 1000);
    expect((await send()).statusCode).toBe(429);
    ctx.clock.advance(1000);
    expect((await send()).statusCode).toBe(200);
    expect((await send()).statusCode).toBe(429);
  });
});
