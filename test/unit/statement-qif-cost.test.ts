import { beforeAll, describe, expect, it } from 'vitest';
import { StatementFileError } from '../../src/connectors/statements/csv.js';
import { readQifStatement } from '../../src/connectors/statements/qif.js';
import { bestTime, orRefused, repeatTo } from '../helpers/cost.js';

// Large enough that more than linear work shows many times over.
const SIZE = 1024 * 1024;

/** A real-looking Quicken export of about SIZE characters: a checking account's payments, some of them split. */
function plainBody(): string {
  const parts = ['!Account\nNEveryday Checking\nTBank\n^\n!Type:Bank\n'];
  let length = 0;
  for (let i = 0; length < SIZE; i++) {
    const day = (i % 28) + 1;
    const split = i % 5 === 0 ? `SGroceries\nEWeekly shop\n$-${(i % 90) + 1}.00\nSHousehold\n$-0.17\n` : '';
    const t = `D${(i % 12) + 1}/${String(day).padStart(2, ' ')}'25\nT-${(i % 90) + 1}.17\nN${1000 + (i % 5000)}\nCX\nPKROGER #${i % 1000}\nMPOS PURCHASE COLUMBUS OH\nLGroceries\n${split}^\n`;
    parts.push(t);
    length += t.length;
  }
  return parts.join('');
}

const distinct = (make: (i: number) => string) => {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < SIZE; i++) {
    const part = make(i);
    parts.push(part);
    length += part.length;
  }
  return parts.join('');
};

/** Bodies of about SIZE characters built to make the reader do more than linear work, or hold on to a lot of memory. */
const hostileBodies: Record<string, string> = {
  'one huge line': `!Type:Bank\nP${repeatTo('x', SIZE)}`,
  'only line breaks': repeatTo('\n', SIZE),
  'only carriage returns': repeatTo('\r', SIZE),
  'only record ends': `!Type:Bank\n${repeatTo('^\n', SIZE)}`,
  'only headers': repeatTo('!Type:Bank\n', SIZE),
  'headers of unknown sections': repeatTo('!Type:Bill\nX\n', SIZE),
  'records before any header': repeatTo('PX\n^\n', SIZE),
  'records without a date': `!Type:Bank\n${repeatTo('T1\n^\n', SIZE)}`,
  'dates that cannot be read': `!Type:Bank\n${repeatTo('D99/99/9999\nT1\n^\n', SIZE)}`,
  'dates padded with spaces': `!Type:Bank\n${repeatTo(`D1/${' '.repeat(2000)}1'26\nT1\n^\n`, SIZE)}`,
  'amounts of a thousand digits': `!Type:Bank\n${repeatTo(`D1/1/2026\nT${'1'.repeat(1000)}\n^\n`, SIZE)}`,
  'one record of a million fields': `!Type:Bank\nD1/1/2026\nT1\n${repeatTo('Pxyz\n', SIZE)}^\n`,
  'one record of a million split lines': `!Type:Bank\nD1/1/2026\nT1\n${repeatTo('SCat\nEa\n$-1.00\n', SIZE)}^\n`,
  'one record of a million split lines without a total': `!Type:Bank\nD1/1/2026\n${repeatTo('SCat\nEa\n$-1.00\n', SIZE)}^\n`,
  'payees of thousands of distinct words': `!Type:Bank\n${distinct((i) => `D1/1/2026\nT-1.00\nP${Array.from({ length: 2000 }, (_, j) => (i * 2000 + j).toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)]!)).join(' ')}\n^\n`)}`,
  'many account names': distinct((i) => `!Account\nNAccount ${i}\nTBank\n^\n`),
  'many accounts with a transaction each': distinct((i) => `!Account\nNAccount ${i}\nTBank\n^\n!Type:Bank\nD1/1/2026\nT-1.00\n^\n`),
  'many investment records with unknown actions': `!Type:Invst\n${repeatTo('D1/1/2026\nNFrobnicate\nT1\n^\n', SIZE)}`,
  'many unnamed account records': repeatTo('!Account\nTBank\n^\n', SIZE),
};

type Outcome = { ms: number; kept: number; outcome: string };

const read = orRefused(
  (text: string) => readQifStatement(text, { currency: 'USD' }),
  StatementFileError,
  (error) => `refused: ${error.message}`,
);

/**
 * The best of three reads (the plain body's is taken once, as its reads cost the most); a hostile body's stop at a
 * read under half the limit (1.5 times the plain body).
 */
function costs(text: string, settledBelow = 0): Outcome {
  const { ms, result } = bestTime(read, text, 3, settledBelow);
  if (typeof result === 'string') return { ms, kept: 0, outcome: result };
  return { ms, kept: JSON.stringify(result).length, outcome: `read ${result.transactions.length} transactions, ${result.problems.length} problems` };
}

describe('the cost of hostile QIF files', () => {
  const plainText = plainBody();
  let plain: Outcome;
  beforeAll(() => {
    // The first read compiles the reader; it is not what is compared.
    readQifStatement(plainText, { currency: 'USD' });
    plain = costs(plainText);
  }, 60_000);

  it('the plain body is a real export of about SIZE characters that reads completely', () => {
    expect(plainText.length).toBeGreaterThanOrEqual(SIZE);
    const read = readQifStatement(plainText, { currency: 'USD' });
    expect(read.transactions.length).toBeGreaterThan(7_000);
    expect(read.problems).toEqual([]);
  });

  it.each(Object.keys(hostileBodies))('%s: refused or read in at most three times the plain body, keeping at most twice what it keeps', (name) => {
    const body = hostileBodies[name]!;
    expect(body.length).toBeGreaterThan(SIZE * 0.6);
    const hostile = costs(body, 1.5 * plain.ms);
    const said = `${name}: ${hostile.outcome}; ${hostile.ms.toFixed(0)} ms, plain ${plain.ms.toFixed(0)} ms`;
    expect(hostile.ms / plain.ms, said).toBeLessThan(3);
    // What a read holds on to is what it returns (a file's records, its problems): no more per byte than a real export's.
    expect(hostile.kept, `${said}; kept ${hostile.kept} characters, plain ${plain.kept}`).toBeLessThanOrEqual(2 * plain.kept);
  });

  it('names a bounded number of problems however many records are broken', () => {
    const read = readQifStatement(hostileBodies['records before any header']!, { currency: 'USD' });
    expect(read.problems.length).toBe(501);
    expect(read.problems.at(-1)?.message).toMatch(/^\d+ more records could not be read\.$/);
  });
});
