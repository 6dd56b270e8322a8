/**
 * What Ledgerlink needs to know of a bank's country (ISO 3166-1 alpha-2, as Enable Banking names it): its alpha-3
 * code (what categorisation names a transaction's country by), its name, and the currency most of its accounts are in
 * (what the catalogue shows for its banks; an account's own currency is always the one the bank gives). From the
 * countries-list package, which follows changes such as Bulgaria's move to the euro.
 */
import { getCountryData, type TCountryCode } from 'countries-list';

interface CountryFacts {
  readonly alpha3: string;
  readonly currency: string;
  readonly name: string;
}

/**
 * A country the package does not know: the euro, the currency of most of the countries Enable Banking serves, and
 * `XXX`, the code ICAO uses for an unspecified nationality, rather than a real country's code.
 */
const UNKNOWN = (code: string): CountryFacts => ({ alpha3: 'XXX', currency: 'EUR', name: code });

/** What is known of a country (ISO 3166-1 alpha-2, any letter case). */
export function countryFacts(alpha2: string): CountryFacts {
  const code = alpha2.toUpperCase();
  const data = /^[A-Z]{2}$/.test(code) ? getCountryData(code as TCountryCode) : undefined;
  if (!data?.iso3 || !data.currency[0]) return UNKNOWN(code);
  return { alpha3: data.iso3, currency: data.currency[0], name: data.name };
}
