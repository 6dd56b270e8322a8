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
  return foldText(url).replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^www\./, '').replace(/\/+$/, '');
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
'abcdefghijklmnopqrstuvwxyz0123456789 .-/&\'_'.split('').forEach((c, i) => (CHAR_CODE[c.charCodeAt(0)] = i + 1));
const charCode = (c: number) => (c < 128 ? CHAR_CODE[c]! : OTHER);

function gramAt(s: string, i: number, n: number): number {
  let g = 0;
  for (let k = 0; k < n; k++) g = (g << GRAM_BITS) | charCode(s.charCodeAt(i + k));
  return g;
}

/** For each n-gram, the ascending list of entries whose text contains it (compressed rows). */
class GramPostings {
  private readonly offsets: Int32Array;
  private readonly entries: Int32Array;

  constructor(texts: readonly string[], readonly n: number) {
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
    const entries = new Int32Array(offsets[space]!);
    const next = offsets.slice(0, space);
    last.fill(-1);
    forEach((g, e) => (entries[next[g]!++] = e));
    this.offsets = offsets;
    this.entries = entries;
  }

  /** The posting list of q's rarest n-gram: every entry containing q is in it. */
  candidates(q: string): Int32Array {
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

  constructor(private readonly texts: readonly string[]) {
    this.byLength = [1, 2, 3].map((n) => new GramPostings(texts, n));
  }

  /** The entries that may contain q, and whether all of them surely do (else check with `contains`). */
  candidates(q: string): { entries: Int32Array; exact: boolean } {
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

export class SearchIndex {
  readonly size: number;
  /** Word-start suffixes of every name and web address, sorted, with parallel arrays describing each. */
  private readonly suffixes: string[];
  private readonly suffixEntry: Int32Array;
  private readonly suffixFlags: Uint8Array;
  private readonly names: SubstringIndex;
  private readonly urls: SubstringIndex;
  /** Scratch space for one search at a time (searches are synchronous). */
  private readonly tiers: Uint8Array;

  constructor(entries: readonly SearchableInstitution[]) {
    this.size = entries.length;
    this.tiers = new Uint8Array(entries.length).fill(Tier.None);
    const names: string[] = [];
    const urls: string[] = [];
    const found: Array<{ suffix: string; entry: number; flags: number }> = [];
    entries.forEach((entry, e) => {
      const name = foldText(entry.name);
      const keys = [...new Set([urlKey(entry.urlHomeApp), urlKey(entry.urlLogonApp)].filter(Boolean))];
      names.push(name);
      // A newline never occurs in folded search text, so matches cannot span two addresses.
      urls.push(keys.join('\n'));
      [name, ...keys].forEach((key, k) => {
        for (let p = 0; p < key.length; p++) {
          if (!isWordChar(key.charCodeAt(p)) || (p > 0 && isWordChar(key.charCodeAt(p - 1)))) continue;
          found.push({ suffix: key.slice(p), entry: e, flags: (k > 0 ? FLAG_URL : 0) | (p === 0 ? FLAG_KEY_START : 0) });
        }
      });
    });
    found.sort((a, b) => (a.suffix < b.suffix ? -1 : a.suffix > b.suffix ? 1 : 0));
    this.suffixes = found.map((f) => f.suffix);
    this.suffixEntry = Int32Array.from(found, (f) => f.entry);
    this.suffixFlags = Uint8Array.from(found, (f) => f.flags);
    this.names = new SubstringIndex(names);
    this.urls = new SubstringIndex(urls);
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
    const from = lowerBound(this.suffixes, q);
    const to = lowerBound(this.suffixes, q + '\uffff');
    for (let k = from; k < to; k++) {
      const flags = this.suffixFlags[k]!;
      const tier = (flags & FLAG_KEY_START ? (this.suffixes[k]!.length === q.length ? Tier.ExactName : Tier.PrefixName) : Tier.WordName) + (flags & FLAG_URL);
      const e = this.suffixEntry[k]!;
      const current = tiers[e]!;
      if (tier >= current) continue;
      if (current === Tier.None) touched.push(e);
      tiers[e] = tier;
    }
    // Substring matches among the rest: names first, then web addresses.
    for (const [index, tier] of [[this.names, Tier.SubstringName], [this.urls, Tier.SubstringUrl]] as const) {
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
}

/** First index whose string is >= q. */
function lowerBound(sorted: readonly string[], q: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < q) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
