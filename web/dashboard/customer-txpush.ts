/**
 * TxPUSH subscriptions of one account of the customer: the list, a listener added through the API's verification
 * (its two signing keys shown once), and a subscription deleted after an inline confirmation.
 */
import type { DashboardAccount, DashboardTxPushBody, DashboardTxPushList, DashboardTxPushSubscribed, DashboardTxPushSubscription } from '../shared/contract.js';
import { api } from './api.js';
import { copyButton, dateTime, emptyState, field, h, inlineConfirm, messageOf, onSubmit, section, selectField, table, toast, toastAfter } from './ui.js';

/** The account chosen on each customer's page, kept while the page redraws after other actions. */
const chosenAccount = new Map<string, string>();

function keysNotice(made: DashboardTxPushSubscribed): HTMLElement {
  return h(
    'div',
    { class: 'notice ok', role: 'status' },
    h('p', {}, 'Listener verified and subscribed. Keep the signing keys: they verify the webhook-signature header and are not shown again.'),
    h(
      'dl',
      { class: 'details compact' },
      ...made.subscriptions.flatMap((s) => [
        h('dt', {}, `${s.type === 'account' ? 'Account' : 'Transaction'} events`),
        h(
          'dd',
          {},
          h('code', {}, s.signingKey),
          copyButton(`Copy the ${s.type} signing key`, () => s.signingKey),
        ),
      ]),
    ),
  );
}

export async function txpushSection(customerId: string, accounts: DashboardAccount[]): Promise<HTMLElement> {
  if (accounts.length === 0) {
    return section('TxPUSH subscriptions', emptyState('No accounts yet.', 'Push notifications are per account: link accounts first.'));
  }
  const base = `/customers/${encodeURIComponent(customerId)}/accounts`;
  const remembered = chosenAccount.get(customerId);
  const account = selectField(
    'Account',
    accounts.map((a) => [a.id, `${a.name} (${a.id})`]),
    { id: 'txpush-account', value: accounts.some((a) => a.id === remembered) ? remembered : accounts[0]!.id },
  );
  const list = h('div', { class: 'txpush-list' });
  const feedback = h('div', {});
  const load = async () => {
    const { subscriptions } = await api<DashboardTxPushList>('GET', `${base}/${encodeURIComponent(account.input.value)}/txpush`);
    list.replaceChildren(subscriptionsTable(subscriptions));
  };

  const subscriptionsTable = (subscriptions: DashboardTxPushSubscription[]): HTMLElement => {
    if (subscriptions.length === 0) return emptyState('No subscriptions for this account.', 'Add a listener below to receive its notifications.');
    const confirms: HTMLElement[] = [];
    const rows = subscriptions.map((s) => {
      const remove = h('button', { type: 'button', class: 'button danger small', 'aria-label': `Delete ${s.type} subscription ${s.id}` }, 'Delete');
      confirms.push(
        inlineConfirm(remove, {
          label: `Confirm deleting subscription ${s.id}`,
          question: `Delete the ${s.type} subscription ${s.id} of ${s.callbackUrl}? Its notifications not yet delivered are cancelled.`,
          confirm: 'Delete now',
          busy: 'Deleting…',
          run: async () => {
            await api('DELETE', `${base}/${encodeURIComponent(s.accountId)}/txpush/${s.id}`);
            await toastAfter(async () => {
              await load();
              (list.querySelector('button') ?? account.input).focus();
            }, `Subscription ${s.id} deleted.`);
          },
        }),
      );
      return [String(s.id), s.type, h('span', { class: 'path' }, s.callbackUrl), s.format.toUpperCase(), dateTime(s.createdDate), remove];
    });
    return h(
      'div',
      {},
      table('Subscriptions of the account', ['ID', 'Events', 'Callback URL', 'Format', 'Created', 'Action'], rows, { hideCaption: true }),
      ...confirms,
    );
  };

  account.input.addEventListener('change', async () => {
    chosenAccount.set(customerId, account.input.value);
    feedback.replaceChildren();
    try {
      await load();
    } catch (e) {
      toast(messageOf(e), 'error');
    }
  });

  const callbackUrl = h('input', { type: 'url', id: 'txpush-callback', required: true, maxlength: '2048', placeholder: 'https://…', spellcheck: 'false' });
  const format = selectField(
    'Notification format',
    [
      ['json', 'JSON'],
      ['xml', 'XML'],
    ],
    { id: 'txpush-format' },
  );
  const errors = h('div', {});
  const submit = h('button', { type: 'submit', class: 'button primary', id: 'txpush-add' }, 'Add listener');
  const form = h(
    'form',
    {
      class: 'inline-form',
      'aria-label': 'Add a TxPUSH listener',
      onsubmit: onSubmit(submit, errors, 'Verifying…', async () => {
        feedback.replaceChildren();
        const body: DashboardTxPushBody = { callbackUrl: callbackUrl.value.trim(), format: format.input.value === 'xml' ? 'xml' : 'json' };
        const made = await api<DashboardTxPushSubscribed>('POST', `${base}/${encodeURIComponent(account.input.value)}/txpush`, body);
        form.reset();
        feedback.replaceChildren(keysNotice(made));
        await load();
      }),
    },
    errors,
    field(
      'Callback URL',
      callbackUrl,
      'Ledgerlink first sends GET with txpush_verification_code=CODE; the listener answers 200, text/plain, exactly CODE. https on 443; http on 80 for test institution accounts on Test Drive.',
    ),
    format.el,
    submit,
  );

  await load();
  return section(
    'TxPUSH subscriptions',
    h(
      'p',
      { class: 'muted' },
      'Push notifications of new and changed accounts and transactions, per account: one account and one transaction subscription per listener.',
    ),
    account.el,
    list,
    h('h3', { class: 'subhead' }, 'Add a listener'),
    form,
    feedback,
  );
}
