import { expect } from 'vitest';
import type {
  AuthResult,
  ConnectorAccount,
  ConnectorContext,
  ConnectorResult,
  ConnectorSession,
  ConnectorTransaction,
  InstitutionConnector,
} from '../../src/connectors/connector.js';
import { createConnectorRegistry } from '../../src/connectors/registry.js';
import { testbank } from '../../src/connectors/testbank/index.js';

export const DAY = 86_400;
/** A fixed customer clock: 2026-01-15 12:00 UTC. */
export const NOW = Math.floor(Date.UTC(2026, 0, 15, 12) / 1000);
export const KEY = Buffer.alloc(32, 7);

/** A registry of the test bank alone, opened with `key` for every purpose (the engine's opens every source). */
export function testBankRegistry(key: Buffer) {
  return createConnectorRegistry({ mode: 'sandbox', publicUrl: '', deriveKey: () => key, catalogue: { connection: async () => undefined }, settings: {} }, [
    testbank,
  ]);
}

export const registry = testBankRegistry(KEY);
/** The test bank as opened with KEY: its connectors and its OAuth sign-in page. */
export const testBank = registry.opened(testbank);

export function connector(institutionId: number): InstitutionConnector {
  const found = testBank.connectorFor(institutionId);
  if (!found) throw new Error(`No connector is available for institution ${institutionId} yet.`);
  return found;
}

export function ctx(institutionId = 101732, now = NOW): ConnectorContext {
  return { institutionId, now };
}

/** The login form as a client posts it, with the field ids of the reference README. */
export function credentials(institutionId: number, username: string, password = username) {
  return [
    { id: `${institutionId}001`, name: 'Banking Userid', value: username },
    { id: `${institutionId}002`, name: 'Banking Password', value: password },
  ];
}

export function value<T>(result: ConnectorResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.message}`);
  return result.value;
}

export function sessionOf(result: AuthResult): ConnectorSession {
  if (!result.ok || result.kind !== 'authenticated') throw new Error(`expected a session, got ${JSON.stringify(result)}`);
  return result.session;
}

/** Signs a profile in at a credential institution without MFA. */
export async function signIn(profile: string, institutionId = 101732, now = NOW): Promise<ConnectorSession> {
  return sessionOf(await connector(institutionId).authenticate(ctx(institutionId, now), credentials(institutionId, profile)));
}

export async function accounts(session: ConnectorSession, institutionId = 101732, now = NOW): Promise<ConnectorAccount[]> {
  return value(await connector(institutionId).listAccounts(ctx(institutionId, now), session));
}

export async function transactions(
  session: ConnectorSession,
  accountRef: string,
  from: number,
  to: number,
  institutionId = 101732,
  now = NOW,
): Promise<ConnectorTransaction[]> {
  return value(await connector(institutionId).fetchTransactions(ctx(institutionId, now), session, accountRef, from, to));
}

export function expectFailure(result: { ok: boolean }, code: number): void {
  expect(result).toMatchObject({ ok: false, code });
  expect((result as { message?: unknown }).message).toEqual(expect.any(String));
}

/** Money as it comes from the bank: a finite number with at most two decimals. */
export function isMoney(amount: number): boolean {
  return Number.isFinite(amount) && Math.abs(Math.round(amount * 100) - amount * 100) < 1e-6;
}
