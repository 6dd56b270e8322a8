/**
 * The customer's SimpleFIN section (docs/simplefin-server.md): a setup token minted for all of the customer's
 * accounts or some of them, shown once with Copy; the accesses its claims made, each revoked after an inline
 * confirmation.
 */
import type {
  DashboardAccount,
  DashboardSimplefinAccess,
  DashboardSimplefinAccessList,
  DashboardSimplefinToken,
  DashboardSimplefinTokenBody,
} from '../shared/contract.js';
import { api } from './api.js';
import { badge, copyButton, dateTime, emptyState, h, inlineConfirm, messageOf, onSubmit, section, table, toastAfter } from './ui.js';

function tokenNotice(token: DashboardSimplefinToken): HTMLElement {
  return h(
    'div',
    { class: 'notice ok', role: 'status' },
    h(
      'p',
      {},
      `Setup token created. Paste it into the SimpleFIN client (Actual Budget, Firefly III's importer, …): it is shown only now, and can be claimed once, until ${dateTime(token.expiresAt)}.`,
    ),
    h(
      'dl',
      { class: 'details compact' },
      h('dt', {}, 'Setup token'),
      h(
        'dd',
        {},
        h('code', { id: 'simplefin-token' }, token.setupToken),
        copyButton('Copy the setup token', () => token.setupToken),
      ),
    ),
  );
}

export async function simplefinSection(customerId: string, accounts: DashboardAccount[]): Promise<HTMLElement> {
  const base = `/customers/${encodeURIComponent(customerId)}/simplefin`;
  const list = h('div', { class: 'simplefin-accesses' });
  const feedback = h('div', {});

  const accessesTable = (accesses: DashboardSimplefinAccess[]): HTMLElement => {
    if (accesses.length === 0) return emptyState('No accesses yet.', 'A SimpleFIN client makes one when it claims a setup token.');
    const confirms: HTMLElement[] = [];
    const rows = accesses.map((a) => {
      let action: HTMLElement = h('span', { class: 'muted' }, '—');
      if (a.revokedDate === undefined) {
        const revoke = h('button', { type: 'button', class: 'button danger small', 'aria-label': `Revoke access ${a.id}` }, 'Revoke');
        confirms.push(
          inlineConfirm(revoke, {
            label: `Confirm revoking access ${a.id}`,
            question: `Revoke access ${a.id}? The client using it is refused from its next request; a new setup token gives access again.`,
            confirm: 'Revoke now',
            busy: 'Revoking…',
            run: async () => {
              await api('DELETE', `${base}/accesses/${encodeURIComponent(a.id)}`);
              await toastAfter(async () => {
                await load();
                (list.querySelector('button') ?? document.getElementById('simplefin-create'))?.focus();
              }, `Access ${a.id} revoked.`);
            },
          }),
        );
        action = revoke;
      }
      return [
        a.id,
        a.revokedDate === undefined ? badge('active', 'ok') : badge(`revoked ${dateTime(a.revokedDate)}`, 'neutral'),
        a.accountIds ? a.accountIds.join(', ') : 'All',
        dateTime(a.createdDate),
        a.lastUsedDate === undefined ? 'Never' : dateTime(a.lastUsedDate),
        `${a.requests} (${a.requestsToday} of ${a.dailyBudget} today)`,
        action,
      ];
    });
    return h(
      'div',
      {},
      table('SimpleFIN accesses of the customer', ['Access', 'State', 'Accounts', 'Claimed', 'Last used', 'Requests', 'Action'], rows, { hideCaption: true }),
      ...confirms,
    );
  };
  const load = async () => {
    const { accesses } = await api<DashboardSimplefinAccessList>('GET', `${base}/accesses`);
    list.replaceChildren(accessesTable(accesses));
  };

  const boxes = accounts.map((a) => h('input', { type: 'checkbox', id: `simplefin-account-${a.id}`, value: a.id, 'aria-label': `Only ${a.name} (${a.id})` }));
  const choice =
    accounts.length === 0
      ? null
      : h(
          'fieldset',
          { class: 'simplefin-accounts' },
          h('legend', {}, 'Accounts (none ticked: all of them, and those linked later)'),
          ...accounts.map((a, i) => h('label', { class: 'check', for: boxes[i]!.id }, boxes[i]!, ` ${a.name} (${a.id})`)),
        );
  const errors = h('div', {});
  const submit = h('button', { type: 'submit', class: 'button primary', id: 'simplefin-create' }, 'Create setup token');
  const form = h(
    'form',
    {
      class: 'inline-form simplefin-form',
      'aria-label': 'Create a SimpleFIN setup token',
      onsubmit: onSubmit(submit, errors, 'Creating…', async () => {
        feedback.replaceChildren();
        const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
        const body: DashboardSimplefinTokenBody = chosen.length > 0 ? { accountIds: chosen } : {};
        const token = await api<DashboardSimplefinToken>('POST', `${base}/tokens`, body);
        form.reset();
        feedback.replaceChildren(tokenNotice(token));
      }),
    },
    errors,
    choice,
    h('div', { class: 'actions' }, submit),
  );

  try {
    await load();
  } catch (e) {
    list.replaceChildren(h('p', { class: 'muted' }, messageOf(e)));
  }
  return section(
    'SimpleFIN',
    h(
      'p',
      { class: 'lead' },
      "Budgeting tools that read SimpleFIN (Actual Budget, Firefly III's data importer, …) read this customer's accounts with a setup token. A token is claimable once, for an hour; each claim makes an access, listed below.",
    ),
    form,
    feedback,
    list,
  );
}
