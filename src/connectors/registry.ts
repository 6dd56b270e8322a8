/**
 * Which connector serves an institution. Every test institution is served by the test bank connector with
 * that institution's behaviour; other institutions have no connector yet, which the engine reports as an
 * error instead of trying to aggregate.
 */
import { TEST_INSTITUTIONS } from './testbank/institutions.js';
import type { InstitutionConnector } from './connector.js';
import { TestBankConnector, TestBankOAuthPages, type TestBankOptions } from './testbank/connector.js';

export type ConnectorLookup = { available: true; connector: InstitutionConnector } | { available: false; reason: string };

export interface ConnectorRegistry {
  connectorFor(institutionId: number): ConnectorLookup;
  /** Helpers for the hosted Connect app's test bank OAuth page. */
  readonly testBankOAuth: TestBankOAuthPages;
}

/**
 * Builds the registry. `key` (at least 32 bytes, e.g. deriveKey(masterKey, 'testbank')) signs test bank
 * sessions and OAuth codes: every process that shares a database must use the same key.
 */
export function createConnectorRegistry(options: TestBankOptions): ConnectorRegistry {
  const connectors = new Map<number, InstitutionConnector>(TEST_INSTITUTIONS.map((t) => [t.id, new TestBankConnector(t, options)]));
  return {
    connectorFor(institutionId) {
      const connector = connectors.get(institutionId);
      return connector ? { available: true, connector } : { available: false, reason: `No connector is available for institution ${institutionId} yet.` };
    },
    testBankOAuth: new TestBankOAuthPages(options),
  };
}
