import { describe, expect, it } from 'vitest';
import { bestRepresentation, categorize, payeeName } from '../../src/connectors/categorize.js';
import { bestTime } from '../helpers/cost.js';

/** A text of `count` words, all different (`distinct`) or the same few over and over. */
function text(count: number, distinct: boolean): string {
  const words: string[] = [];
  // Letters only: digits would drop the word. Base-26 spelled, so every word differs.
  const spell = (n: number) => {
    let s = '';
    do {
      s += String.fromCharCode(65 + (n % 26));
      n = Math.floor(n / 26);
    } while (n > 0);
    return `W${s}`;
  };
  for (let i = 0; i < count; i++) words.push(spell(distinct ? i : i % 7));
  return words.join(' ');
}

/** Categorises each text as a debit in the US. */
function categorizeAll(texts: readonly string[]): void {
  for (const t of texts) categorize(t, undefined, 'debit', 'USA');
}

describe('the cost of a long description', () => {
  it('is linear in its length, however many different words it has (regression: a list searched for every word)', () => {
    // The same bytes on both sides, every word different: long texts against four times as many texts a quarter as long.
    // Each text differs from the others, so none is answered from the memo.
    const tag = (i: number) => ` V${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`;
    const long = Array.from({ length: 8 }, (_, i) => text(12_000, true) + tag(i));
    const short = Array.from({ length: 32 }, (_, i) => text(3_000, true) + tag(i));
    expect(long[0]!.length).toBeGreaterThan(50_000);
    bestTime(categorizeAll, short.slice(0, 4), 5);
    const plain = bestTime(categorizeAll, short, 5).ms;
    const hostile = bestTime(categorizeAll, long, 5).ms;
    expect(hostile / plain, `8 long texts ${hostile.toFixed(1)} ms, 32 short ones ${plain.toFixed(1)} ms`).toBeLessThan(2);
  });

  it('gives the same words in the same order as before', () => {
    expect(bestRepresentation('STARBUCKS STORE 123 STARBUCKS', 'card purchase')).toBe(bestRepresentation('STARBUCKS STORE 123 STARBUCKS', 'card purchase'));
    expect(bestRepresentation('AMAZON MKTPLACE AMAZON PMTS')).toMatch(/^AMAZON MKTPLACE PMTS$/);
  });

  it('looks for the payee in the first characters only, whatever the text is made of', () => {
    // What the payee's reading treats specially, over and over: channel words, a word joined by hyphens and dots,
    // processor stars, a person transfer without an end. The same bytes on both sides, as above.
    const shapes = ['POS DEBIT CHECKCARD ', 'A-B.C-D.', 'SQ *TST* ', 'ZELLE TO AB '];
    const of = (shape: string, chars: number, i: number) => `${shape.repeat(Math.ceil(chars / shape.length)).slice(0, chars)} V${i}`;
    const long = shapes.flatMap((shape) => Array.from({ length: 2 }, (_, i) => of(shape, 64_000, i)));
    const short = shapes.flatMap((shape) => Array.from({ length: 8 }, (_, i) => of(shape, 16_000, i)));
    const payees = (texts: readonly string[]) => {
      for (const t of texts) payeeName(t, t);
    };
    bestTime(payees, short.slice(0, 4), 5);
    const plain = bestTime(payees, short, 5).ms;
    const hostile = bestTime(payees, long, 5).ms;
    expect(hostile / plain, `8 long texts ${hostile.toFixed(1)} ms, 32 short ones ${plain.toFixed(1)} ms`).toBeLessThan(2);
  });
});
