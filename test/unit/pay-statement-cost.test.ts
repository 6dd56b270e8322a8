import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { base64Size, MAX_PAY_STATEMENT_BYTES, payStatementType } from '../../src/modules/statements/pay-statements.rules.js';

/** What Store Customer Pay Statement does with the text before it stores anything: check it, size it, decode it, type it. */
function examine(text: string): string | undefined {
  const size = base64Size(text);
  if (size === undefined || size > MAX_PAY_STATEMENT_BYTES) return undefined;
  const document = Buffer.from(text, 'base64');
  expect(document.length).toBe(size);
  return payStatementType(document)?.mediaType;
}

describe('pay statement documents', () => {
  it('reads Base64 with or without padding and line breaks, and refuses other text', () => {
    const pdf = Buffer.from('%PDF-1.7\nhello');
    const text = pdf.toString('base64');
    expect(examine(text)).toBe('application/pdf');
    expect(examine(text.replace(/=+$/, ''))).toBe('application/pdf');
    expect(examine(`${text.slice(0, 4)}\r\n${text.slice(4, 8)}\n${text.slice(8)}`)).toBe('application/pdf');
    for (const bad of ['A', 'AB=C', 'AB===', '====', 'AB_-', 'QUJD RA==', `${text}A`, 'QUJDRA=', 'QUJD\t']) expect(base64Size(bad), bad).toBeUndefined();
    expect(base64Size('QUJDRA==\r\n')).toBe(4);
    expect(examine(Buffer.from('GIF89a').toString('base64'))).toBeUndefined();
  });

  it('counts the decoded bytes from the text alone', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 100, 101, 102]) {
      const text = Buffer.alloc(n, 7).toString('base64');
      expect(base64Size(text)).toBe(n);
      expect(base64Size(text.replace(/=+$/, ''))).toBe(n);
      expect(base64Size(text.replace(/(.{3})/g, '$1\n'))).toBe(n);
    }
  });
});

describe('the cost of examining hostile pay statement text', () => {
  // As long as the largest body the route reads.
  const size = Math.ceil((MAX_PAY_STATEMENT_BYTES * 4) / 3);
  const plain = (
    randomBytes(MAX_PAY_STATEMENT_BYTES)
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join('\r\n');
  const hostile: Record<string, string> = {
    'only line breaks': '\r\n'.repeat(size / 2),
    'a line break after every character': 'A\n'.repeat(size / 2),
    'a bad character at the very end': `${'A'.repeat(size - 1)}!`,
    'padding everywhere': '='.repeat(size),
    'padding in the middle': 'AB=='.repeat(size / 4),
    'a valid document that is no file type': 'A'.repeat(size - (size % 4)),
  };

  function cost(text: string): number {
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      examine(text);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  }

  let plainCost: number;
  beforeAll(() => {
    plainCost = Math.max(cost(plain), 1);
  });

  it.each(Object.keys(hostile))('%s costs at most three times a plain document of the same size', (name) => {
    const took = cost(hostile[name]!);
    expect(took / plainCost, `${name}: ${took.toFixed(1)} ms, plain ${plainCost.toFixed(1)} ms`).toBeLessThan(3);
  });
});
