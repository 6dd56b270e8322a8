/**
 * The labelled descriptions of test/fixtures/categorization/labelled.json and how the categoriser does on them:
 * shared by the accuracy test and the `categorization` bench scenario, so both report the same numbers.
 */
import fs from 'node:fs';
import type { TransactionCategory } from '../../src/connectors/categories.js';
import { categorize } from '../../src/connectors/categorize.js';

export interface LabelledDescription {
  description: string;
  memo?: string;
  /** -1 money out, 1 money in. */
  sign: -1 | 1;
  payee: string;
  category: TransactionCategory;
  language: string;
}

const read = (name: string): readonly LabelledDescription[] =>
  JSON.parse(fs.readFileSync(new URL(`../fixtures/categorization/${name}`, import.meta.url), 'utf8'));

export const LABELLED = read('labelled.json');
/** Written after the categoriser was tuned on LABELLED, and never tuned on: lines it has not seen. */
export const HELD_OUT = read('held-out.json');

export interface Miss {
  record: LabelledDescription;
  payee: string;
  category: TransactionCategory;
}

export interface Accuracy {
  count: number;
  /** Payees equal to the expected one, letter case aside. */
  payee: number;
  /** Payees equal to the expected one, letter case included. */
  payeeExact: number;
  category: number;
  /** Categories answered that are wrong, not Uncategorized: a guess that looks certain. */
  categoryWrong: number;
  byLanguage: Record<string, { count: number; payee: number; category: number }>;
  payeeMisses: Miss[];
  categoryMisses: Miss[];
}

/** Spaces collapsed: a payee is not wrong for a double space, but is for any other difference. */
const plain = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim();

/** Categorises every record as its connector would (a debit or a credit, in the US) and counts the right answers. */
export function measure(set: readonly LabelledDescription[] = LABELLED): Accuracy {
  const result: Accuracy = { count: set.length, payee: 0, payeeExact: 0, category: 0, categoryWrong: 0, byLanguage: {}, payeeMisses: [], categoryMisses: [] };
  for (const record of set) {
    const c = categorize(record.description, record.memo, record.sign < 0 ? 'debit' : 'credit', 'USA');
    const lang = (result.byLanguage[record.language] ??= { count: 0, payee: 0, category: 0 });
    lang.count++;
    const got = plain(c.normalizedPayeeName);
    const want = plain(record.payee);
    const miss = { record, payee: c.normalizedPayeeName, category: c.category };
    if (got.toLocaleLowerCase() === want.toLocaleLowerCase()) {
      result.payee++;
      lang.payee++;
      if (got === want) result.payeeExact++;
    } else result.payeeMisses.push(miss);
    if (c.category === record.category) {
      result.category++;
      lang.category++;
    } else {
      result.categoryMisses.push(miss);
      if (c.category !== 'Uncategorized') result.categoryWrong++;
    }
  }
  return result;
}

/** A share as a percentage with one decimal. */
export const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)} %`;
