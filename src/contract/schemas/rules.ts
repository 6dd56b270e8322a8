/**
 * A partner's transaction rules (a Ledgerlink extension, docs/aggregation.md "Rules"): conditions on what a source
 * gives for a transaction, and actions setting its category, payee or memo, applied on every import and refresh and
 * again on demand.
 */
import Type from 'typebox';
import { RequiredString } from './common.js';

const O = <T extends Type.TSchema>(schema: T) => Type.Optional(schema);
const oneOf = <T extends string>(values: readonly T[], options: Record<string, unknown>) =>
  Type.Unsafe<T>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      options,
    ),
  );

/** What a condition looks at. */
export const RULE_CONDITION_FIELDS = ['description', 'payee', 'amount', 'account', 'institution'] as const;
export type RuleConditionField = (typeof RULE_CONDITION_FIELDS)[number];

/** How a condition compares. */
export const RULE_OPERATORS = ['contains', 'matches', 'equals', 'greaterThan', 'lessThan'] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];

/** The operators each field takes: text is searched, amounts compared, ids named. */
export const RULE_FIELD_OPERATORS: Record<RuleConditionField, readonly RuleOperator[]> = {
  description: ['contains', 'matches', 'equals'],
  payee: ['contains', 'matches', 'equals'],
  amount: ['equals', 'greaterThan', 'lessThan'],
  account: ['equals'],
  institution: ['equals'],
};

/** What an action sets. */
export const RULE_ACTION_FIELDS = ['category', 'payee', 'memo'] as const;
export type RuleActionField = (typeof RULE_ACTION_FIELDS)[number];

/** Most conditions and rules, and the longest texts: a rule is read for every transaction stored. */
export const RULE_LIMITS = {
  /** Rules a partner keeps. */
  rules: 250,
  /** Conditions of one rule. */
  conditions: 10,
  /** Characters of a condition's value; a `matches` pattern is held to `patternLength`. */
  valueLength: 200,
  patternLength: 100,
  /** Characters of a text a pattern is tried on (the start of a description or payee). */
  patternInput: 128,
  /** `matches` conditions among all of a partner's rules: each may cost up to the square of patternInput per text. */
  patterns: 50,
  /** Characters of a payee or memo an action sets. */
  actionLength: 200,
  /** Transactions a preview lists, and the most recent it looks at. */
  preview: 50,
  previewExamined: 20000,
} as const;

export const RuleCondition = Type.Object(
  {
    field: oneOf(RULE_CONDITION_FIELDS, {
      description:
        "`description`: the source's description; `payee`: its payee name (`categorization.normalizedPayeeName`); `amount`: the amount, signed (money out negative); `account`: the account's id; `institution`: the institution's id",
      examples: ['description'],
    }),
    operator: oneOf(RULE_OPERATORS, {
      description:
        'Text (description, payee): `contains`, `equals` (both ignoring case) or `matches` (a regular expression, ignoring case; limits in docs/aggregation.md). Amount: `equals`, `greaterThan`, `lessThan`. Account, institution: `equals`',
      examples: ['contains'],
    }),
    value: RequiredString({
      maxLength: RULE_LIMITS.valueLength,
      description: 'The text, pattern, amount (a decimal number such as -25.50) or id compared with',
      examples: ['WHOLE FOODS'],
    }),
  },
  { xml: { name: 'condition' } },
);

export const RuleAction = Type.Object(
  {
    field: oneOf(RULE_ACTION_FIELDS, {
      description:
        '`category`: `categorization.category` (one of the categories of docs/aggregation.md); `payee`: `categorization.normalizedPayeeName`; `memo`: `memo` (empty clears it)',
      examples: ['category'],
    }),
    value: Type.String({ maxLength: RULE_LIMITS.actionLength, description: 'The value set', examples: ['Groceries'] }),
  },
  { xml: { name: 'action' } },
);

