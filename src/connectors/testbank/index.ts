/**
 * The test bank as a connector source: every test institution, with its behaviour (standard, OAuth, always MFA,
 * down), and the OAuth sign-in page the hosted Connect app serves for it (the bank's own site, simulated).
 */
import type { ConnectorSource, OpenSource } from '../source.js';
import { TestBankConnector, TestBankOAuthPages, TEST_BANK_AUTHORIZE_PATH } from './connector.js';
import { TEST_INSTITUTIONS } from './institutions.js';

export interface OpenTestBank extends OpenSource {
  connectorFor(institutionId: number): TestBankConnector | undefined;
  /** What the sign-in page needs (checking the request, issuing codes), with the connectors' key. */
  readonly oauthPages: TestBankOAuthPages;
}

export const testbank: ConnectorSource<OpenTestBank> = {
  name: 'testbank',
  settings: [],
  // The test institutions are in the generated catalogue (modules/institutions/catalog/generate.ts), which gives them
  // the same kind of generated details as its other institutions.
  institutions: [],
  // Its profiles hold everything the products need: routing numbers, owners, loans' payment instructions.
  products: ['ach', 'aha', 'availBalance', 'accountOwner', 'loanPaymentDetails'],
  redirect: { kind: 'code-state' },
  open(deps) {
    // Signs sessions, MFA states and OAuth codes: every process sharing the database derives the same key.
    const options = { key: deps.deriveKey('testbank'), authorizeUrl: `${deps.publicUrl}${TEST_BANK_AUTHORIZE_PATH}` };
    const connectors = new Map(TEST_INSTITUTIONS.map((t) => [t.id, new TestBankConnector(t, options)]));
    return { connectorFor: (institutionId) => connectors.get(institutionId), oauthPages: new TestBankOAuthPages(options) };
  },
};
