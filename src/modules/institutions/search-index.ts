/**
 * In-memory institution search: ranks every institution whose name, home page or login page contains the search
 * text, best matches first. Built in a few hundred milliseconds when a process first reads the catalogue (and
 * again only when names or web addresses change); a search costs microseconds (see docs/benchmarks.md).
 *
 * Ranking, best first:
 *   exact     the whole name (or web address) is the search text
 *   prefix    it starts with the search text
 *   word      a word inside it starts with the search text
 *   substring it contains the search text anywhere
 * At each level name matches come before matches on a web address only. Equally good matches keep the order of
 * the entries given to the index (the catalogue passes them most popular first, then by name).
 *
 * Matching ignores case, accents and repeated white space. Web addresses are compared without their scheme,
 * a leading "www." and a trailing "/", and so is search text that looks like one, so "https://www.chase.com/",
 * "www.chase.com" and "chase.com" all find the same institution.
 */
export interface SearchableInstitution {
  name: string;
  urlHomeApp: string;
  urlLogonApp: string;
}

/** Match levels; a lower number ranks first. */
export const Tier = {
  ExactName: 0,
  ExactUrl: 1,
  PrefixName: 2,
  PrefixUrl: 3,
  WordName: 4,
  WordUrl: 5,
  SubstringName: 6,
  SubstringUrl: 7,
  None: 255,
} as const;
const TIER_COUNT = 8;

/** Lower case, accents removed, control characters and runs of white space turned into one space. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s\u0000-\u001f\u007f]+/g, ' ')
    .trim();
}

/** A web address as it is indexed: folded, without scheme, leading "www." or trailing slashes. */
export function urlKey(url: string): string {
  return foldText(url)
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
}

/** The search text as it is matched: folded; when it looks like a web address, reduced like one. */
export function normalizeQuery(query: string): string {
  const folded = foldText(query);
  const asUrl = /^(https?:\/\/|www\.)/.test(folded) ? urlKey(folded) : folded;
  return asUrl || folded;
}

function isWordChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code > 127;
}

// N-grams (n = 1..3) over a 6-bit alphabet: letters, digits and common punctuation get their own code, anything
// else shares one. For text of at most three known characters a posting list is exactly the set of entries that
// contain it; otherwise it is a superset and candidates are verified with includes.
const GRAM_BITS = 6;
const OTHER = 63;
const CHAR_CODE = new Uint8Array(128).fill(OTHER);
"abcdefghijklmnopqrstuvwxyz0123456789 .-/&'_".split('').forEach((c, i) => (CHAR_CODE[c.charCodeAt(0)] = i + 1));
const charCode = (c: number) => (c < 128 ? CHAR_CODE[c]! : OTHER);

/** Entry numbers in as few bytes as they need: two while there are at most 65,536 entries, else four. */
type EntryList = Uint16Array | Int32Array;

function entryList(length: number, entryCount: number): EntryList {
  return entryCount <= 0x10000 ? new Uint16Array(length) : new Int32Array(length);
}

function gramAt(s: string, i: number, n: number): number {
  let g = 0;
  for (let k = 0; k < n; k++) g = (g << GRAM_BITS) | charCode(s.charCodeAt(i + k));
  return g;
}

/** For each n-gram, the ascending list of entries whose text contains it (compressed rows). */
class GramPostings {
  private readonly offsets: Int32Array;
  private readonly entries: EntryList;

  constructor(
    texts: readonly string[],
    readonly n: number,
  ) {
    const space = 1 << (n * GRAM_BITS);
    const last = new Int32Array(space).fill(-1);
    const forEach = (visit: (gram: number, entry: number) => void) => {
      texts.forEach((text, e) => {
        for (let p = 0; p + n <= text.length; p++) {
          const g = gramAt(text, p, n);
          if (last[g] === e) continue;
          last[g] = e;
          visit(g, e);
        }
      });
    };
    const offsets = new Int32Array(space + 1);
    forEach((g) => offsets[g + 1]!++);
    for (let g = 0; g < space; g++) offsets[g + 1]! += offsets[g]!;
    const entries = entryList(offsets[space]!, texts.length);
    const next = offsets.slice(0, space);
    last.fill(-1);
    forEach((g, e) => (entries[next[g]!++] = e));
    this.offsets = offsets;
    this.entries = entries;
  }

  /** The posting list of q's rarest n-gram: every entry containing q is in it. */
  candidates(q: string): EntryList {
    let best = this.entries.subarray(0, 0);
    let bestLength = Number.POSITIVE_INFINITY;
    for (let p = 0; p + this.n <= q.length; p++) {
      const g = gramAt(q, p, this.n);
      const length = this.offsets[g + 1]! - this.offsets[g]!;
      if (length < bestLength) {
        bestLength = length;
        best = this.entries.subarray(this.offsets[g]!, this.offsets[g + 1]!);
      }
    }
    return best;
  }
}

/** N-gram postings for n = 1, 2 and 3 over one text per entry. */
class SubstringIndex {
  private readonly byLength: GramPostings[];

