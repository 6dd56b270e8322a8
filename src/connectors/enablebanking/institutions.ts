/**
 * Enable Banking's banks as catalogue institutions. `GET /aspsps` is asked once for personal and once for business
 * customers; a bank serving both is one institution (the kind of customer is chosen when linking: personal where the
 * bank offers it). What the connector needs to reach a bank travels as the institution's `connection`, which the
 * catalogue stores and hands back (SourceCatalogue.connection).
 */
import type { JsonValue } from '../connector.js';
import type { ListedInstitution } from '../source.js';
import type { EnableBankingClient } from './client.js';
import { countryFacts } from './countries.js';
import { failureOf } from './errors.js';
import { DAY } from './limits.js';
import type { AspspEntry, PsuType } from './wire.js';

/** How long a consent is asked for at most: PSD2's usual 180 days, or less where the bank allows less. */
export const MAX_CONSENT_SECONDS = 180 * DAY;

/** The `connection` of a bank: what the connector needs to reach it. Field names as the API spells them. */
export interface BankConnection {
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  psu_types: PsuType[];
  /** Seconds. */
  maximum_consent_validity: number;
  required_psu_headers: string[];
  /** Days of transactions the bank serves, where the API says. */
  transaction_total_days?: number;
}

const PSU_TYPES: readonly PsuType[] = ['personal', 'business'];

/** A stored connection read back, or undefined when it is not one of this source's. */
export function readConnection(value: unknown): BankConnection | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const c = value as Record<string, unknown>;
  const { name, country, psu_types, maximum_consent_validity, required_psu_headers, transaction_total_days } = c;
  if (typeof name !== 'string' || name === '' || typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) return undefined;
  if (typeof maximum_consent_validity !== 'number' || !(maximum_consent_validity > 0)) return undefined;
  if (!Array.isArray(psu_types) || !Array.isArray(required_psu_headers)) return undefined;
  const connection: BankConnection = {
    name,
    country,
    psu_types: PSU_TYPES.filter((t) => psu_types.includes(t)),
    maximum_consent_validity,
    required_psu_headers: required_psu_headers.filter((h): h is string => typeof h === 'string'),
  };
  if (typeof transaction_total_days === 'number' && Number.isSafeInteger(transaction_total_days) && transaction_total_days > 0) {
    connection.transaction_total_days = transaction_total_days;
  }
  return connection;
}

/** The kind of customer a sign-in is for: personal where the bank offers it. */
export function psuTypeOf(connection: BankConnection): PsuType {
  return connection.psu_types.includes('personal') || connection.psu_types.length === 0 ? 'personal' : 'business';
}

/** The catalogue key of a bank: its country and name, as Enable Banking names it (how POST /auth names it too). */
export function keyOf(entry: Pick<AspspEntry, 'country' | 'name'>): string {
  return `${entry.country}:${entry.name}`;
}

/** The entries of one bank (from the two lists, or listed twice) as one: every kind of customer and header, the shorter validity. */
function merge(a: AspspEntry, b: AspspEntry): AspspEntry {
  const merged: AspspEntry = {
    ...a,
    psuTypes: PSU_TYPES.filter((t) => a.psuTypes.includes(t) || b.psuTypes.includes(t)),
    maximumConsentValidity: Math.min(a.maximumConsentValidity, b.maximumConsentValidity),
    requiredPsuHeaders: [...new Set([...a.requiredPsuHeaders, ...b.requiredPsuHeaders])],
    beta: a.beta && b.beta,
  };
  const logo = a.logo ?? b.logo;
  if (logo !== undefined) merged.logo = logo;
  const days = Math.min(a.transactionTotalDays ?? Number.POSITIVE_INFINITY, b.transactionTotalDays ?? Number.POSITIVE_INFINITY);
  if (Number.isFinite(days)) merged.transactionTotalDays = days;
  return merged;
}

function connectionOf(entry: AspspEntry): JsonValue {
  const connection: { [key: string]: JsonValue } = {
    name: entry.name,
    country: entry.country,
    psu_types: entry.psuTypes,
    maximum_consent_validity: entry.maximumConsentValidity,
    required_psu_headers: entry.requiredPsuHeaders,
  };
  if (entry.transactionTotalDays !== undefined) connection.transaction_total_days = entry.transactionTotalDays;
  return connection;
}

/** Whole days of the consent a sign-in asks for. */
export function consentDays(maximumConsentValidity: number): number {
  return Math.max(1, Math.floor(Math.min(maximumConsentValidity, MAX_CONSENT_SECONDS) / DAY));
}

/**
 * A bank as a catalogue institution. `inSeveralCountries`: banks of one name in several countries (Nordea) are told
 * apart by the country after the name, as a person searching would expect.
 */
export function listedInstitution(entry: AspspEntry, inSeveralCountries = false): ListedInstitution {
  const days = consentDays(entry.maximumConsentValidity);
  return {
    key: keyOf(entry),
    name: inSeveralCountries ? `${entry.name} (${countryFacts(entry.country).name})` : entry.name,
    // Enable Banking names no web site of the bank: its entry points at the service that reaches it.
    homeUrl: 'https://enablebanking.com/',
    signInHelp: `You sign in at ${entry.name} on the bank's own pages, through Enable Banking, and choose the accounts to share. The consent lasts ${days} day${days === 1 ? '' : 's'}; then the bank asks you to give it again.`,
    country: entry.country,
    currency: countryFacts(entry.country).currency,
    ...(entry.logo !== undefined ? { logoUrl: entry.logo } : {}),
    connection: connectionOf(entry),
  };
}

/** The two lists as institutions, one per bank, in key order. */
export function institutionsOf(lists: readonly (readonly AspspEntry[])[], kinds: readonly PsuType[] = PSU_TYPES): ListedInstitution[] {
  const byKey = new Map<string, AspspEntry>();
  lists.forEach((list, i) => {
    for (const listed of list) {
      // A bank that names no kind of customer serves the kind its list was asked for.
      const entry = listed.psuTypes.length > 0 || kinds[i] === undefined ? listed : { ...listed, psuTypes: [kinds[i]] };
      const known = byKey.get(keyOf(entry));
      byKey.set(keyOf(entry), known ? merge(known, entry) : entry);
    }
  });
  const countries = new Map<string, number>();
  for (const entry of byKey.values()) countries.set(entry.name, (countries.get(entry.name) ?? 0) + 1);
  return [...byKey.keys()].sort().map((key) => {
    const entry = byKey.get(key)!;
    return listedInstitution(entry, countries.get(entry.name)! > 1);
  });
}

/**
 * Every bank Enable Banking lists now. A failed request rejects, so that the catalogue keeps what it has rather than
 * retiring banks that were only missing from a failed answer; a bank entry that cannot be read is left out.
 */
export async function listInstitutions(client: EnableBankingClient): Promise<ListedInstitution[]> {
  const lists: AspspEntry[][] = [];
  for (const kind of PSU_TYPES) {
    const answer = await client.aspsps(kind);
    if (!answer.ok) throw new Error(`Enable Banking's list of ${kind} banks could not be read: ${failureOf(answer.problem, 'read').message}`);
    lists.push(answer.value);
  }
  return institutionsOf(lists);
}
