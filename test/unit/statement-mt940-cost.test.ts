import { beforeAll, describe, expect, it } from 'vitest';
import { StatementFileError } from '../../src/connectors/statements/csv.js';
import { readMt940Statement } from '../../src/connectors/statements/mt940.js';
import { bestTimes, orRefused, repeatTo } from '../helpers/cost.js';

// Large enough that more than linear work shows many times over; each body is read ten times.
const SIZE = 1024 * 1024;

const HEAD = ':20:STARTUMS\r\n:25:DE89370400440532013000\r\n:28C:00001/001\r\n:60F:C260101EUR1000,00\r\n';
const TAIL = ':62F:C260131EUR1000,00\r\n-\r\n';

/** A real-looking statement of about SIZE characters: German structured texts, wrapped at 65. */
function plainBody(): string {
  const parts: string[] = [HEAD];
  let length = 0;
  for (let i = 0; length < SIZE; i++) {
    const t =
      `:61:2601${String((i % 28) + 1).padStart(2, '0')}0102D${(i % 900) + 1},17N105NONREF//${String(i).padStart(12, '0')}\r\n` +
      `:86:105?00SEPA-BASISLASTSCHRIFT?100153?20EREF+${i}?21SVWZ+Rechnung ${i % 10_000} vom 0\r\n` +
      `1.01.2026?30HELADEF1822?31DE02500105170137075030?32Stadtwerke ${i % 1000}\r\n`;
    parts.push(t);
    length += t.length;
  }
  parts.push(TAIL);
  return parts.join('');
}

const inStatement = (body: string) => `${HEAD}${body}${TAIL}`;

/** Bodies of about SIZE characters built to make the reader do more than linear work, or hold on to a lot of memory. */
const hostileBodies: Record<string, string> = {
  'one huge line': inStatement(`:86:${repeatTo('x', SIZE)}\r\n`),
  'one huge :86: of many lines': inStatement(`:61:260102D1,NMSC\r\n:86:${repeatTo('abc def\r\n', SIZE)}`),
  'one statement line with many :86: fields': inStatement(`:61:260102D1,NMSC\r\n${repeatTo(':86:abc def\r\n', SIZE)}`),
  'many terminators': repeatTo('-\r\n', SIZE),
  'many empty messages': repeatTo(':20:X\r\n', SIZE),
  'many block headers': repeatTo('{1:F01BANKDEFFXXXX0000000000}{2:O940BANKDEFFXXXX}{4:\r\n', SIZE),
  'a line of braces': `{${repeatTo('{', SIZE)}`,
  'many unknown tags': inStatement(repeatTo(':99Z:value\r\n', SIZE)),
  'many accounts': repeatTo(':20:X\r\n:25:DE89370400440532013000USD\r\n:60F:C260101USD1,\r\n-\r\n', SIZE),
  'many unreadable statement lines': inStatement(repeatTo(':61:999999C1,NTRFNONREF//XXXXXXXXXXX\r\n', SIZE)),
  // Past the reader's limit of statement lines whatever SIZE is.
  'many statement lines past the limit': inStatement(':61:260102C1,NTRF\r\n'.repeat(100_001)),
  'many subfield separators': inStatement(repeatTo(`:61:260102D1,NMSC\r\n:86:166${repeatTo('?20', 8000)}\r\n`, SIZE)),
  'many SEPA keywords': inStatement(repeatTo(`:61:260102D1,NMSC\r\n:86:166?20${repeatTo('SVWZ+EREF+', 8000)}\r\n`, SIZE)),
  'many slash codes': inStatement(repeatTo(`:61:260102D1,NMSC\r\n:86:${repeatTo('/NAME/', 8000)}\r\n`, SIZE)),
  'many unreadable balances': inStatement(repeatTo(':62F:CXXXXXXEUR1,\r\n', SIZE)),
  // Past the limit of statement lines too, as at any size where the shortest records fill the body (a body of them
  // under the limit reads at about four times the plain body's cost per character: many more records per character).
  'many lone carriage returns': inStatement(':61:260102D1,NMSC\r:86:Shop\r'.repeat(100_001)),
};

/**
 * Bodies of as many records as their size allows, which cost more per character than the plain body because each
 * record costs the same whatever its length: each is compared with a body of as many distinct records of the same
 * length, which a real statement of small payments is.
 */