  constructor(readonly texts: readonly string[]) {
    this.byLength = [1, 2, 3].map((n) => new GramPostings(texts, n));
  }

  /** The entries that may contain q, and whether all of them surely do (else check with `contains`). */
  candidates(q: string): { entries: EntryList; exact: boolean } {
    const n = Math.min(3, q.length);
    const exact = q.length <= 3 && [...q].every((c) => charCode(c.charCodeAt(0)) !== OTHER);
    return { entries: this.byLength[n - 1]!.candidates(q), exact };
  }

  contains(entry: number, q: string): boolean {
    return this.texts[entry]!.includes(q);
  }
}

export interface SearchResult {
  /** How many entries match (after the filter). */
  total: number;
  /** The entry indices of the requested page, best first. */
  indices: number[];
}

const FLAG_URL = 1;
const FLAG_KEY_START = 2;

/**
 * Where a suffix ends, as a character: the end of its text or the newline between two web addresses. It is lower
 * than any character folded text can hold (control characters become spaces), so comparing suffixes character
 * by character with it orders them exactly as comparing them as strings would.
 */
const END = 10;
const codeAt = (text: string, at: number) => (at < text.length ? text.charCodeAt(at) : END);

/** Compares two suffixes (a text and a start each) as the strings they stand for would compare. */
function compareSuffixes(a: string, aStart: number, b: string, bStart: number): number {
  for (let k = 0; ; k++) {
    const ca = codeAt(a, aStart + k);
    const cb = codeAt(b, bStart + k);
    if (ca !== cb) return ca - cb;
    if (ca === END) return 0;
  }
}

/** Compares the first q.length characters of a suffix with q: 0 when the suffix starts with q. */
function compareStart(text: string, start: number, q: string): number {
  for (let k = 0; k < q.length; k++) {
    const c = codeAt(text, start + k);
    if (c !== q.charCodeAt(k)) return c - q.charCodeAt(k);
  }
  return 0;
}

interface WordStarts {
  entry: EntryList;
  /** Where in the entry's name, or in its web address text (FLAG_URL), the word starts. */
  start: Uint16Array | Int32Array;
  flags: Uint8Array;
}

/** Calls `visit` for every position of a folded text where a word starts, telling whether a name or address starts there. */
function forEachWordStart(text: string, visit: (at: number, keyStart: boolean) => void): void {
  for (let p = 0; p < text.length; p++) {
    if (!isWordChar(text.charCodeAt(p)) || (p > 0 && isWordChar(text.charCodeAt(p - 1)))) continue;
    visit(p, p === 0 || text.charCodeAt(p - 1) === END);
  }
}

/** Every word start of every name and web address text, in entry order, in typed arrays sized by a first count. */
function wordStartsOf(names: readonly string[], urls: readonly string[]): WordStarts {
  let count = 0;
  const texts = [names, urls];
  texts.forEach((list) => list.forEach((text) => forEachWordStart(text, () => count++)));
  const longest = Math.max(...texts.map((list) => list.reduce((max, t) => Math.max(max, t.length), 0)));
  const starts: WordStarts = {
    entry: entryList(count, names.length),
    start: longest <= 0x10000 ? new Uint16Array(count) : new Int32Array(count),
    flags: new Uint8Array(count),
  };
  let k = 0;
  texts.forEach((list, url) =>
    list.forEach((text, e) =>
      forEachWordStart(text, (at, keyStart) => {
        starts.entry[k] = e;
        starts.start[k] = at;
        starts.flags[k++] = (url ? FLAG_URL : 0) | (keyStart ? FLAG_KEY_START : 0);
      }),
    ),
  );
  return starts;
}

export class SearchIndex {
  readonly size: number;
  /**
   * Word starts of every name and web address, sorted as the suffixes from there to the end of that name or
   * address. A suffix is not kept as a string (there are about eleven per institution): it is the entry, whether
   * it lies in the entry's name or web addresses (FLAG_URL), and where in that text it starts.
   */
  private readonly suffixEntry: EntryList;
  private readonly suffixStart: Uint16Array | Int32Array;
  private readonly suffixFlags: Uint8Array;
  private readonly names: SubstringIndex;
  private readonly urls: SubstringIndex;
  /** Scratch space for one search at a time (searches are synchronous). */
  private readonly tiers: Uint8Array;

