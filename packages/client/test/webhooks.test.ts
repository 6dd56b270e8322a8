import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  answerTxPushVerification,
  createPushListener,
  signWebhook,
  verifyConnectWebhook,
  verifyTxPush,
  verifyWebhook,
  WebhookVerificationError,
  type VerifiedMessage,
} from '@ledgerlink/client';
import { generateSigningSecret, newEventId, signatureHeaders } from '../../../src/outbox/sign.js';
import { ManualClock } from './fake-service.js';

const clock = new ManualClock();
const now = () => Math.floor(clock.now() / 1000);
const body = JSON.stringify({ event: { class: 'transaction', type: 'created', records: [{ id: 20000000001, amount: -12.5 }] } });

function verifyError(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(WebhookVerificationError);
    return (e as Error).message;
  }
  throw new Error('verification passed');
}

describe('webhook signature verification', () => {
  it('accepts what the service signs (src/outbox/sign.ts) and answers the event', () => {
    const key = generateSigningSecret();
    const id = newEventId();
    const push = verifyTxPush(key, body, signatureHeaders(key, id, now(), body), { clock });
    expect(push.id).toBe(id);
    expect(push.event.class).toBe('transaction');
    expect(push.event.records[0]).toMatchObject({ id: 20000000001 });
  });

  it('agrees with the standardwebhooks library in both directions', () => {
    const key = generateSigningSecret();
    const id = newEventId();
    const at = new Date(clock.now());
    const theirs = new Webhook(key).sign(id, at, body);
    expect(verifyWebhook(key, body, { 'webhook-id': id, 'webhook-timestamp': String(now()), 'webhook-signature': theirs }, { clock }).id).toBe(id);
    const ours = signWebhook(key, id, Math.floor(Date.now() / 1000), body);
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': ours };
    expect(new Webhook(key).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('reads fetch Headers and node:http header objects alike', () => {
    const key = generateSigningSecret();
    const headers = signatureHeaders(key, 'evt_1', now(), body);
    expect(verifyWebhook(key, Buffer.from(body), new Headers(headers), { clock }).body).toBe(body);
    expect(
      verifyWebhook(
        key,
        body,
        { 'Webhook-Id': 'evt_1', 'Webhook-Timestamp': headers['webhook-timestamp'], 'Webhook-Signature': headers['webhook-signature'] },
        { clock },
      ).id,
    ).toBe('evt_1');
  });

  it('accepts any of several keys and any of several signatures', () => {
    const [a, b, c] = [generateSigningSecret(), generateSigningSecret(), generateSigningSecret()];
    const headers = signatureHeaders(b, 'evt_2', now(), body);
    expect(verifyWebhook([a, b], body, headers, { clock }).id).toBe('evt_2');
    const both = { ...headers, 'webhook-signature': `${signWebhook(c, 'evt_2', now(), body)} ${headers['webhook-signature']}` };
    expect(verifyWebhook(b, body, both, { clock }).id).toBe('evt_2');
    expect(verifyError(() => verifyWebhook([a, c], body, headers, { clock }))).toBe('No matching signature');
  });

  it('refuses an altered body, another event id, a wrong key and missing headers', () => {
    const key = generateSigningSecret();
    const headers = signatureHeaders(key, 'evt_3', now(), body);
    expect(verifyError(() => verifyWebhook(key, body.replace('-12.5', '-1250'), headers, { clock }))).toBe('No matching signature');
    expect(verifyError(() => verifyWebhook(key, body, { ...headers, 'webhook-id': 'evt_4' }, { clock }))).toBe('No matching signature');
    expect(verifyError(() => verifyWebhook(generateSigningSecret(), body, headers, { clock }))).toBe('No matching signature');
    expect(verifyError(() => verifyWebhook(key, body, { 'webhook-id': 'evt_3' }, { clock }))).toMatch(/Missing/);
    expect(verifyError(() => verifyWebhook(key, body, { ...headers, 'webhook-timestamp': '12e3' }, { clock }))).toMatch(/Invalid/);
  });

  it('refuses timestamps more than five minutes away, either side', () => {
    const key = generateSigningSecret();
    expect(verifyWebhook(key, body, signatureHeaders(key, 'evt_5', now() - 300, body), { clock }).id).toBe('evt_5');
    expect(verifyError(() => verifyWebhook(key, body, signatureHeaders(key, 'evt_5', now() - 301, body), { clock }))).toMatch(/more than 300 s/);
    expect(verifyError(() => verifyWebhook(key, body, signatureHeaders(key, 'evt_5', now() + 301, body), { clock }))).toMatch(/more than 300 s/);
    expect(verifyWebhook(key, body, signatureHeaders(key, 'evt_5', now() - 3000, body), { clock, toleranceSeconds: 3600 }).id).toBe('evt_5');
  });

  it('verifies Connect webhooks', () => {
    const key = generateSigningSecret();
    const hook = JSON.stringify({ customerId: '1005000000', eventType: 'accountsDeleted', eventId: 'evt_6', payload: { accounts: ['5011000001'] } });
    expect(verifyConnectWebhook(key, hook, signatureHeaders(key, 'evt_6', now(), hook), { clock })).toMatchObject({
      eventType: 'accountsDeleted',
      payload: { accounts: ['5011000001'] },
    });
  });
});

describe('the push listener handler (node:http)', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  });

  async function serve(handler: http.RequestListener): Promise<string> {
    const server = http.createServer(handler);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/push`;
  }

  it('answers the TxPUSH verification GET with the code as text/plain, and leaves other requests alone', async () => {
    const url = await serve((req, res) => {
      if (!answerTxPushVerification(req, res)) res.writeHead(418).end();
    });
    const res = await fetch(`${url}?txpush_verification_code=a1B2-c3%2Bd4`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('a1B2-c3+d4');
    expect((await fetch(url)).status).toBe(418);
    expect((await fetch(`${url}?txpush_verification_code=x`, { method: 'POST', body: '' })).status).toBe(418);
  });

  it('verifies, handles each event id once, acknowledges repeats, and refuses forgeries', async () => {
    const key = generateSigningSecret();
    const handled: VerifiedMessage[] = [];
    const rejected: string[] = [];
    const url = await serve(
      createPushListener({ signingKeys: () => [key], onMessage: (m) => void handled.push(m), onRejected: (e) => void rejected.push(e.message) }),
    );
    const post = (headers: Record<string, string>, payload = body) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload });
    const headers = signatureHeaders(key, 'evt_7', Math.floor(Date.now() / 1000), body);
    expect((await post(headers)).status).toBe(200);
    expect((await post(headers)).status).toBe(200);
    expect(handled.map((m) => m.id)).toEqual(['evt_7']);
    expect(handled[0]!.body).toBe(body);
    const forged = await post({ ...headers, 'webhook-id': 'evt_8' });
    expect(forged.status).toBe(401);
    expect(rejected).toEqual(['No matching signature']);
    expect((await fetch(`${url}?txpush_verification_code=42`)).status).toBe(200);
    expect((await fetch(url)).status).toBe(405);
  });

  it('refuses bodies over the limit without handling them', async () => {
    const key = generateSigningSecret();
    const handled: string[] = [];
    const url = await serve(createPushListener({ signingKeys: () => [key], onMessage: (m) => void handled.push(m.id), maxBodyBytes: 64 }));
    const big = JSON.stringify({ event: { class: 'transaction', type: 'created', records: Array(20).fill({ id: 1 }) } });
    const res = await fetch(url, { method: 'POST', headers: signatureHeaders(key, 'evt_10', Math.floor(Date.now() / 1000), big), body: big });
    expect(res.status).toBe(413);
    expect(handled).toEqual([]);
  });

  it('answers 500 when handling fails, so the service sends the event again, and handles the retry', async () => {
    const key = generateSigningSecret();
    let failures = 1;
    const handled: string[] = [];
    const url = await serve(
      createPushListener({
        signingKeys: () => [key],
        onMessage: async (m) => {
          if (failures-- > 0) throw new Error('database down');
          handled.push(m.id);
        },
      }),
    );
    const headers = signatureHeaders(key, 'evt_9', Math.floor(Date.now() / 1000), body);
    expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(500);
    expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(200);
    expect(handled).toEqual(['evt_9']);
  });
});