const denseBodies: Record<string, { hostile: string; legitimate: string }> = {
  'many identical lines': {
    hostile: inStatement(repeatTo(':61:260102D1,NMSC\r\n:86:Same shop\r\n', SIZE)),
    legitimate: inStatement(distinctShortRecords(SIZE)),
  },
};

/** Short statement lines with distinct dates, amounts and texts, each as long as the identical lines above. */
function distinctShortRecords(size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const record = `:61:2601${String((i % 28) + 1).padStart(2, '0')}D${i % 10},NMSC\r\n:86:Shop ${String(i % 10_000).padStart(4, '0')}\r\n`;
    parts.push(record);
    length += record.length;
  }
  return parts.join('');
}

const read = orRefused(readMt940Statement, StatementFileError);

/** What reading leaves to be kept and stored, in characters of its JSON. */
const keptSize = (text: string) => JSON.stringify(read(text) ?? {}).length;

describe('the cost of hostile MT940 bodies', () => {
  const plain = plainBody();
  beforeAll(() => {
    // The first runs compile the reader; they are not what is compared.
    for (let i = 0; i < 3; i++) read(plain);
  });

  it('the plain body is a real statement of about SIZE characters that reads completely', () => {
    expect(plain.length).toBeGreaterThanOrEqual(SIZE);
    const result = readMt940Statement(plain);
    expect(result.transactions.length).toBeGreaterThan(3_000);
    expect(result.transactions[0]).toMatchObject({ description: 'Stadtwerke 0', memo: 'Rechnung 0 vom 01.01.2026', amount: -1.17 });
    // Its balances are made up: the one problem is that the lines do not add up.
    expect(result.problems).toHaveLength(1);
  });

  it.each(Object.keys(hostileBodies))('%s: refused or read in at most three times the plain body', (name) => {
    const body = hostileBodies[name]!;
    expect(body.length).toBeGreaterThan(SIZE * 0.6);
    const cost = bestTimes(read, plain, body, { settledBelow: 1.5 });
    expect(cost.hostile / cost.plain, `${name}: ${cost.hostile.toFixed(0)} ms, plain ${cost.plain.toFixed(0)} ms`).toBeLessThan(3);
  });

  it.each(Object.keys(denseBodies))('%s: refused or read in at most three times as many distinct records of the same length', (name) => {
    const { hostile, legitimate } = denseBodies[name]!;
    expect(Math.abs(hostile.length - legitimate.length) / legitimate.length).toBeLessThan(0.01);
    read(legitimate);
    const cost = bestTimes(read, legitimate, hostile, { settledBelow: 1.5 });
    expect(cost.hostile / cost.plain, `${name}: ${cost.hostile.toFixed(0)} ms, distinct records ${cost.plain.toFixed(0)} ms`).toBeLessThan(3);
  });

  it('what a hostile body leaves to store is at most what the shortest statement lines leave per character', () => {
    // Each statement line becomes a record of its own, whatever its length: the shortest lines leave the most.
    const shortest = inStatement(repeatTo(':61:260102D1,NMSC\r\n', 1024 * 1024));
    const bound = keptSize(shortest) / shortest.length;
    const bodies = { ...hostileBodies, ...Object.fromEntries(Object.entries(denseBodies).map(([name, b]) => [name, b.hostile])) };
    for (const [name, body] of Object.entries(bodies)) {
      const kept = keptSize(body) / body.length;
      expect(kept, `${name}: ${kept.toFixed(2)} characters kept per character read, the shortest lines ${bound.toFixed(2)}`).toBeLessThanOrEqual(bound);
    }
  });

  it('names a bounded number of problems, and texts of a bounded length, however many lines are broken', () => {
    const broken = readMt940Statement(hostileBodies['many unreadable statement lines']!);
    expect(broken.problems.length).toBeLessThanOrEqual(501);
    expect(broken.problems.at(-1)?.message).toMatch(/^\d+ more problems were found\.$/);
    const huge = readMt940Statement(hostileBodies['one huge :86: of many lines']!);
    // The field's characters are bounded; the spaces its lines are joined with come on top.
    expect(huge.transactions[0]!.description.length).toBeLessThanOrEqual(2 * 8192);
    expect(() => readMt940Statement(hostileBodies['many statement lines past the limit']!)).toThrow(/more than 100,000 statement lines/);
  });
});
