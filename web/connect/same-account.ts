/**
 * The question Connect asks when an account being added may be one the customer already has (409, 14115): for each
 * such account, "Is this the same account as Everyday Checking ••2632?", answered with one of the candidates or
 * "another account". The answers go back with the request as `sameAs`, which both the statement upload and the
 * account choice accept; the service never guesses (docs/aggregation.md, "One account, several sources").
 */
import type { ErrorDetails } from '../shared/contract.js';
import { alertBox, busy, h } from '../shared/dom.js';

export type SameAsQuestion = NonNullable<ErrorDetails['sameAs']>[number];
/** For each incoming account (its `ref`), the id of the account it is, or `new`. */
export type SameAsAnswer = Record<string, string>;

/** The last four after the name, unless the name already ends with them ("Checking ...2632"). */
const named = (name: string, display: string) => (display && !name.endsWith(display.slice(-4)) ? `${name} ••${display.slice(-4)}` : name);

/** "Everyday Checking ••2632 at FinBank": how a candidate is named to the user. */
function candidateLabel(c: SameAsQuestion['candidates'][number]): string {
  return `${named(c.name, c.accountNumberDisplay)}${c.institutionName ? ` at ${c.institutionName}` : ''}`;
}

/**
 * The form: a group of choices per incoming account, none chosen, so that the user reads the question, and a Continue button that calls `answer` with every
 * account answered; `fail` takes what `answer` throws.
 */
export function sameAccountForm(
  questions: readonly SameAsQuestion[],
  answer: (sameAs: SameAsAnswer) => Promise<void>,
  fail: (error: unknown) => void,
): HTMLFormElement {
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Continue');
  const groups = questions.map((q, i) => {
    const name = `same-as-${i}`;
    const options = [
      ...q.candidates.map((c, j) => ({ value: c.accountId, label: `Yes, it is ${candidateLabel(c)}`, id: `${name}-${j}` })),
      { value: 'new', label: 'No, it is another account', id: `${name}-new` },
    ];
    const radios = options.map((o) => ({ o, input: h('input', { type: 'radio', name, id: o.id, value: o.value, required: true }) }));
    const single = q.candidates.length === 1 ? q.candidates[0]! : undefined;
    const legend = single
      ? `Is ${named(q.name, q.accountNumberDisplay)} the same account as ${candidateLabel(single)}?`
      : `Is ${named(q.name, q.accountNumberDisplay)} one of the accounts you already connected?`;
    const fieldset = h(
      'fieldset',
      {},
      h('legend', {}, legend),
      ...radios.map(({ o, input }) => h('label', { class: 'choice', for: o.id }, input, h('span', { class: 'grow' }, o.label))),
    );
    return { q, radios, fieldset };
  });
  const form = h(
    'form',
    { novalidate: true },
    h('p', {}, 'Your transactions are not counted twice when you say which accounts are the same.'),
    ...groups.map((g) => g.fieldset),
    submit,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    form.querySelector('.alert')?.remove();
    const sameAs: SameAsAnswer = {};
    for (const g of groups) {
      const chosen = g.radios.find((r) => r.input.checked);
      if (!chosen) {
        submit.before(alertBox('Say for each account whether it is one you already connected.'));
        g.radios[0]!.input.focus();
        return;
      }
      sameAs[g.q.ref] = chosen.o.value;
    }
    void busy(submit, 'Continuing…', () => answer(sameAs)).catch(fail);
  });
  return form;
}
