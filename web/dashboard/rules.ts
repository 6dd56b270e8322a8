/**
 * Transaction rules (docs/aggregation.md, "Rules"): the partner's rules in the order they apply, a form to create or
 * edit one with a preview of what it would change before it is saved, and applying them again to stored transactions.
 * A customer's transactions page links here with a transaction's description, payee and account
 * (#/rules?description=…&payee=…&account=…), which fill a new rule's conditions.
 */
import type {
  DashboardRule,
  DashboardRuleAction,
  DashboardRuleBody,
  DashboardRuleCondition,
  DashboardRulePreview,
  DashboardRulesApplied,
  DashboardRulesPage,
} from '../shared/contract.js';
import { money } from '../shared/dom.js';
import { api } from './api.js';
import {
  alertBox,
  emptyState,
  field,
  h,
  inlineConfirm,
  messageOf,
  onSubmit,
  pageHeader,
  section,
  selectField,
  table,
  toast,
  toastAfter,
  withBusy,
} from './ui.js';

type Field = DashboardRuleCondition['field'];
type Operator = DashboardRuleCondition['operator'];

const FIELDS: [Field, string][] = [
  ['description', 'Description'],
  ['payee', 'Payee'],
  ['amount', 'Amount'],
  ['account', 'Account id'],
  ['institution', 'Institution id'],
];
const OPERATORS: Record<Field, [Operator, string][]> = {
  description: [
    ['contains', 'contains'],
    ['equals', 'is'],
    ['matches', 'matches pattern'],
  ],
  payee: [
    ['contains', 'contains'],
    ['equals', 'is'],
    ['matches', 'matches pattern'],
  ],
  amount: [
    ['lessThan', 'is less than'],
    ['greaterThan', 'is greater than'],
    ['equals', 'is'],
  ],
  account: [['equals', 'is']],
  institution: [['equals', 'is']],
};
const OPERATOR_WORDS: Record<Operator, string> = { contains: 'contains', equals: 'is', matches: 'matches', greaterThan: '>', lessThan: '<' };

let rowCount = 0;

/** One condition's row: field, operator (those the field takes) and value, with a button removing it. */
function conditionRow(c: DashboardRuleCondition, onRemove: (row: HTMLElement) => void) {
  const n = ++rowCount;
  const fieldSelect = selectField('Field', FIELDS, { id: `rule-if-field-${n}`, value: c.field });
  const operator = selectField('Operator', OPERATORS[c.field], { id: `rule-if-op-${n}`, value: c.operator });
  const value = h('input', { id: `rule-if-value-${n}`, value: c.value, required: true, maxlength: '200', spellcheck: 'false' });
  fieldSelect.input.addEventListener('change', () => {
    const options = OPERATORS[fieldSelect.input.value as Field];
    operator.input.replaceChildren(...options.map(([v, t]) => h('option', { value: v }, t)));
  });
  const remove = h('button', { type: 'button', class: 'button small secondary', 'aria-label': `Remove condition ${n}` }, 'Remove');
  const row = h('div', { class: 'rule-condition', role: 'group', 'aria-label': `Condition ${n}` }, fieldSelect.el, operator.el, field('Value', value), remove);
  remove.addEventListener('click', () => onRemove(row));
  return {
    row,
    read: (): DashboardRuleCondition => ({ field: fieldSelect.input.value as Field, operator: operator.input.value as Operator, value: value.value }),
  };
}

/** Before and after of the transactions a preview would change. */
function previewView(p: DashboardRulePreview): HTMLElement {
  const summary = h(
    'p',
    { role: 'status', id: 'rule-preview-summary' },
    `Of the ${p.examined} most recent transactions, ${p.matched} meet the conditions and ${p.changed} would change.`,
  );
  if (p.transactions.length === 0) return h('div', { class: 'rule-preview' }, summary);
  const values = (v: DashboardRulePreview['transactions'][number]['before']) =>
    h('span', {}, v.category, h('span', { class: 'sub' }, v.payee), v.memo ? h('span', { class: 'sub' }, v.memo) : null);
  return h(
    'div',
    { class: 'rule-preview' },
    summary,
    table(
      'Transactions the rule would change',
      ['Description', 'Amount', 'Now', 'With the rule'],
      p.transactions.map((t) => [
        t.description,
        h('span', { class: `num ${t.amount < 0 ? 'debit' : 'credit'}` }, money(t.amount, 'USD')),
        values(t.before),
        values(t.after),
      ]),
    ),
  );
}

