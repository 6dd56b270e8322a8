/**
 * Countries by their ISO 3166-1 alpha-2 code: alpha-3 code, name and the currency most accounts there are in, from
 * the countries-list package (which follows changes such as Bulgaria's move to the euro).
 */
import { getCountryData, type TCountryCode } from 'countries-list';

export interface CountryFacts {
  readonly alpha3: string;
  readonly currency: string;
  readonly name: string;
}

/** What is known of a country (alpha-2, any letter case), or undefined for a code the package does not know. */
export function countryOf(alpha2: string): CountryFacts | undefined {
  const code = alpha2.trim().toUpperCase();
  const data = /^[A-Z]{2}$/.test(code) ? getCountryData(code as TCountryCode) : undefined;
  if (!data?.iso3 || !data.currency[0]) return undefined;
  return { alpha3: data.iso3, currency: data.currency[0], name: data.name };
}
