/**
 * The micro entry verification screen: the customer enters the two small deposits found on the account. Wrong
 * answers come back with the attempts left (the server counts them); a verified account ends like any Connect
 * session, with Done.
 */
import { ApiError } from '../shared/api.js';
import type { ConnectMicroEntry, ConnectMicroEntryAmounts } from '../shared/contract.js';
import { alertBox, busy, h } from '../shared/dom.js';
import { api } from './api.js';
import { emit } from './sdk-bridge.js';

/** What the screen needs from the app. */
export interface MicroEntryUi {
  show(name: string, title: string, params: Record<string, unknown>, ...content: (Node | null)[]): void;
  finish(): Promise<void>;
  fatal(error: unknown): void;
}

/** "0.12", "$0.12", ".12" or "12" (cents) as dollars; NaN for anything else. */
function dollars(text: string): number {
  const t = text.trim().replace(/^\$/, '');
  if (/^\d{1,2}$/.test(t)) return Number(t) / 100;
  return /^0?\.\d{1,2}$/.test(t) ? Number(t) : Number.NaN;
}

function doneScreen(ui: MicroEntryUi, entry: ConnectMicroEntry): void {
  const done = h('button', { type: 'button', class: 'primary', id: 'done' }, 'Done');
  done.addEventListener('click', () => void busy(done, 'Finishing…', () => ui.finish()).catch(ui.fatal));
  ui.show(
    'microEntryVerified',
    'Account verified',
    { accountId: entry.accountId },
    h('div', { class: 'success', 'aria-hidden': 'true' }, '✓'),
    h('p', {}, `The account ending in ${entry.accountNumberLast4} is verified.`),
    done,
  );
  done.focus();
}

/** The screen for the link's micro entries, as their status allows. */
export function microEntryScreen(ui: MicroEntryUi, entry: ConnectMicroEntry, error?: string): void {
  const last4 = entry.accountNumberLast4;
  if (entry.status === 'Verified') return doneScreen(ui, entry);
  if (entry.status !== 'Completed') {
    const why: Record<string, string> = {
      Pending: `The two deposits to your account ending in ${last4} have not arrived yet. They usually take one business day; come back when you see them.`,
      Failed: 'Too many wrong answers: these deposits can no longer be verified. Ask for new deposits.',
      Expired: 'These deposits were not verified in time. Ask for new deposits.',
    };
    ui.show(
      'microEntryUnavailable',
      entry.status === 'Pending' ? 'Deposits on their way' : 'Verification closed',
      { status: entry.status },
      h('p', {}, why[entry.status] ?? `The deposits are ${entry.status.toLowerCase()}.`),
    );
    return;
  }
  const first = h('input', {
    id: 'amount-1',
    name: 'amount1',
    type: 'text',
    inputmode: 'decimal',
    autocomplete: 'off',
    required: true,
    placeholder: '0.00',
    'aria-describedby': 'amounts-hint',
  });
  const second = h('input', {
    id: 'amount-2',
    name: 'amount2',
    type: 'text',
    inputmode: 'decimal',
    autocomplete: 'off',
    required: true,
    placeholder: '0.00',
    'aria-describedby': 'amounts-hint',
  });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Verify');
  const form = h(
    'form',
    { novalidate: true },
    h('p', { id: 'amounts-hint' }, `Two deposits of less than a dollar each were made to your account ending in ${last4}. Enter both amounts, in any order.`),
    h('label', { for: first.id }, 'First deposit (USD)'),
    first,
    h('label', { for: second.id }, 'Second deposit (USD)'),
    second,
    // A refused answer's message already says how many attempts are left.
    error ? alertBox(error) : h('p', { class: 'muted' }, `${entry.attemptsLeft} ${entry.attemptsLeft === 1 ? 'attempt' : 'attempts'} left.`),
    submit,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const inputs = [first, second];
    const bad = inputs.find((input) => !Number.isFinite(dollars(input.value)) || dollars(input.value) <= 0);
    for (const input of inputs) input.removeAttribute('aria-invalid');
    if (bad) {
      bad.setAttribute('aria-invalid', 'true');
      bad.focus();
      return;
    }
    void busy(submit, 'Verifying…', async () => {
      try {
        const verified = await api<ConnectMicroEntry>('POST', '/microentry/amounts', {
          amounts: inputs.map((i) => dollars(i.value)),
        } satisfies ConnectMicroEntryAmounts);
        emit('user', { action: 'microEntryVerified', accountId: verified.accountId });
        doneScreen(ui, verified);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 400) throw err;
        const left = entry.attemptsLeft - 1;
        const next =
          err.code === '16405' && left > 0
            ? { ...entry, attemptsLeft: left }
            : { ...entry, status: err.code === '16405' || err.code === '16404' ? 'Failed' : entry.status };
        microEntryScreen(ui, next, err.message);
      }
    }).catch(ui.fatal);
  });
  ui.show('microEntry', 'Verify your account', { accountId: entry.accountId }, form);
  first.focus();
}
