import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listMail } from '../../src/outbox/service.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { createTestContext, partnerWithToken, type TestContext, type TestPartner } from '../helpers/context.js';
import { addCustomer } from '../helpers/customers.js';
import { appOk, decodeQuotedPrintable, generate } from '../helpers/connect.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp.js';

const EMAIL = {
  to: 'marvin@example.com',
  subject: 'Verify your income',
  firstName: 'Marvin and Jenny',
  institutionName: 'Acme Lending',
  institutionAddress: '222 Winnipeg Drive SLC UT, 84109',
  supportPhone: '800-555-5555',
  signature: ['Cindy Mayfield', 'Senior Loan Officer', 'Direct 123-456-7890'],
};

function expectConnectEmail(text: string, html: string, link: string): void {
  for (const part of [text, html]) {
    for (const field of [
      'Marvin and Jenny',
      'Acme Lending',
      '222 Winnipeg Drive SLC UT, 84109',
      '800-555-5555',
      'Cindy Mayfield',
      'Senior Loan Officer',
      'Direct 123-456-7890',
    ])
      expect(part).toContain(field);
  }
  expect(text).toContain(link);
  // The button: a link to the Connect URL (HTML-escaped in the attribute).
  expect(html).toContain(`<a href="${link.replace(/&/g, '&amp;')}"`);
  expect(html).toContain('Connect your accounts</a>');
}

describe('the Connect e-mail', () => {
  let ctx: TestContext;
  let partner: TestPartner;
  let customerId: string;
  let sink: SmtpSink | undefined;

  async function setUp(env: Record<string, string> = {}, plan: 'testdrive' | 'production' = 'testdrive'): Promise<void> {
    ctx = await createTestContext(env);
    partner = await partnerWithToken(ctx, plan);
    customerId = await addCustomer(ctx, partner);
  }
  beforeEach(() => {
    sink = undefined;
  });
  afterEach(async () => {
    await ctx.close();
    await sink?.close();
  });

  it('keeps the e-mail in the local mailbox without SMTP_URL, with the fields and a button to a working link', async () => {
    await setUp();
    const res = await generate(ctx, partner, 'email', { customerId, consumerId: 'c0ffee', experience: 'default', email: EMAIL });
    expect(res.statusCode).toBe(200);
    const { link, emailConfig } = res.json();
    expect(emailConfig).toEqual(EMAIL);
    await drainDeliveries(ctx.runtime);
    const [mail, ...more] = await listMail(ctx.runtime.database.kysely, { partnerId: partner.partnerId });
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ to: 'marvin@example.com', subject: 'Verify your income' });
    expectConnectEmail(mail!.text, mail!.html!, link);
    expect((await appOk(ctx, link, 'POST', '/session')).mode).toBe('full');
    // The partner reads its mailbox through the API too, and only its own.
    const box = await ctx.app.inject({ url: '/connect/v2/mailbox?limit=5', headers: partner.headers });
    expect(box.json().messages).toEqual([expect.objectContaining({ to: 'marvin@example.com', subject: 'Verify your income', eventId: mail!.eventId })]);
    const other = await partnerWithToken(ctx);
    expect((await ctx.app.inject({ url: '/connect/v2/mailbox', headers: other.headers })).json().messages).toEqual([]);
    const xml = await ctx.app.inject({ url: '/connect/v2/mailbox', headers: { ...partner.headers, accept: 'application/xml' } });
    expect(xml.body).toMatch(/^<\?xml[^>]*\?><mailbox><message><id>\d+<\/id><eventId>evt_/);
  });

  it('uses the default subject when none is given', async () => {
    await setUp();
    const res = await generate(ctx, partner, 'email', { customerId, email: { to: 'pat@example.com' } });
    expect(res.statusCode).toBe(200);
    await drainDeliveries(ctx.runtime);
    expect((await listMail(ctx.runtime.database.kysely))[0]).toMatchObject({ to: 'pat@example.com', subject: 'Verify your Financial Information' });
  });

  it("delivers a production partner's e-mail to the SMTP server of SMTP_URL", async () => {
    sink = await startSmtpSink();
    const received = sink.received;
    // A production partner: Test Drive partners' e-mail stays in the local mailbox (email-relay.test.ts).
    await setUp({ SMTP_URL: sink.url }, 'production');
    const { link } = (await generate(ctx, partner, 'email', { customerId, email: EMAIL })).json();
    await drainDeliveries(ctx.runtime);
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['marvin@example.com']);
    const raw = received[0]!.raw;
    expect(raw).toMatch(/^Subject: Verify your income$/m);
    const boundary = /boundary="?([^"\r\n;]+)"?/.exec(raw)![1]!;
    const parts = raw.split(`--${boundary}`).slice(1, -1);
    const body = (type: string) =>
      decodeQuotedPrintable(
        parts
          .find((p) => p.includes(`Content-Type: ${type}`))!
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join('\n\n'),
      );
    expectConnectEmail(body('text/plain'), body('text/html'), link);
    expect(await listMail(ctx.runtime.database.kysely)).toEqual([]);
  });
});
