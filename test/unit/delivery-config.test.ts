import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/main/config.js';
import { leaseSecondsFor } from '../../src/outbox/claim.js';

describe('delivery configuration', () => {
  it('defaults to the local mailbox, 10-second attempts, one-second polls and eight deliveries at once', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ smtpUrl: undefined, deliveryTimeoutMs: 10_000, workerPollMs: 1000, workerConcurrency: 8, pushExtraPorts: [] });
    expect(c.workerId).toBe(`${os.hostname()}:${process.pid}`);
  });

  it('reads SMTP_URL, the worker settings and extra sandbox ports', () => {
    const c = loadConfig({
      SMTP_URL: 'smtp://mail.local:2525',
      LEDGERLINK_DELIVERY_TIMEOUT_MS: '2500',
      LEDGERLINK_WORKER_POLL_MS: '50',
      LEDGERLINK_WORKER_CONCURRENCY: '2',
      LEDGERLINK_WORKER_ID: 'w1',
      LEDGERLINK_PUSH_EXTRA_PORTS: '8443, 3000',
      LEDGERLINK_MAIL_FROM: 'a@b.c',
    });
    expect(c).toMatchObject({
      smtpUrl: 'smtp://mail.local:2525',
      deliveryTimeoutMs: 2500,
      workerPollMs: 50,
      workerConcurrency: 2,
      workerId: 'w1',
      pushExtraPorts: [8443, 3000],
      mailFrom: 'a@b.c',
    });
  });

  it.each([
    [{ SMTP_URL: 'http://mail.local' }, /SMTP_URL/],
    [{ LEDGERLINK_DELIVERY_TIMEOUT_MS: '0' }, /LEDGERLINK_DELIVERY_TIMEOUT_MS/],
    [{ LEDGERLINK_PUSH_EXTRA_PORTS: '70000' }, /LEDGERLINK_PUSH_EXTRA_PORTS/],
    [{ LEDGERLINK_PUSH_EXTRA_PORTS: '8443', LEDGERLINK_MODE: 'production' }, /sandbox mode only/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('holds a claim longer than an attempt may take', () => {
    expect(leaseSecondsFor(10_000)).toBe(20);
    expect(leaseSecondsFor(2000)).toBe(7);
    expect(leaseSecondsFor(100)).toBe(6);
  });
});
