import { describe, expect, it } from 'vitest';
import { LABELLED, measure, percent } from '../helpers/categorization-set.js';

// The goal of issue 35: payees a person accepts for at least 90 % of the set, categories for at least 85 %.
const PAYEE_GOAL = 0.9;
const CATEGORY_GOAL = 0.85;

describe('the categoriser on the labelled descriptions', () => {
  it('is a set of at least 300 descriptions in English and at least three other languages', () => {
    expect(LABELLED.length).toBeGreaterThanOrEqual(300);
    expect(new Set(LABELLED.map((r) => r.language)).size).toBeGreaterThanOrEqual(4);
  });

  it('names the payee and the category a person would, often enough', () => {
    const a = measure();
    const lines = (misses: typeof a.payeeMisses, what: 'payee' | 'category') =>
      misses.map((m) => `  ${m.record.description}${m.record.memo ? ` / ${m.record.memo}` : ''}: ${m[what]} (expected ${m.record[what]})`).join('\n');
    const summary = `payee ${percent(a.payee, a.count)}, category ${percent(a.category, a.count)} of ${a.count}`;
    expect(a.payee / a.count, `${summary}\npayees missed:\n${lines(a.payeeMisses, 'payee')}`).toBeGreaterThanOrEqual(PAYEE_GOAL);
    expect(a.category / a.count, `${summary}\ncategories missed:\n${lines(a.categoryMisses, 'category')}`).toBeGreaterThanOrEqual(CATEGORY_GOAL);
  });
});
