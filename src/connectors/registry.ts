/**
 * Which connector serves an institution: the test bank for every test institution (with that institution's
 * behaviour); the SimpleFIN connector for the SimpleFIN Bridge institution; the OFX connector for institutions
 * with an OFX Direct Connect server; for any other institution none, which the engine reports as an error instead
 * of trying to aggregate.
 */
import { OfxConnector } from './ofx/connector.js';
import { createHttpTransport as createOfxTransport, type OfxTransport } from './ofx/transport.js';
import type { OfxInstitutionConfig } from './ofx/connector.js';
import { createHttpTransport as createSimplefinTransport, type SimplefinTransport } from './simplefin/client.js';
import { SimplefinConnector } from './simplefin/connector.js';
import { simplefinUrlPolicy } from './simplefin/token.js';
import { TEST_INSTITUTIONS } from './testbank/institutions.js';
import type { InstitutionConnector } from './connector.js';
import { TestBankConnector, TestBankOAuthPages, type TestBankOptions } from './testbank/connector.js';

export type ConnectorLookup = { available: true; connector: InstitutionConnector } | { available: false; reason: string };

export interface ConnectorRegistry {
  /** The connector of a test institution, at once (test institutions need no lookup). */
  connectorFor(institutionId: number): ConnectorLookup;
  /** The connector of any institution: test bank, SimpleFIN, OFX, or none. */
  resolve(institutionId: number): Promise<ConnectorLookup>;
  /** Helpers for the hosted Connect app's test bank OAuth page. */
  readonly testBankOAuth: TestBankOAuthPages;
}

/** The real sources: where their servers are, what may be contacted, and how. */
export interface RealSourceOptions {
  mode: 'sandbox' | 'production';
  /** The SimpleFIN Bridge institution's id in the catalogue. */
  simplefinInstitutionId: number;
  /** The OFX server of an institution, if it has one (from the catalogue). */
  ofxServer(institutionId: number): Promise<OfxInstitutionConfig | undefined>;
  /** Keeps each login's OFX CLIENTUID the same across sign-ins (a key derived from the master key). */
  ofxClientUidKey: Uint8Array;
  /** Tests may pass their own transports; the defaults are the connectors' HTTP transport (timeouts, size limits, the outbound target policy). */
  ofxTransport?: OfxTransport;
  simplefinTransport?: SimplefinTransport;
}

const NONE = (institutionId: number): ConnectorLookup => ({ available: false, reason: `No connector is available for institution ${institutionId} yet.` });

/**
 * Builds the registry. `key` (at least 32 bytes, e.g. deriveKey(masterKey, 'testbank')) signs test bank
 * sessions and OAuth codes: every process that shares a database must use the same key. Without `real`, only
 * the test institutions have a connector.
 */
export function createConnectorRegistry(options: TestBankOptions & { real?: RealSourceOptions }): ConnectorRegistry {
  const testBank = new Map<number, InstitutionConnector>(TEST_INSTITUTIONS.map((t) => [t.id, new TestBankConnector(t, options)]));
  const real = options.real;
  // Both go through the connectors' HTTP transport, under the outbound target policy of the service mode.
  const simplefin = real
    ? new SimplefinConnector({
        transport: real.simplefinTransport ?? createSimplefinTransport({ mode: real.mode, timeoutMs: 60_000 }),
        allowUrl: simplefinUrlPolicy(real.mode),
      })
    : undefined;
  const ofxTransport = real ? (real.ofxTransport ?? createOfxTransport({ mode: real.mode, timeoutMs: 60_000, maxBytes: 16 * 1024 * 1024 })) : undefined;
  const connectorFor = (institutionId: number): ConnectorLookup => {
    const connector = testBank.get(institutionId);
    return connector ? { available: true, connector } : NONE(institutionId);
  };
  return {
    connectorFor,
    async resolve(institutionId) {
      const test = connectorFor(institutionId);
      if (test.available || !real) return test;
      if (institutionId === real.simplefinInstitutionId && simplefin) return { available: true, connector: simplefin };
      const server = await real.ofxServer(institutionId);
      if (server && ofxTransport)
        return { available: true, connector: new OfxConnector({ institution: server, transport: ofxTransport, clientUidKey: real.ofxClientUidKey }) };
      return NONE(institutionId);
    },
    testBankOAuth: new TestBankOAuthPages(options),
  };
}
