/** Sandbox controls on a customer's page (Test Drive partners): time travel, login error states, events on demand, reset. */
import {
  CONNECT_EVENT_TYPES,
  TXPUSH_EVENT_TYPES,
  type ClockAdvanceResult,
  type CustomerOverview,
  type CustomerResetResult,
  type DashboardSession,
  type FiredTxPushEvent,
  type SandboxClockBody,
  type SandboxErrorCode,
  type SandboxLoginErrorBody,
  type SandboxTxPushBody,
  type SandboxWebhookBody,
} from '../shared/contract.js';
import { api } from './api.js';
import type { Reload } from './customers.js';
import { alertBox, field, h, inlineConfirm, onSubmit, section, selectField, toastAfter } from './ui.js';

const ERROR_STATES: [SandboxErrorCode, string][] = [
  [103, '103 – credentials wrong'],
  [108, '108 – action needed at institution'],
  [109, '109 – password change required'],
  [185, '185 – MFA answer required'],
  [102, '102 – institution unavailable'],
];

/**
 * What the user chose in each control, per customer: the page redraws after every action (balances, statuses and
 * the clock change), and the controls come back as they were left.
 */
const remembered = new Map<string, Map<string, string>>();

/** A select or input whose value survives the redraw, remembered under its element id (stable, unlike the element). */
function keep<T extends HTMLInputElement | HTMLSelectElement>(values: Map<string, string>, input: T): T {
  const saved = values.get(input.id);
  if (saved !== undefined && (!(input instanceof HTMLSelectElement) || [...input.options].some((o) => o.value === saved))) input.value = saved;
  input.addEventListener('change', () => values.set(input.id, input.value));
  return input;
}

/** A small form: its fields, a submit button (id `${key}-submit`), and the control's call; the page redraws after success with focus back on the button. */
function control(key: string, label: string, button: string, fields: HTMLElement[], call: () => Promise<string>, reload: Reload): HTMLElement {
  const errors = h('div', {});
  const submit = h('button', { type: 'submit', class: 'button secondary', id: `${key}-submit` }, button);
  return h(
    'form',
    {
      'aria-label': label,
      onsubmit: onSubmit(submit, errors, 'Working…', async () => {
        const message = await call();
        await toastAfter(() => reload(submit.id), message);
      }),
    },
    ...fields,
    submit,
    errors,
  );
}

export function sandboxPanel(session: DashboardSession, overview: CustomerOverview, reload: Reload): HTMLElement {
  if (session.partner.plan !== 'testdrive') return section('Sandbox controls', alertBox('Sandbox controls are only for partners on the Test Drive plan.'));
  const customerId = overview.customer.id;
  const values = remembered.get(customerId) ?? new Map<string, string>();
  remembered.set(customerId, values);
  const base = `/customers/${encodeURIComponent(customerId)}/sandbox`;
  const days = keep(values, h('input', { type: 'number', id: 'sandbox-days', min: '1', max: '3660', value: '7', inputmode: 'numeric' }));
  const connectEvent = selectField(
    'Connect webhook event',
    CONNECT_EVENT_TYPES.map((e) => [e, e]),
    { id: 'sandbox-webhook-event' },
  );
  keep(values, connectEvent.input);
  const accounts = overview.institutionLogins.flatMap((l) => l.accounts);
  const controls: HTMLElement[] = [
    control(
      'sandbox-clock',
      'Advance the customer clock',
      'Advance clock',
      [field('Days ahead', days)],
      async () => {
        const r = await api<ClockAdvanceResult>('POST', `${base}/clock`, { days: Number(days.value) } satisfies SandboxClockBody);
        return `Clock moved ${r.days} days ahead; ${r.institutionLogins.length} institution login${r.institutionLogins.length === 1 ? '' : 's'} refreshed.`;
      },
      reload,
    ),
    control(
      'sandbox-webhook',
      'Fire a Connect webhook',
      'Fire webhook',
      [connectEvent.el],
      async () => {
        await api('POST', `${base}/webhook`, { eventType: connectEvent.input.value } satisfies SandboxWebhookBody);
        return `Connect webhook “${connectEvent.input.value}” queued: see Deliveries.`;
      },
      reload,
    ),
  ];
  if (accounts.length > 0) {
    const account = selectField(
      'Account',
      accounts.map((a) => [a.id, `${a.name} (${a.id})`]),
      { id: 'sandbox-txpush-account' },
    );
    keep(values, account.input);
    const event = selectField(
      'TxPUSH event',
      TXPUSH_EVENT_TYPES.map((e) => [e, e]),
      { id: 'sandbox-txpush-event' },
    );
    keep(values, event.input);
    controls.push(
      control(
        'sandbox-txpush',
        'Fire a TxPUSH event',
        'Fire event',
        [account.el, event.el],
        async () => {
          const body: SandboxTxPushBody = { accountId: account.input.value, eventType: event.input.value };
          const r = await api<FiredTxPushEvent>('POST', `${base}/txpush`, body);
          return `${event.input.value} sent to ${r.notifications} subscription${r.notifications === 1 ? '' : 's'}: see Deliveries.`;
        },
        reload,
      ),
    );
  }
  const logins = overview.institutionLogins.map((l) => {
    const key = `sandbox-login-${l.institutionLoginId}`;
    const code = selectField(
      `Error state for ${l.institution.name} login ${l.institutionLoginId}`,
      ERROR_STATES.map(([c, t]) => [String(c), t]),
      { id: `${key}-code` },
    );
    keep(values, code.input);
    return h(
      'div',
      { class: 'controls' },
      control(
        `${key}-error`,
        `Put login ${l.institutionLoginId} into an error state`,
        'Set error state',
        [code.el],
        async () => {
          await api('POST', `${base}/logins/${l.institutionLoginId}/error`, { code: Number(code.input.value) } satisfies SandboxLoginErrorBody);
          return `Login ${l.institutionLoginId} now fails with ${code.input.value}: try Connect Fix.`;
        },
        reload,
      ),
      l.aggregationStatusCode !== 0
        ? control(
            `${key}-clear`,
            `Clear the error of login ${l.institutionLoginId}`,
            `Clear error (${l.aggregationStatusCode})`,
            [],
            async () => {
              await api('POST', `${base}/logins/${l.institutionLoginId}/clear`);
              return `Login ${l.institutionLoginId} is healthy again.`;
            },
            // The clear button goes with the error: focus returns to setting one.
            (focusId) => reload(focusId?.replace(/-clear-submit$/, '-error-submit')),
          )
        : null,
    );
  });
  const reset = h('button', { type: 'button', class: 'button danger', id: 'sandbox-reset' }, 'Reset customer');
  const confirmReset = inlineConfirm(reset, {
    label: 'Confirm reset',
    question: 'Remove every institution login, account and transaction of this customer? Its clock goes back to the service clock.',
    confirm: 'Reset now',
    busy: 'Resetting…',
    run: async () => {
      const r = await api<CustomerResetResult>('POST', `${base}/reset`);
      await toastAfter(
        () => reload(reset.id),
        `Customer reset: ${r.institutionLogins} login${r.institutionLogins === 1 ? '' : 's'} and ${r.accounts} account${r.accounts === 1 ? '' : 's'} removed.`,
      );
    },
  });
  return section(
    'Sandbox controls',
    h('p', { class: 'muted' }, 'Exercise your integration without waiting: move time, break a login, send events on demand, start over.'),
    h('div', { class: 'controls' }, ...controls),
    ...logins,
    h('div', { class: 'controls' }, h('div', {}, reset, confirmReset)),
  );
}