/** The form of a new rule (`rule` null, filled from `start`) or of an edit. */
function ruleForm(rule: DashboardRule | null, start: DashboardRuleCondition[], categories: string[], onSaved: () => Promise<void>): HTMLElement {
  const name = h('input', { id: `rule-name-${rule?.id ?? 'new'}`, value: rule?.name ?? '', maxlength: '100' });
  const position = h('input', { id: `rule-position-${rule?.id ?? 'new'}`, type: 'number', min: '0', max: '1000000', value: String(rule?.position ?? 0) });
  const set = (f: DashboardRuleAction['field']) => rule?.actions.find((a) => a.field === f)?.value ?? '';
  const category = selectField('Set category', [['', 'Leave as it is'], ...categories.map((c): [string, string] => [c, c])], {
    id: `rule-category-${rule?.id ?? 'new'}`,
    value: set('category'),
  });
  const payee = h('input', { id: `rule-payee-${rule?.id ?? 'new'}`, value: set('payee'), maxlength: '200' });
  const memo = h('input', { id: `rule-memo-${rule?.id ?? 'new'}`, value: set('memo'), maxlength: '200' });

  const list = h('div', { class: 'rule-conditions' });
  const rows: ReturnType<typeof conditionRow>[] = [];
  const addRow = (c: DashboardRuleCondition) => {
    const r = conditionRow(c, (row) => {
      if (rows.length === 1) return;
      rows.splice(
        rows.findIndex((x) => x.row === row),
        1,
      );
      row.remove();
    });
    rows.push(r);
    list.append(r.row);
  };
  for (const c of rule?.conditions ?? start) addRow(c);
  if (rows.length === 0) addRow({ field: 'description', operator: 'contains', value: '' });
  const more = h('button', { type: 'button', class: 'button small secondary' }, 'Add a condition');
  more.addEventListener('click', () => addRow({ field: 'description', operator: 'contains', value: '' }));

  const body = (): DashboardRuleBody => {
    const actions: DashboardRuleAction[] = [];
    if (category.input.value) actions.push({ field: 'category', value: category.input.value });
    if (payee.value.trim()) actions.push({ field: 'payee', value: payee.value.trim() });
    if (memo.value.trim()) actions.push({ field: 'memo', value: memo.value.trim() });
    return {
      conditions: rows.map((r) => r.read()),
      actions,
      position: Number(position.value) || 0,
      ...(name.value.trim() ? { name: name.value.trim() } : {}),
    };
  };
  const errors = h('div', {});
  const shown = h('div', { 'aria-live': 'polite' });
  const previewButton = h('button', { type: 'button', class: 'button secondary' }, 'Preview');
  previewButton.addEventListener('click', () =>
    withBusy(previewButton, 'Previewing…', async () => {
      errors.replaceChildren();
      try {
        const p = await api<DashboardRulePreview>('POST', '/rules/preview', { rule: body(), ...(rule ? { replacesRuleId: String(rule.id) } : {}) });
        shown.replaceChildren(previewView(p));
      } catch (e) {
        shown.replaceChildren();
        errors.append(alertBox(messageOf(e)));
      }
    }),
  );
  const submit = h('button', { type: 'submit', class: 'button primary' }, rule ? 'Save rule' : 'Create rule');
  return h(
    'form',
    {
      class: 'rule-form',
      'aria-label': rule ? `Rule ${rule.id}` : 'New rule',
      onsubmit: onSubmit(submit, errors, 'Saving…', async () => {
        const saved = await api<DashboardRule>(rule ? 'PUT' : 'POST', rule ? `/rules/${rule.id}` : '/rules', body());
        await toastAfter(onSaved, `Rule ${saved.id} saved. It applies to what is stored from now on; "Apply rules" changes stored transactions.`);
      }),
    },
    errors,
    h('fieldset', {}, h('legend', {}, 'When every condition holds'), list, more),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Then'),
      category.el,
      field('Set payee', payee, 'Empty: leave as it is.'),
      field('Set memo', memo, 'Empty: leave as it is.'),
    ),
    h(
      'div',
      { class: 'rule-order' },
      field('Name', name, 'For people; optional.'),
      field('Position', position, 'Lower applies first; a later rule wins on a field both set.'),
    ),
    h('div', { class: 'actions' }, previewButton, submit),
    shown,
  );
}

