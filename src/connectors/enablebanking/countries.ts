/**
 * What the connector needs of a bank's country (ISO 3166-1 alpha-2, as Enable Banking names it): its alpha-3 code
 * (what categorisation names a transaction's country by), its name, and the currency most of its accounts are in (what
 * the catalogue shows for its banks; an account's own currency is always the one the bank gives).
 */
import { type CountryFacts, countryOf } from '../../platform/countries.js';

/**
 * A country the package does not know: the euro, the currency of most of the countries Enable Banking serves, and
 * `XXX`, the code ICAO uses for an unspecified nationality, rather than a real country's code.
 */
const UNKNOWN = (code: string): CountryFacts => ({ alpha3: 'XXX', currency: 'EUR', name: code });

/** What is known of a country (ISO 3166-1 alpha-2, any letter case). */
export function countryFacts(alpha2: string): CountryFacts {
  return countryOf(alpha2) ?? UNKNOWN(alpha2.toUpperCase());
}
