import { describe, expect, it } from 'vitest';
import { generateCatalog } from '../../src/modules/institutions/catalog/generate.js';
import { Prng } from '../../src/modules/institutions/catalog/prng.js';
import { foldText, normalizeQuery, SearchIndex, urlKey, type SearchableInstitution } from '../../src/modules/institutions/search-index.js';

const entry = (name: string, home = `https://www.${name.toLowerCase().replace(/[^a-z]/g, '')}.example`, logon = `${home}/login`): SearchableInstitution => ({
  name,
  urlHomeApp: home,
  urlLogonApp: logon,
});

function names(index: SearchIndex, entries: SearchableInstitution[], query: string | undefined, offset = 0, limit = 100): string[] {
  return index.search(query, { offset, limit }).indices.map((i) => entries[i]!.name);
}

/**
 * The ranking rule written as plainly as possible, to check the index against: tier by the best way any name or
 * address contains the text, then index order.
 */
function reference(entries: SearchableInstitution[], query: string): number[] {
  const q = normalizeQuery(query);
  const wordStart = (key: string, at: number) => at === 0 || !/[a-z0-9\u0080-\uffff]/.test(key[at - 1]!);
  const tierOf = (key: string, url: boolean) => {
    let best = 255;
    for (let at = key.indexOf(q); at >= 0; at = key.indexOf(q, at + 1)) {
      const level = at === 0 ? (key.length === q.length ? 0 : 1) : /[a-z0-9\u0080-\uffff]/.test(key[at]!) && wordStart(key, at) ? 2 : 3;
      best = Math.min(best, level * 2 + (url ? 1 : 0));
    }
    return best;
  };
  const tiers = entries.map((e) => {
    const keys = [urlKey(e.urlHomeApp), urlKey(e.urlLogonApp)];
    return Math.min(tierOf(foldText(e.name), false), ...keys.map((k) => tierOf(k, true)));
  });
  return entries
    .map((_e, i) => i)
    .filter((i) => tiers[i]! < 255)
    .sort((a, b) => tiers[a]! - tiers[b]! || a - b);
}

describe('institution search index', () => {
  const entries = [
    entry('First Bank of Springfield'),
    entry('Springfield Savings'),
    entry('Bank of Springfield'),
    entry('Springfield'),
    entry('West Springfield Credit Union'),
    entry('Greenspringfielder Trust'),
    entry('Acme Bank', 'https://www.springfield-acme.example', 'https://online.acme.example/login'),
    entry('Crédit Agricole Québec', 'https://www.ca-quebec.example'),
    entry('Chase', 'https://www.chase.com', 'https://secure.chase.com/web/auth/dashboard'),
    entry('Purchase Federal Credit Union'),
  ];
  const index = new SearchIndex(entries);

  it('ranks exact, then prefix, then word, then substring matches, names before web addresses', () => {
    expect(names(index, entries, 'springfield')).toEqual([
      'Springfield', // exact name
      'Springfield Savings', // name starts with it
      'Acme Bank', // web address starts with it
      'First Bank of Springfield', // a word of the name
      'Bank of Springfield',
      'West Springfield Credit Union',
      'Greenspringfielder Trust', // inside a word
    ]);
  });

  it('ignores case, accents and repeated spaces', () => {
    expect(names(index, entries, 'CREDIT   agricole quebec')).toEqual(['Crédit Agricole Québec']);
    expect(names(index, entries, 'québec')).toEqual(['Crédit Agricole Québec']);
  });

  it('matches web addresses with or without scheme, www and trailing slash', () => {
    for (const q of ['chase.com', 'https://www.chase.com/', 'www.chase.com', 'HTTPS://WWW.CHASE.COM']) {
      expect(names(index, entries, q), q).toEqual(['Chase']);
    }
    expect(names(index, entries, 'secure.chase')).toEqual(['Chase']);
    expect(names(index, entries, 'chase')).toEqual(['Chase', 'Purchase Federal Credit Union']);
  });

  it('finds nothing for text that occurs nowhere, and only within one address', () => {
    expect(index.search('zzz').total).toBe(0);
    // The home page and login page are separate: text spanning both never matches.
    expect(index.search('chase.com secure').total).toBe(0);
  });

  it('lists every entry in index order without a query, and pages it', () => {
    expect(index.search(undefined).total).toBe(entries.length);
    expect(names(index, entries, undefined, 2, 3)).toEqual(entries.slice(2, 5).map((e) => e.name));
  });

  it('applies a filter before counting and paging', () => {
    // Springfield is in entries 0 to 6; the even ones are 0, 2, 4 and 6.
    const onlyEven = index.search('springfield', { accept: (i) => i % 2 === 0 });
    expect(onlyEven.total).toBe(4);
    expect(onlyEven.indices.every((i) => i % 2 === 0)).toBe(true);
  });

  it('agrees with the plain ranking rule over the whole catalogue for many kinds of text', () => {
    const catalog = generateCatalog().map((r) => ({ name: r.name, urlHomeApp: r.url_home_app, urlLogonApp: r.url_logon_app }));
    const big = new SearchIndex(catalog);
    const p = new Prng(7);
    const queries = [
      'a',
      'b',
      'z',
      'an',
      'td',
      'q',
      '&',
      'bank',
      'credit union',
      'first national',
      'chase',
      'chase.com',
      'https://www.chase.com',
      'of spr',
      '-',
      '.example',
      'caisse desjardins de l',
      'x',
      'st.',
      "'",
      'union bank',
    ];
    for (let i = 0; i < 40; i++) {
      const name = foldText(p.pick(catalog).name);
      const from = p.int(0, name.length - 1);
      queries.push(name.slice(from, from + p.int(1, 8)));
    }
    for (const q of queries) {
      if (!normalizeQuery(q)) continue;
      const expected = reference(catalog, q);
      const got = big.search(q, { limit: 50 });
      expect(got.total, q).toBe(expected.length);
      expect(got.indices, q).toEqual(expected.slice(0, 50));
      const deep = big.search(q, { offset: 40, limit: 30 });
      expect(deep.indices, `${q} (page 2)`).toEqual(expected.slice(40, 70));
    }
  });

  it('gives the same results when searched twice (no state leaks between searches)', () => {
    const first = index.search('bank');
    index.search('springfield');
    expect(index.search('bank')).toEqual(first);
  });
});