/** A rule as it is created or replaced. */
export const RuleBody = Type.Object(
  {
    name: O(Type.String({ maxLength: 100, description: 'A name for people; not used by the rule', examples: ['Groceries at Whole Foods'] })),
    position: O(
      Type.Integer({
        minimum: 0,
        maximum: 1000000,
        description:
          'Where the rule applies in the order: lower first, a later rule winning on a field both set; rules of one position apply in the order they were created. Default 0',
        examples: [0],
      }),
    ),
    conditions: Type.Array(RuleCondition, {
      minItems: 1,
      maxItems: RULE_LIMITS.conditions,
      description: "All must hold for the rule to apply; each is tried on the source's values",
    }),
    actions: Type.Array(RuleAction, { minItems: 1, maxItems: RULE_ACTION_FIELDS.length, description: 'At most one per field' }),
  },
  { xml: { name: 'rule' } },
);

/** A stored rule. */
export const Rule = Type.Object(
  {
    id: Type.Integer({ description: "The rule's id", examples: [9100000000] }),
    name: O(Type.String({ examples: ['Groceries at Whole Foods'] })),
    position: Type.Integer({ examples: [0] }),
    conditions: Type.Array(RuleCondition),
    actions: Type.Array(RuleAction),
    createdDate: Type.Integer({ description: 'Epoch seconds', examples: [1795310000] }),
    modifiedDate: Type.Integer({ description: 'Epoch seconds', examples: [1795310000] }),
  },
  { xml: { name: 'rule' } },
);

export const RuleList = Type.Object({ rules: Type.Array(Rule, { description: 'In the order they apply' }) }, { xml: { name: 'rules' } });

export const RuleParams = Type.Object({ ruleId: Type.String({ maxLength: 20, description: "The rule's id", examples: ['9100000000'] }) });

/** Which stored transactions applying the rules again looks at. */
export const RulesApplyBody = Type.Object(
  {
    customerId: O(Type.String({ maxLength: 20, description: "Only this customer's transactions; all the partner's without it", examples: ['1005061234'] })),
  },
  // Nothing is required, so a body naming anything else is refused rather than taken for "all customers".
  { xml: { name: 'apply' }, additionalProperties: false },
);

export const RulesApplied = Type.Object(
  {
    examined: Type.Integer({ description: 'Transactions looked at', examples: [1250] }),
    modified: Type.Integer({ description: 'Transactions whose category, payee or memo changed (each with a TxPUSH `modified` event)', examples: [12] }),
  },
  { xml: { name: 'rulesApplied' } },
);

/** A rule tried on stored transactions before it is saved. */
export const RulePreviewBody = Type.Object(
  {
    rule: RuleBody,
    replacesRuleId: O(Type.String({ maxLength: 20, description: 'The rule it would replace (an edit); absent for a new rule', examples: ['9100000000'] })),
    customerId: O(Type.String({ maxLength: 20, description: "Only this customer's transactions", examples: ['1005061234'] })),
  },
  { xml: { name: 'preview' } },
);

const ruledValues = (description: string) =>
  Type.Object(
    {
      category: Type.String({ examples: ['Groceries'] }),
      payee: Type.String({ examples: ['Whole Foods'] }),
      memo: O(Type.String()),
    },
    { description },
  );

export const RulePreviewTransaction = Type.Object(
  {
    id: Type.Integer({ examples: [20000000001] }),
    customerId: Type.Integer({ examples: [1005061234] }),
    accountId: Type.Integer({ examples: [5011000001] }),
    description: Type.String({ examples: ['CHECKCARD 0915 WHOLE FOODS'] }),
    amount: Type.Number({ examples: [-54.1] }),
    transactionDate: Type.Integer({ description: 'Epoch seconds', examples: [1772452800] }),
    before: ruledValues('As stored now'),
    after: ruledValues('With the rule saved and the rules applied again'),
  },
  { xml: { name: 'transaction' } },
);

export const RulePreview = Type.Object(
  {
    examined: Type.Integer({ description: 'Transactions looked at', examples: [1250] }),
    matched: Type.Integer({ description: "Transactions whose values meet the rule's conditions", examples: [14] }),
    changed: Type.Integer({ description: 'Transactions whose category, payee or memo would change', examples: [12] }),
    transactions: Type.Array(RulePreviewTransaction, {
      description: `The first ${RULE_LIMITS.preview} that would change, the most recent first (of the ${RULE_LIMITS.previewExamined} most recent transactions looked at)`,
    }),
  },
  { xml: { name: 'rulePreview' } },
);