function describe(r: DashboardRule): HTMLElement {
  return h(
    'span',
    {},
    r.conditions.map((c) => `${c.field} ${OPERATOR_WORDS[c.operator]} “${c.value}”`).join(' and '),
    h('span', { class: 'sub' }, `→ ${r.actions.map((a) => `${a.field}: ${a.value || '(none)'}`).join(', ')}`),
  );
}

export async function rulesPage(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const page = await api<DashboardRulesPage>('GET', '/rules');
  const reload = () => rulesPage(main, new URLSearchParams());
  // From a transaction: its description (and account) as the new rule's conditions.
  const start: DashboardRuleCondition[] = [];
  const description = params.get('description');
  if (description) start.push({ field: 'description', operator: 'equals', value: description.slice(0, 200) });
  const account = params.get('account');
  if (account && /^\d+$/.test(account)) start.push({ field: 'account', operator: 'equals', value: account });

  const editing = h('div', {});
  const apply = h('button', { type: 'button', class: 'button secondary', id: 'rules-apply' }, 'Apply rules to stored transactions');
  apply.addEventListener('click', () =>
    withBusy(apply, 'Applying…', async () => {
      const done = await api<DashboardRulesApplied>('POST', '/rules/apply', {});
      toast(`Applied the rules to ${done.examined} transactions: ${done.modified} changed.`);
    }),
  );

  const rows = page.rules.map((r) => {
    const edit = h('button', { type: 'button', class: 'button small secondary', 'aria-label': `Edit rule ${r.id}` }, 'Edit');
    edit.addEventListener('click', () => {
      editing.replaceChildren(section(`Edit rule ${r.id}`, ruleForm(r, [], page.categories, reload)));
      editing.querySelector<HTMLInputElement>('input')?.focus();
    });
    const remove = h('button', { type: 'button', class: 'button small danger', 'aria-label': `Delete rule ${r.id}` }, 'Delete');
    const confirm = inlineConfirm(remove, {
      label: `Delete rule ${r.id}`,
      question: 'Delete this rule? Stored transactions keep its values until the rules are applied again.',
      confirm: 'Delete rule',
      busy: 'Deleting…',
      run: async () => {
        await api('DELETE', `/rules/${r.id}`);
        await toastAfter(reload, `Rule ${r.id} deleted.`);
      },
    });
    return [String(r.position), r.name ?? '—', describe(r), h('div', { class: 'row-actions' }, edit, remove, confirm)];
  });

  main.replaceChildren(
    pageHeader(
      'Transaction rules',
      'Set the category, payee or memo of transactions that meet conditions, on every import and refresh. Every matching rule applies, by position then creation; a later one wins on a field.',
      apply,
    ),
    section(
      'Rules',
      page.rules.length === 0
        ? emptyState('No rules yet.', 'Create one below, or from a transaction on a customer’s page.')
        : table('Rules, in the order they apply', ['Position', 'Name', 'Rule', 'Actions'], rows, {
            hideCaption: true,
            rowAttrs: (i) => ({ 'data-rule-id': String(page.rules[i]!.id) }),
          }),
    ),
    editing,
    section(start.length > 0 ? 'New rule from a transaction' : 'New rule', ruleForm(null, start, page.categories, reload)),
  );
}
