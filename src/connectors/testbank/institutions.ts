import { withCheckDigit } from '../routing-number.js';

/**
 * The test institutions: ids are fixed because public setup scripts and docs use them. Every one is served by
 * the test bank connector; testing customers may link accounts only here.
 */
export interface TestInstitution {
  id: number;
  name: string;
  /** What the test bank does at this institution. */
  behaviour: 'standard' | 'oauth' | 'always-mfa' | 'down';
  urlHomeApp: string;
  /** Named by the reference's own request examples, and added to the catalogue after everything else. */
  referenceExample?: boolean;
}

export const TEST_BANK_ID = 101732;

export const TEST_INSTITUTIONS: readonly TestInstitution[] = [
  { id: TEST_BANK_ID, name: 'FinBank', behaviour: 'standard', urlHomeApp: 'https://www.finbank.example' },
  { id: 102105, name: 'FinBank Profiles - A', behaviour: 'standard', urlHomeApp: 'https://profiles-a.finbank.example' },
  { id: 102106, name: 'FinBank Profiles - B', behaviour: 'standard', urlHomeApp: 'https://profiles-b.finbank.example' },
  { id: 102168, name: 'FinBank OAuth', behaviour: 'oauth', urlHomeApp: 'https://oauth.finbank.example' },
  { id: 102175, name: 'FinBank MFA', behaviour: 'always-mfa', urlHomeApp: 'https://mfa.finbank.example' },
  { id: 102176, name: 'FinBank Down', behaviour: 'down', urlHomeApp: 'https://down.finbank.example' },
  // The institution the reference's own request examples name, so copied examples find it.
  { id: 4222, name: 'FinBank Example', behaviour: 'standard', urlHomeApp: 'https://www.example.com/home', referenceExample: true },
];

const BY_ID = new Map(TEST_INSTITUTIONS.map((t) => [t.id, t]));

/** The test institution with this id, if it is one. */
export function testInstitution(id: number): TestInstitution | undefined {
  return BY_ID.get(id);
}

export function isTestInstitution(id: number): boolean {
  return BY_ID.has(id);
}

/**
 * The institution's ABA routing number, which its checking and savings accounts carry: `124` (a Salt Lake City
 * prefix of the Federal Reserve's twelfth district, where FinBank has its seat), the institution id's last five
 * digits, and the check digit (101732: 124017322).
 */
export function testRoutingNumber(institutionId: number): string {
  return withCheckDigit(`124${String(institutionId % 100_000).padStart(5, '0')}`);
}
