import { beforeAll, describe, expect, it } from 'vitest';
import { readCamtStatement } from '../../src/connectors/statements/camt.js';
import { StatementFileError } from '../../src/connectors/statements/csv.js';
import { bestTimes, orRefused } from '../helpers/cost.js';
import { hostileBodies, plainBody, SIZE } from '../helpers/camt-bodies.js';

const read = orRefused(readCamtStatement, StatementFileError);

describe('the cost of hostile camt bodies', () => {
  const plain = plainBody();
  beforeAll(() => {
    // The first runs compile the reader; they are not what is compared.
    for (let i = 0; i < 3; i++) read(plain);
  });

  it('the plain body is a real statement of about SIZE characters that reads completely', () => {
    expect(plain.length).toBeGreaterThanOrEqual(SIZE);
    const result = readCamtStatement(plain);
    expect(result.transactions.length).toBeGreaterThan(1_000);
    expect(result.transactions[0]).toMatchObject({ description: 'Stadtwerke 0', memo: 'Rechnung 0 vom 01.01.2026', amount: -1.17, type: 'directDebit' });
    expect(result.problems).toEqual([]);
  });

  it.each(Object.keys(hostileBodies))('%s: refused or read in at most three times the plain body', (name) => {
    const body = hostileBodies[name]!;
    expect(body.length).toBeGreaterThan(SIZE * 0.6);
    const cost = bestTimes(read, plain, body, { settledBelow: 1.5 });
    expect(cost.hostile / cost.plain, `${name}: ${cost.hostile.toFixed(0)} ms, plain ${cost.plain.toFixed(0)} ms`).toBeLessThan(3);
  });

  it('entity expansion, huge attribute counts and nesting past the limit are refused', () => {
    for (const name of [
      'entity expansion',
      'a huge attribute count on one element',
      'an element past the attribute limit after many entries',
      'very deep nesting',
    ]) {
      expect(read(hostileBodies[name]!), name).toBeUndefined();
    }
  });
});
