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
import { alertBox, field, h, onSubmit, section, toast } from './ui.js';

const ERROR_STATES: [SandboxErrorCode, string][] = [
  [103, '103 – credentials wrong'],
  [108, '108 – action needed at institution'],
  [109, '109 – password change required'],
  [185, '185 – MFA answer required'],
  [102, '102 – institution unavailable'],
];

function select(label: string, options: [string, string][]): { el: HTMLElement; input: HTMLSelectElement } {
  const input = h('select', { id: `sel-${Math.random().toString(36).slice(2, 9)}` }, ...options.map(([value, text]) => h('option', { value }, text)));
  return { el: h('div', { class: 'field' }, h('label', { for: input.id }, label), input), input };
}

/** A small form: its fields, a submit button, and the control's call; the page reloads after success. */
function control(label: string, button: string, fields: HTMLElement[], call: () => Promise<string>, reload: () => Promise<void>): HTMLElement {
  const errors = h('div', {});
  const submit = h('button', { type: 'submit', class: 'button secondary' }, button);
  return h(
    'form',
    {
      'aria-label': label,
      onsubmit: onSubmit(submit, errors, 'Working…', async () => {
        toast(await call());
        await reload();
      }),
    },
    ...fields,
    submit,
    errors,
  );
}

export function sandboxPanel(session: DashboardSession, overview: CustomerOverview, reload: () => Promise<void>): HTMLElement {
  if (session.partner.plan !== 'testdrive') return section('Sandbox controls', alertBox('Sandbox controls are only for partners on the Test Drive plan.'));
  const base = `/customers/${encodeURIComponent(overview.customer.id)}/sandbox`;
  const days = h('input', { type: 'number', min: '1', max: '3660', value: '7', inputmode: 'numeric' });
  const connectEvent = select(
    'Connect webhook event',
    CONNECT_EVENT_TYPES.map((e) => [e, e]),
  );
  const accounts = overview.institutionLogins.flatMap((l) => l.accounts);
  const controls: HTMLElement[] = [
    control(
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
    const account = select(
      'Account',
      accounts.map((a) => [a.id, `${a.name} (${a.id})`]),
    );
    const event = select(
      'TxPUSH event',
      TXPUSH_EVENT_TYPES.map((e) => [e, e]),
    );
    controls.push(
      control(
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
    const code = select(
      `Error state for ${l.institution.name} login ${l.institutionLoginId}`,
      ERROR_STATES.map(([c, t]) => [String(c), t]),
    );
    return h(
      'div',
      { class: 'controls' },
      control(
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
            `Clear the error of login ${l.institutionLoginId}`,
            `Clear error (${l.aggregationStatusCode})`,
            [],
            async () => {
              await api('POST', `${base}/logins/${l.institutionLoginId}/clear`);
              return `Login ${l.institutionLoginId} is healthy again.`;
            },
            reload,
          )
        : null,
    );
  });
  const reset = control(
    'Reset the customer',
    'Reset customer',
    [],
    async () => {
      if (!window.confirm('Remove every institution login, account and transaction of this customer?')) throw new Error('Reset cancelled.');
      const r = await api<CustomerResetResult>('POST', `${base}/reset`);
      return `Customer reset: ${r.institutionLogins} login${r.institutionLogins === 1 ? '' : 's'} and ${r.accounts} account${r.accounts === 1 ? '' : 's'} removed.`;
    },
    reload,
  );
  return section(
    'Sandbox controls',
    h('p', { class: 'muted' }, 'Exercise your integration without waiting: move time, break a login, send events on demand, start over.'),
    h('div', { class: 'controls' }, ...controls),
    ...logins,
    h('div', { class: 'controls' }, reset),
  );
}
