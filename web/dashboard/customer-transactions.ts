/**
 * A customer's transactions: newest first by posted date, a page at a time, for every account or one. The account,
 * page and page size live in the fragment's query (#/customers/ID?account=…&page=…&limit=…), so a reload or a
 * shared link shows the same page; moving between pages redraws only this section.
 */
import type { DashboardAccount, DashboardTransactionPage } from '../shared/contract.js';
import { money } from '../shared/dom.js';
import { api } from './api.js';
import { balanceChartSlot } from './balance-chart.js';
import { exportLinks } from './customer-export.js';
import { badge, date, emptyState, h, messageOf, section, selectField, table, toast } from './ui.js';

const SIZES = ['25', '50', '100'];

interface View {
  account: string;
  page: number;
  limit: number;
}

function viewOf(params: URLSearchParams, accounts: DashboardAccount[]): View {
  const account = params.get('account') ?? '';
  const limit = params.get('limit') ?? '';
  return {
    account: accounts.some((a) => a.id === account) ? account : '',
    page: Math.max(1, Math.min(1_000_000, Math.floor(Number(params.get('page')) || 1))),
    limit: SIZES.includes(limit) ? Number(limit) : 25,
  };
}

function queryOf(view: View): URLSearchParams {
  return new URLSearchParams({
    ...(view.account ? { account: view.account } : {}),
    ...(view.page > 1 ? { page: String(view.page) } : {}),
    ...(view.limit !== 25 ? { limit: String(view.limit) } : {}),
  });
}

export async function transactionsSection(customerId: string, accounts: DashboardAccount[], params: URLSearchParams): Promise<HTMLElement> {
  const path = `/customers/${encodeURIComponent(customerId)}`;
  const byId = new Map(accounts.map((a) => [Number(a.id), a]));
  let view = viewOf(params, accounts);
  const fetchPage = (v: View) =>
    api<DashboardTransactionPage>(
      'GET',
      `${path}/transactions?${new URLSearchParams({ ...Object.fromEntries(queryOf(v)), page: String(v.page), limit: String(v.limit) })}`,
    );
  let current = await fetchPage(view);
  // The chosen account's balance history above its transactions.
  const chart = balanceChartSlot(customerId, accounts);
  await chart.show(view.account);
  // Files of what the section shows: every account, or the chosen one.
  const downloads = exportLinks(customerId, accounts);
  downloads.show(view.account);

  const account = selectField('Account', [['', 'All accounts'], ...accounts.map((a): [string, string] => [a.id, `${a.name} (${a.id})`])], {
    id: 'transactions-account',
    value: view.account,
  });
  const size = selectField(
    'Per page',
    SIZES.map((s) => [s, s]),
    { id: 'transactions-limit', value: String(view.limit) },
  );
  const range = h('p', { class: 'range', id: 'transactions-range', role: 'status', tabindex: '-1' });
  const body = h('div', { class: 'transactions-body' });
  const previous = h('button', { type: 'button', class: 'button secondary small', id: 'transactions-previous' }, 'Previous');
  const next = h('button', { type: 'button', class: 'button secondary small', id: 'transactions-next' }, 'Next');
  const pager = h('nav', { class: 'pager', 'aria-label': 'Transaction pages' }, previous, next);

  const draw = () => {
    const pages = Math.max(1, Math.ceil(current.found / current.limit));
    const first = (current.page - 1) * current.limit + 1;
    // The empty states say it when there is nothing to count.
    range.textContent =
      !current.aggregated || current.found === 0
        ? ''
        : current.transactions.length === 0
          ? `Page ${current.page} is past the last page (${pages}).`
          : `${first}–${first + current.transactions.length - 1} of ${current.found}, page ${current.page} of ${pages}`;
    previous.disabled = current.page <= 1;
    next.disabled = !current.moreAvailable;
    pager.hidden = !current.aggregated || (current.found <= current.limit && current.page === 1);
    body.replaceChildren(
      !current.aggregated
        ? emptyState(
            'Not aggregated yet.',
            view.account
              ? 'Refresh this account (POST /aggregation/v1/customers/{customerId}/accounts) to load its transactions.'
              : "Refresh the customer's accounts (POST /aggregation/v1/customers/{customerId}/accounts) to load transactions.",
          )
        : current.transactions.length === 0
          ? emptyState('No transactions.', current.found === 0 ? 'Aggregated accounts have no transactions in their history yet.' : 'Go back a page.')
          : table(
              'Transactions, newest first by posted date',
              ['Posted', 'Description', 'Account', 'Amount', 'Status'],
              current.transactions.map((t) => {
                const a = byId.get(t.accountId);
                return [
                  h('span', { class: 'nowrap' }, date(t.postedDate ?? t.transactionDate ?? t.createdDate)),
                  h(
                    'span',
                    {},
                    t.description,
                    t.memo ? h('span', { class: 'sub' }, t.memo) : null,
                    h(
                      'a',
                      {
                        class: 'sub',
                        href: `#/rules?${new URLSearchParams({ description: t.description, account: String(t.accountId) })}`,
                        'aria-label': `Make a rule from ${t.description}`,
                      },
                      'Make a rule',
                    ),
                  ),
                  a ? a.name : String(t.accountId),
                  h('span', { class: `num ${t.amount < 0 ? 'debit' : 'credit'}` }, money(t.amount, a?.currency ?? 'USD')),
                  badge(t.status, t.status === 'pending' ? 'warn' : 'neutral'),
                ];
              }),
              { hideCaption: true, rowAttrs: (i) => ({ 'data-transaction-id': String(current.transactions[i]!.id) }) },
            ),
    );
  };

  /** Shows another page; the fragment follows without a hashchange, so the rest of the page stays as it is. */
  const go = async (to: View, from?: HTMLButtonElement) => {
    body.setAttribute('aria-busy', 'true');
    previous.disabled = next.disabled = true;
    try {
      current = await fetchPage(to);
      view = to;
      const query = queryOf(view).toString();
      history.replaceState(history.state, '', `#/customers/${encodeURIComponent(customerId)}${query ? `?${query}` : ''}`);
    } catch (e) {
      toast(messageOf(e), 'error');
    } finally {
      body.removeAttribute('aria-busy');
      draw();
    }
    // Focus stays on the button pressed; when it has no page to go to any more, on the other one or the range.
    if (from && !from.disabled) from.focus();
    else if (from) (previous.disabled ? (next.disabled ? range : next) : previous).focus();
  };

  previous.addEventListener('click', () => go({ ...view, page: view.page - 1 }, previous));
  next.addEventListener('click', () => go({ ...view, page: view.page + 1 }, next));
  account.input.addEventListener('change', () => go({ ...view, account: account.input.value, page: 1 }));
  account.input.addEventListener('change', () => chart.show(account.input.value));
  account.input.addEventListener('change', () => downloads.show(account.input.value));
  size.input.addEventListener('change', () => go({ ...view, limit: Number(size.input.value), page: 1 }));
  draw();

  return section(
    'Transactions',
    h('p', { class: 'muted' }, 'Newest first by posted date (pending ones by their transaction date), every account or one.'),
    accounts.length > 0 ? h('div', { class: 'filters', role: 'group', 'aria-label': 'Which transactions' }, account.el, size.el) : null,
    accounts.length > 0 ? downloads.el : null,
    chart.el,
    range,
    body,
    pager,
  );
}
