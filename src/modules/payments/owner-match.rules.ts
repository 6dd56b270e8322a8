/**
 * Owner verification scores (docs/payments.md, "How values are matched"): how well a name, address, phone and e-mail
 * from elsewhere match what the institution says of an account's holders, 0 to 100. Deterministic and explainable:
 * text is normalised, cut into tokens, and the tokens of the two values paired by similarity; no lists of people or
 * places beyond the usual abbreviations.
 */
import { countries, getCountryData, type TCountryCode } from 'countries-list';

/** Lower case, accents and other marks dropped, `&` as `and`, anything but letters and digits a separator. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function tokens(text: string, canonical: Readonly<Record<string, string>> = {}): string[] {
  const t = normalizeText(text);
  return t === '' ? [] : t.split(' ').map((w) => canonical[w] ?? w);
}

/**
 * The edit distance of two texts: insertions, deletions, substitutions and swaps of two neighbouring characters,
 * one each (Damerau-Levenshtein, optimal string alignment), so a typed swap counts as one slip.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    const above = rows[i - 1]!;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row[j] = d;
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/** 1 for equal texts, 0 for texts with nothing in common: one less the edit distance over the longer length. */
export function textSimilarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - editDistance(a, b) / longer;
}

/** Below this, two words share too little to be one word misspelt: they count as different. */
const LEAST_SIMILAR = 0.5;

/** Text similarity, 0 below LEAST_SIMILAR. */
function likeness(a: string, b: string): number {
  const s = textSimilarity(a, b);
  return s < LEAST_SIMILAR ? 0 : s;
}

/**
 * Two tokens' similarity: 1 when equal; numbers (a house number, a unit) match only when equal; a lone letter is
 * the initial of a word it starts (0.9); otherwise their text similarity, when it is at least one half.
 */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (/^\d+$/.test(a) || /^\d+$/.test(b)) return 0;
  if ((a.length === 1 && b.startsWith(a)) || (b.length === 1 && a.startsWith(b))) return 0.9;
  return likeness(a, b);
}

/**
 * How well two lists of tokens match, 0 to 1, in any order: the most similar pair is taken first, then the most
 * similar of the rest, and so on; the pairs' similarities count twice over the two lists' lengths (the Dice
 * coefficient, with similar tokens counting in part).
 */
export function tokenSetSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const pairs: { i: number; j: number; s: number }[] = [];
  for (let i = 0; i < a.length; i++) for (let j = 0; j < b.length; j++) pairs.push({ i, j, s: tokenSimilarity(a[i]!, b[j]!) });
  pairs.sort((x, y) => y.s - x.s || x.i - y.i || x.j - y.j);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  let sum = 0;
  for (const p of pairs) {
    if (p.s === 0 || usedA.has(p.i) || usedB.has(p.j)) continue;
    usedA.add(p.i);
    usedB.add(p.j);
    sum += p.s;
  }
  return (2 * sum) / (a.length + b.length);
}

const score = (similarity: number) => Math.round(100 * similarity);

/** Suffixes as one spelling: `Jr.`, `Junior` and `jr` are one, so are `III` and `3rd`. */
const SUFFIXES: Readonly<Record<string, string>> = {
  junior: 'jr',
  senior: 'sr',
  '2nd': 'ii',
  second: 'ii',
  '3rd': 'iii',
  third: 'iii',
  '4th': 'iv',
  fourth: 'iv',
};

/**
 * Address words as the United States Postal Service abbreviates them (Publication 28, the common ones), so `Road`
 * and `Rd`, `Suite` and `Ste`, `North` and `N` match.
 */
const ADDRESS_WORDS: Readonly<Record<string, string>> = {
  street: 'st',
  avenue: 'ave',
  av: 'ave',
  road: 'rd',
  drive: 'dr',
  lane: 'ln',
  boulevard: 'blvd',
  court: 'ct',
  place: 'pl',
  terrace: 'ter',
  circle: 'cir',
  highway: 'hwy',
  parkway: 'pkwy',
  square: 'sq',
  trail: 'trl',
  crossing: 'xing',
  expressway: 'expy',
  suite: 'ste',
  apartment: 'apt',
  building: 'bldg',
  floor: 'fl',
  room: 'rm',
  department: 'dept',
  north: 'n',
  south: 's',
  east: 'e',
  west: 'w',
  northeast: 'ne',
  northwest: 'nw',
  southeast: 'se',
  southwest: 'sw',
  saint: 'st',
  mount: 'mt',
  fort: 'ft',
};

/** US states, DC and territories by name, for a state given by name where the institution gives its code. */
const STATES: Readonly<Record<string, string>> = Object.fromEntries(
  (
    'AL alabama|AK alaska|AZ arizona|AR arkansas|CA california|CO colorado|CT connecticut|DE delaware|DC district of columbia|' +
    'FL florida|GA georgia|HI hawaii|ID idaho|IL illinois|IN indiana|IA iowa|KS kansas|KY kentucky|LA louisiana|ME maine|' +
    'MD maryland|MA massachusetts|MI michigan|MN minnesota|MS mississippi|MO missouri|MT montana|NE nebraska|NV nevada|' +
    'NH new hampshire|NJ new jersey|NM new mexico|NY new york|NC north carolina|ND north dakota|OH ohio|OK oklahoma|OR oregon|' +
    'PA pennsylvania|RI rhode island|SC south carolina|SD south dakota|TN tennessee|TX texas|UT utah|VT vermont|VA virginia|' +
    'WA washington|WV west virginia|WI wisconsin|WY wyoming|PR puerto rico|GU guam|VI virgin islands|AS american samoa|MP northern mariana islands'
  )
    .split('|')
    .map((entry) => [entry.slice(3), entry.slice(0, 2).toLowerCase()]),
);

