import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueueDelivery, type EnqueueEmailInput } from '../../src/outbox/enqueue.js';
import { getDelivery, listMail } from '../../src/outbox/service.js';
import { drainDeliveries } from '../../src/outbox/worker.js';
import { createPartner } from '../../src/modules/partners/service.js';
import { epochSeconds } from '../../src/platform/clock.js';
import { createTestContext, type TestContext } from '../helpers/context.js';

const email = (partnerId: string, overrides: Partial<EnqueueEmailInput> = {}): EnqueueEmailInput => ({
  kind: 'email',
  partnerId,
  to: 'consumer@example.com',
  subject: 'Connect your bank',
  text: 'Open https://connect.example/abc to link your accounts.',
  html: '<p>Open <a href="https://connect.example/abc">Connect</a></p>',
  ...overrides,
});

describe('e-mail without SMTP_URL', () => {
  let ctx: TestContext;
  let partnerId: string;
  beforeEach(async () => {
    ctx = await createTestContext();
    partnerId = (await createPartner(ctx.runtime, { name: 'Acme' })).partnerId;
  });
  afterEach(() => ctx.close());

  it('keeps every message in the local mailbox, where the partner can read it, and counts it delivered', async () => {
    const db = ctx.runtime.database.kysely;
    const { id, eventId } = await enqueueDelivery(db, ctx.runtime, email(partnerId));
    const other = (await createPartner(ctx.runtime, { name: 'Other' })).partnerId;
    await enqueueDelivery(db, ctx.runtime, email(other, { to: 'someone@example.org', subject: 'Other', html: undefined }));
    await drainDeliveries(ctx.runtime);

    expect(await listMail(db, { partnerId })).toEqual([
      {
        id: expect.any(Number),
        partnerId,
        deliveryId: id,
        eventId,
        to: 'consumer@example.com',
        from: ctx.runtime.config.mailFrom,
        subject: 'Connect your bank',
        text: 'Open https://connect.example/abc to link your accounts.',
        html: '<p>Open <a href="https://connect.example/abc">Connect</a></p>',
        createdAt: epochSeconds(ctx.clock),
      },
    ]);
    expect((await listMail(db)).map((m) => m.subject)).toEqual(['Other', 'Connect your bank']);
    expect(await getDelivery(db, id)).toMatchObject({
      status: 'delivered',
      kind: 'email',
      target: 'consumer@example.com',
      attempts: [{ statusCode: null, error: null }],
    });
  });
});

describe('e-mail with SMTP_URL', () => {
  let ctx: TestContext;
  let partnerId: string;
  let server: SMTPServer;
  let received: { from: string; to: string[]; raw: string }[];

  beforeEach(async () => {
    received = [];
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('gone@')) return callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
        if (address.address.startsWith('busy@')) return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        callback();
      },
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (d: Buffer) => (raw += d.toString('utf8')));
        stream.on('end', () => {
          received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as AddressInfo).port;
    ctx = await createTestContext({ SMTP_URL: `smtp://127.0.0.1:${port}`, LEDGERLINK_MAIL_FROM: 'Ledgerlink <mail@ledgerlink.test>' });
    // Production: Test Drive partners' e-mail stays in the local mailbox (email-relay.test.ts).
    partnerId = (await createPartner(ctx.runtime, { name: 'Acme', plan: 'production' })).partnerId;
  });
  afterEach(async () => {
    await ctx.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends through the SMTP server, with the event id in the Message-ID, and keeps nothing locally', async () => {
    const db = ctx.runtime.database.kysely;
    const { id, eventId } = await enqueueDelivery(db, ctx.runtime, email(partnerId));
    await drainDeliveries(ctx.runtime);
    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message!.from).toBe('mail@ledgerlink.test');
    expect(message!.to).toEqual(['consumer@example.com']);
    expect(message!.raw).toMatch(/^Subject: Connect your bank$/m);
    expect(message!.raw).toContain(`Message-ID: <${eventId}@ledgerlink>`);
    expect(message!.raw).toContain('https://connect.example/abc');
    expect(await getDelivery(db, id)).toMatchObject({ status: 'delivered', attempts: [{ statusCode: 250, error: null }] });
    expect(await listMail(db)).toEqual([]);
  });

  it('cancels at once when the server refuses for good (5xx), and retries when it asks to (4xx)', async () => {
    const db = ctx.runtime.database.kysely;
    const gone = await enqueueDelivery(db, ctx.runtime, email(partnerId, { to: 'gone@example.com' }));
    const busy = await enqueueDelivery(db, ctx.runtime, email(partnerId, { to: 'busy@example.com' }));
    await drainDeliveries(ctx.runtime);
    expect(await getDelivery(db, gone.id)).toMatchObject({ status: 'cancelled', lastStatusCode: 550, lastError: expect.stringMatching(/No such mailbox/) });
    expect(await getDelivery(db, busy.id)).toMatchObject({ status: 'pending', lastStatusCode: 451, lastError: expect.stringMatching(/Try again later/) });
    expect(received).toEqual([]);
  });
});
