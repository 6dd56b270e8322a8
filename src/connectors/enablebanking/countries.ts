/**
 * The countries whose banks Enable Banking reaches (the EEA, the United Kingdom and Switzerland, with the euro
 * microstates): for each, its ISO 3166-1 alpha-3 code (what categorisation names a transaction's country by) and the
 * currency most of its accounts are in (what the catalogue shows for its banks; an account's own currency is always
 * the one the bank gives).
 */

interface CountryFacts {
  readonly alpha3: string;
  readonly currency: string;
}

const fact = (alpha3: string, currency: string): CountryFacts => ({ alpha3, currency });

/** By ISO 3166-1 alpha-2. Bulgaria and Croatia joined the euro (2026 and 2023). */
const COUNTRIES: Readonly<Record<string, CountryFacts>> = {
  AD: fact('AND', 'EUR'),
  AT: fact('AUT', 'EUR'),
  BE: fact('BEL', 'EUR'),
  BG: fact('BGR', 'EUR'),
  CH: fact('CHE', 'CHF'),
  CY: fact('CYP', 'EUR'),
  CZ: fact('CZE', 'CZK'),
  DE: fact('DEU', 'EUR'),
  DK: fact('DNK', 'DKK'),
  EE: fact('EST', 'EUR'),
  ES: fact('ESP', 'EUR'),
  FI: fact('FIN', 'EUR'),
  FR: fact('FRA', 'EUR'),
  GB: fact('GBR', 'GBP'),
  GR: fact('GRC', 'EUR'),
  HR: fact('HRV', 'EUR'),
  HU: fact('HUN', 'HUF'),
  IE: fact('IRL', 'EUR'),
  IS: fact('ISL', 'ISK'),
  IT: fact('ITA', 'EUR'),
  LI: fact('LIE', 'CHF'),
  LT: fact('LTU', 'EUR'),
  LU: fact('LUX', 'EUR'),
  LV: fact('LVA', 'EUR'),
  MC: fact('MCO', 'EUR'),
  MT: fact('MLT', 'EUR'),
  NL: fact('NLD', 'EUR'),
  NO: fact('NOR', 'NOK'),
  PL: fact('POL', 'PLN'),
  PT: fact('PRT', 'EUR'),
  RO: fact('ROU', 'RON'),
  SE: fact('SWE', 'SEK'),
  SI: fact('SVN', 'EUR'),
  SK: fact('SVK', 'EUR'),
  SM: fact('SMR', 'EUR'),
  VA: fact('VAT', 'EUR'),
};

/**
 * A country the table does not know (one Enable Banking adds later): the euro, the currency of most of the countries
 * it serves, and `XXX`, the code ICAO uses for an unspecified nationality, rather than a real country's code.
 */
const UNKNOWN: CountryFacts = fact('XXX', 'EUR');

/** What the table says of a country (ISO 3166-1 alpha-2, any letter case). */
export function countryFacts(alpha2: string): CountryFacts {
  const code = alpha2.toUpperCase();
  return Object.hasOwn(COUNTRIES, code) ? COUNTRIES[code]! : UNKNOWN;
}