  constructor(entries: readonly SearchableInstitution[]) {
    this.size = entries.length;
    this.tiers = new Uint8Array(entries.length).fill(Tier.None);
    const names = entries.map((entry) => foldText(entry.name));
    // A newline never occurs in folded search text, so matches cannot span two addresses.
    const urls = entries.map((entry) => [...new Set([urlKey(entry.urlHomeApp), urlKey(entry.urlLogonApp)].filter(Boolean))].join('\n'));
    this.names = new SubstringIndex(names);
    this.urls = new SubstringIndex(urls);
    const starts = wordStartsOf(names, urls);
    const textOf = (i: number) => (starts.flags[i]! & FLAG_URL ? urls : names)[starts.entry[i]!]!;
    const order = Int32Array.from(starts.entry, (_e, i) => i).sort((a, b) => compareSuffixes(textOf(a), starts.start[a]!, textOf(b), starts.start[b]!));
    // Each mapped from its own array, so each keeps its compact element type.
    this.suffixEntry = starts.entry.map((_e, k) => starts.entry[order[k]!]!);
    this.suffixStart = starts.start.map((_s, k) => starts.start[order[k]!]!);
    this.suffixFlags = starts.flags.map((_f, k) => starts.flags[order[k]!]!);
  }

  /**
   * The page [offset, offset + limit) of the entries matching `query` and `accept`, best first; without a
   * query every accepted entry matches, in index order.
   */
  search(query: string | undefined, options: { offset?: number; limit?: number; accept?: (entry: number) => boolean } = {}): SearchResult {
    const offset = Math.max(0, options.offset ?? 0);
    const end = offset + (options.limit ?? Number.POSITIVE_INFINITY);
    const accept = options.accept;
    if (query === undefined) return this.listAll(offset, end, accept);
    const q = normalizeQuery(query);
    if (!q) return { total: 0, indices: [] };
    const touched = this.mark(q);
    const buckets: number[][] = Array.from({ length: TIER_COUNT }, () => []);
    const counts = new Int32Array(TIER_COUNT);
    const tiers = this.tiers;
    // Visiting matches in index order keeps each bucket in popularity order: a scan of the small tier array
    // when many entries match, a numeric sort of the few otherwise.
    const order = touched.length * 16 > this.size ? undefined : Int32Array.from(touched).sort();
    const visits = order ? order.length : this.size;
    for (let k = 0; k < visits; k++) {
      const e = order ? order[k]! : k;
      const t = tiers[e]!;
      if (t === Tier.None) continue;
      tiers[e] = Tier.None;
      if (accept && !accept(e)) continue;
      if (counts[t]!++ < end) buckets[t]!.push(e);
    }
    const total = counts.reduce((a, b) => a + b, 0);
    const ranked: number[] = [];
    for (const b of buckets) {
      for (const e of b) {
        if (ranked.length >= end) break;
        ranked.push(e);
      }
    }
    return { total, indices: ranked.slice(offset, end) };
  }

  private listAll(offset: number, end: number, accept: ((entry: number) => boolean) | undefined): SearchResult {
    if (!accept) {
      const indices: number[] = [];
      for (let e = offset; e < Math.min(end, this.size); e++) indices.push(e);
      return { total: this.size, indices };
    }
    let total = 0;
    const indices: number[] = [];
    for (let e = 0; e < this.size; e++) {
      if (!accept(e)) continue;
      if (total >= offset && total < end) indices.push(e);
      total++;
    }
    return { total, indices };
  }

  /** Sets tiers[e] for every matching entry and returns the entries it touched. */
  private mark(q: string): number[] {
    const touched: number[] = [];
    const tiers = this.tiers;
    // Exact, prefix and word matches: the run of word-start suffixes that begin with q.
    const from = this.firstSuffix(q, (c) => c >= 0);
    const to = this.firstSuffix(q, (c) => c > 0);
    for (let k = from; k < to; k++) {
      const flags = this.suffixFlags[k]!;
      const e = this.suffixEntry[k]!;
      const tier = (flags & FLAG_KEY_START ? (this.suffixLength(k, q.length) ? Tier.ExactName : Tier.PrefixName) : Tier.WordName) + (flags & FLAG_URL);
      const current = tiers[e]!;
      if (tier >= current) continue;
      if (current === Tier.None) touched.push(e);
      tiers[e] = tier;
    }
    // Substring matches among the rest: names first, then web addresses.
    for (const [index, tier] of [
      [this.names, Tier.SubstringName],
      [this.urls, Tier.SubstringUrl],
    ] as const) {
      const { entries, exact } = index.candidates(q);
      for (let k = 0; k < entries.length; k++) {
        const e = entries[k]!;
        if (tiers[e] !== Tier.None || !(exact || index.contains(e, q))) continue;
        touched.push(e);
        tiers[e] = tier;
      }
    }
    return touched;
  }

  /** Whether suffix k is exactly this long (it starts with the search text, so whether it ends right after it). */
  private suffixLength(k: number, length: number): boolean {
    return codeAt(this.suffixText(k), this.suffixStart[k]! + length) === END;
  }

  private suffixText(k: number): string {
    return (this.suffixFlags[k]! & FLAG_URL ? this.urls : this.names).texts[this.suffixEntry[k]!]!;
  }

  /** The first suffix whose comparison with q's length of text satisfies `past` (binary search; suffixes are sorted). */
  private firstSuffix(q: string, past: (comparison: number) => boolean): number {
    let lo = 0;
    let hi = this.suffixEntry.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (past(compareStart(this.suffixText(mid), this.suffixStart[mid]!, q))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
