import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TRANSACTION_CATEGORIES } from '../../src/connectors/categories.js';
import { ServiceError } from '../../src/contract/errors/service-error.js';
import { applyRules, compileRule } from '../../src/modules/rules/evaluate.js';
import { compilePattern } from '../../src/modules/rules/pattern.js';
import { checkRule } from '../../src/modules/rules/service.js';

const refusal = (pattern: string) => {
  try {
    compilePattern(pattern);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(ServiceError);
    return (e as ServiceError).code;
  }
};

describe('`matches` patterns', () => {
  it.each([
    '^sq \\*.*coffee',
    'starbucks|peets',
    '\\d{4}$',
    '(?:whole foods|wfm) #?\\d{1,3}',
    '[a-z]+ market',
    'caf[eé]',
    '\\p{L}+ bakery',
    '(?<store>target) t-\\d{4}',
    '(ab)?c+',
  ])('accepts %s', (pattern) => {
    expect(refusal(pattern)).toBeUndefined();
  });

  it.each([
    '(a+)+$',
    '(\\w*)*x',
    '(a|ab)*c',
    '(?:x|y){2,9}',
    '((a)+)?b',
    '.*a.*b',
    'a+b+',
    'a{1,20}b{1,20}',
    '(x)\\1',
    '(?<n>x)\\k<n>',
    '(?=a)a',
    '(?<!a)b',
    '[a-',
    'x'.repeat(101),
  ])('refuses %s', (pattern) => {
    expect(refusal(pattern)).toBe('14151');
  });

  it('tries patterns ignoring case, on the description or the payee', () => {
    const rule = compileRule({ id: 1, conditions: [{ field: 'payee', operator: 'matches', value: '^café' }], actions: [{ field: 'memo', value: 'x' }] });
    const subject = { description: 'nothing', payee: 'CAFÉ Amélie', amount: -3, accountId: 1, institutionId: 2 };
    expect(applyRules([rule], subject, { category: 'Uncategorized', payee: 'CAFÉ Amélie', memo: null }).values.memo).toBe('x');
  });
});

describe('applying rules', () => {
  const source = { category: 'Uncategorized', payee: 'Source Payee', memo: 'from the bank' };
  const subject = { description: 'CHECKCARD WHOLE FOODS 123', payee: 'Source Payee', amount: -54.1, accountId: 11, institutionId: 101732 };

  it('applies every rule that matches in order, a later one winning on a field; conditions see the source values', () => {
    const rules = [
      compileRule({
        id: 1,
        conditions: [{ field: 'description', operator: 'contains', value: 'whole foods' }],
        actions: [
          { field: 'category', value: 'Groceries' },
          { field: 'payee', value: 'Whole Foods' },
        ],
      }),
      // Tried on the source's payee, not on the one rule 1 set.
      compileRule({ id: 2, conditions: [{ field: 'payee', operator: 'equals', value: 'whole foods' }], actions: [{ field: 'category', value: 'Gift' }] }),
      compileRule({
        id: 3,
        conditions: [
          { field: 'amount', operator: 'lessThan', value: '-50' },
          { field: 'account', operator: 'equals', value: '11' },
        ],
        actions: [
          { field: 'category', value: 'Shopping' },
          { field: 'memo', value: '' },
        ],
      }),
      compileRule({
        id: 4,
        conditions: [
          { field: 'amount', operator: 'equals', value: '-54.10' },
          { field: 'institution', operator: 'equals', value: '101732' },
        ],
        actions: [{ field: 'payee', value: 'WFM' }],
      }),
      compileRule({ id: 5, conditions: [{ field: 'amount', operator: 'greaterThan', value: '0' }], actions: [{ field: 'category', value: 'Income' }] }),
    ];
    expect(applyRules(rules, subject, source)).toEqual({ values: { category: 'Shopping', payee: 'WFM', memo: null }, applied: [1, 3, 4] });
    expect(applyRules([], subject, source).values).toEqual(source);
  });

  it('checks a rule before it is saved: operators that fit, numbers, known categories, one action per field', () => {
    const code = (f: () => unknown) => {
      try {
        f();
        return undefined;
      } catch (e) {
        return (e as ServiceError).code;
      }
    };
    const category = [{ field: 'category' as const, value: 'Groceries' }];
    expect(checkRule({ conditions: [{ field: 'amount', operator: 'greaterThan', value: ' 10.5 ' }], actions: category })).toMatchObject({
      position: 0,
      name: null,
      conditions: [{ value: '10.5' }],
    });
    expect(code(() => checkRule({ conditions: [{ field: 'account', operator: 'contains', value: '1' }], actions: category }))).toBe('14150');
    expect(code(() => checkRule({ conditions: [{ field: 'amount', operator: 'equals', value: '1e3' }], actions: category }))).toBe('14150');
    expect(
      code(() => checkRule({ conditions: [{ field: 'payee', operator: 'contains', value: 'a' }], actions: [{ field: 'category', value: 'groceries' }] })),
    ).toBe('14150');
    expect(code(() => checkRule({ conditions: [{ field: 'payee', operator: 'matches', value: '(a*)*' }], actions: category }))).toBe('14151');
  });

  it('lists every category a rule may set in docs/aggregation.md', () => {
    const doc = fs.readFileSync('docs/aggregation.md', 'utf8');
    const section = doc.slice(doc.indexOf('## Rules'), doc.indexOf('\n## ', doc.indexOf('## Rules') + 1));
    for (const c of TRANSACTION_CATEGORIES) expect(section, c).toContain(`\`${c}\``);
  });
});