/** A state as its two-letter code when it is a US state's name or code; otherwise its normalised text. */
function stateKey(state: string): string {
  const t = normalizeText(state);
  return STATES[t] ?? t;
}

const ALPHA2_BY_ALPHA3 = new Map<string, string>();
const ALPHA2_BY_NAME = new Map<string, string>();
for (const code of Object.keys(countries) as TCountryCode[]) {
  const data = getCountryData(code);
  ALPHA2_BY_ALPHA3.set(data.iso3.toLowerCase(), code.toLowerCase());
  for (const name of [data.name, ...(data.alias ?? [])]) ALPHA2_BY_NAME.set(normalizeText(name), code.toLowerCase());
}

/** A country as its ISO alpha-2 code, given as alpha-2, alpha-3, its English name or a usual other name. */
function countryKey(country: string): string {
  const t = normalizeText(country);
  return ALPHA2_BY_NAME.get(t) ?? ALPHA2_BY_ALPHA3.get(t) ?? t;
}

/** Postal codes compared by their letters and digits (a ZIP+4 as its five-digit ZIP). */
function postalKey(code: string): string {
  const t = normalizeText(code).replace(/ /g, '');
  return /^\d{9}$/.test(t) ? t.slice(0, 5) : t;
}

/** How far two postal codes agree from the start (nearby areas share their first digits), 0 to 100. */
export function postalCodeScore(given: string, stored: string): number {
  const a = postalKey(given);
  const b = postalKey(stored);
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 100;
  let same = 0;
  while (same < a.length && same < b.length && a[same] === b[same]) same++;
  return score(same / longer);
}

/** A name (or a name part): its tokens in any order, suffixes in one spelling. */
export function nameScore(given: string, stored: string | undefined): number {
  return score(tokenSetSimilarity(tokens(given, SUFFIXES), tokens(stored ?? '', SUFFIXES)));
}

/** An address line (or a whole address): its tokens in any order, words as the postal service abbreviates them. */
export function addressLineScore(given: string, stored: string | undefined): number {
  return score(tokenSetSimilarity(tokens(given, ADDRESS_WORDS), tokens(stored ?? '', ADDRESS_WORDS)));
}

export function stateScore(given: string, stored: string | undefined): number {
  const a = stateKey(given);
  const b = stateKey(stored ?? '');
  if (a === b) return 100;
  // Two different codes are two states; a name the table does not know is compared as text.
  if (a.length <= 2 || b.length <= 2) return 0;
  return score(tokenSetSimilarity(a.split(' '), b.split(' ')));
}

export function countryScore(given: string, stored: string | undefined): number {
  return countryKey(given) === countryKey(stored ?? '') ? 100 : 0;
}

/** Whether two words name the same thing, whatever their letter case (an address's type). */
export function sameWordScore(given: string, stored: string | undefined): number {
  return normalizeText(given) === normalizeText(stored ?? '') ? 100 : 0;
}

/** A whole address as one text: lines, city, state as its code and postal code, for the whole-address score. */
export function wholeAddress(parts: { line1?: string; line2?: string; line3?: string; city?: string; state?: string; postalCode?: string }): string {
  return [
    parts.line1,
    parts.line2,
    parts.line3,
    parts.city,
    parts.state === undefined ? undefined : stateKey(parts.state),
    parts.postalCode === undefined ? undefined : postalKey(parts.postalCode),
  ]
    .filter((p) => p !== undefined && p.trim() !== '')
    .join(' ');
}

/** North American numbers as their ten digits (a leading country code 1 dropped); others as their digits. */
function phoneDigits(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

/**
 * Phone numbers by their digits: 100 when the same, 25 less for each digit added, dropped, changed or swapped with
 * its neighbour (a slip of the keyboard), 0 from four slips on: another line, however many digits the area shares.
 */
export function phoneScore(given: string, stored: string): number {
  return Math.max(0, 100 - 25 * editDistance(phoneDigits(given), phoneDigits(stored)));
}

/**
 * E-mail addresses, without regard to case: the part before the `@` says who it is (less than half alike: someone
 * else), the domain where; a different domain halves the score at most (the same name at another provider is likely
 * the same person, another name at the same provider is not).
 */
export function emailScore(given: string, stored: string): number {
  const split = (e: string) => {
    const t = e.trim().toLowerCase();
    const at = t.lastIndexOf('@');
    return at < 0 ? [t, ''] : [t.slice(0, at), t.slice(at + 1)];
  };
  const [localA, domainA] = split(given);
  const [localB, domainB] = split(stored);
  return score(likeness(localA!, localB!) * (0.5 + 0.5 * textSimilarity(domainA!, domainB!)));
}
