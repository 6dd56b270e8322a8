/** Customers: a searchable list, and one customer with institution logins, accounts and transactions. */
import type { CustomerOverview, CustomerPage } from '../shared/contract.js';
import { money } from '../shared/dom.js';
import { api } from './api.js';
import { badge, date, dateTime, emptyState, field, h, pageHeader, section, table } from './ui.js';

const PAGE_SIZE = 25;

function fullName(c: { firstName: string | null; lastName: string | null }): string {
  return [c.firstName, c.lastName].filter(Boolean).join(' ') || '—';
}

export async function customersPage(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const search = params.get('search') ?? '';
  const start = Math.max(1, Number(params.get('start') ?? '1') || 1);
  const query = new URLSearchParams({ start: String(start), limit: String(PAGE_SIZE), ...(search ? { search } : {}) });
  const page = await api<CustomerPage>('GET', `/customers?${query}`);
  const box = h('input', { type: 'search', name: 'search', value: search, autocomplete: 'off' });
  const form = h(
    'form',
    {
      role: 'search',
      class: 'search-form',
      onsubmit: (e: Event) => {
        e.preventDefault();
        location.hash = `#/customers${box.value.trim() ? `?search=${encodeURIComponent(box.value.trim())}` : ''}`;
      },
    },
    field('Search customers', box, 'Username, name or e-mail.'),
    h('button', { type: 'submit', class: 'button secondary' }, 'Search'),
  );
  const list =
    page.customers.length === 0
      ? emptyState(
          search ? `No customer matches “${search}”.` : 'No customers yet.',
          search
            ? 'Try another search.'
            : h('span', {}, 'Add a testing customer with ', h('code', {}, 'POST /aggregation/v2/customers/testing'), ', then link accounts through Connect.'),
        )
      : table(
          `Customers (${page.found})`,
          ['Customer ID', 'Username', 'Name', 'Type', 'Created'],
          page.customers.map((c) => [
            h('a', { href: `#/customers/${encodeURIComponent(c.id)}` }, c.id),
            c.username,
            fullName(c),
            badge(c.type, c.type === 'testing' ? 'info' : 'ok'),
            date(c.createdDate),
          ]),
        );
  const pager = h(
    'nav',
    { class: 'pager', 'aria-label': 'Customer pages' },
    start > 1
      ? h(
          'a',
          {
            class: 'button secondary small',
            href: `#/customers?${new URLSearchParams({ start: String(Math.max(1, start - PAGE_SIZE)), ...(search ? { search } : {}) })}`,
          },
          'Previous',
        )
      : null,
    page.found > 0 ? h('span', { class: 'muted' }, `${start}–${start + page.customers.length - 1} of ${page.found}`) : null,
    page.moreAvailable
      ? h(
          'a',
          { class: 'button secondary small', href: `#/customers?${new URLSearchParams({ start: String(start + PAGE_SIZE), ...(search ? { search } : {}) })}` },
          'Next',
        )
      : null,
  );
  main.replaceChildren(pageHeader('Customers', 'The people whose accounts your application links.'), h('div', { class: 'card' }, form, list, pager));
}

/** Aggregation status codes as words (0 is fine; the rest ask the user to act or the institution failed). */
function statusText(code: number): HTMLElement {
  if (code === 0) return badge('OK (0)', 'ok');
  const known: Record<number, string> = {
    102: 'Institution unavailable',
    103: 'Credentials wrong',
    108: 'Action needed at institution',
    109: 'Password change required',
    185: 'MFA answer required',
    187: 'MFA answer wrong',
  };
  return badge(`${known[code] ?? 'Error'} (${code})`, 'bad');
}

export async function customerPage(
  main: HTMLElement,
  customerId: string,
  extra: (overview: CustomerOverview, reload: () => Promise<void>) => HTMLElement | null = () => null,
): Promise<void> {
  const overview = await api<CustomerOverview>('GET', `/customers/${encodeURIComponent(customerId)}`);
  const { customer, institutionLogins, transactions } = overview;
  const accounts = new Map(institutionLogins.flatMap((l) => l.accounts.map((a) => [Number(a.id), a] as const)));
  const reload = () => customerPage(main, customerId, extra);
  const controls = extra(overview, reload);
  main.replaceChildren(
    h(
      'nav',
      { class: 'breadcrumbs', 'aria-label': 'Breadcrumb' },
      h('a', { href: '#/customers' }, 'Customers'),
      h('span', { 'aria-hidden': 'true' }, ' / '),
      h('span', { 'aria-current': 'page' }, customer.username),
    ),
    pageHeader(fullName(customer) === '—' ? customer.username : fullName(customer), `Customer ${customer.id}`),
    section(
      'Details',
      h(
        'dl',
        { class: 'details' },
        h('dt', {}, 'Username'),
        h('dd', {}, customer.username),
        h('dt', {}, 'Type'),
        h('dd', {}, badge(customer.type, customer.type === 'testing' ? 'info' : 'ok')),
        h('dt', {}, 'E-mail'),
        h('dd', {}, customer.email ?? '—'),
        h('dt', {}, 'Created'),
        h('dd', {}, dateTime(customer.createdDate)),
        h('dt', {}, 'Customer clock'),
        h(
          'dd',
          {},
          dateTime(customer.clock),
          customer.clockOffsetSeconds ? h('span', { class: 'muted' }, ` (${Math.round(customer.clockOffsetSeconds / 86400)} days ahead)`) : null,
        ),
      ),
    ),
    ...(controls ? [controls] : []),
    section(
      'Institution logins',
      institutionLogins.length === 0
        ? emptyState('No institution logins yet.', 'Generate a Connect link for this customer and sign in at a test institution (FinBank).')
        : h(
            'div',
            { class: 'logins' },
            ...institutionLogins.map((l) =>
              h(
                'article',
                { class: 'login', 'aria-labelledby': `login-${l.institutionLoginId}` },
                h(
                  'div',
                  { class: 'login-head' },
                  h('h3', { id: `login-${l.institutionLoginId}` }, l.institution.name),
                  h('span', { class: 'muted' }, `Login ${l.institutionLoginId} · institution ${l.institution.id}`),
                  statusText(l.aggregationStatusCode),
                ),
                table(
                  `Accounts at ${l.institution.name}`,
                  ['Account', 'Type', 'Number', 'Balance', 'Status', 'Last aggregated'],
                  l.accounts.map((a) => [
                    h('span', {}, a.name, h('span', { class: 'sub' }, `ID ${a.id}`)),
                    a.type,
                    a.accountNumberDisplay,
                    h('span', { class: 'num' }, money(a.balance, a.currency)),
                    statusText(a.aggregationStatusCode),
                    dateTime(a.aggregationSuccessDate),
                  ]),
                  { hideCaption: true },
                ),
              ),
            ),
          ),
    ),
    section(
      `Transactions${transactions.found ? ` (latest ${transactions.latest.length} of ${transactions.found})` : ''}`,
      !transactions.aggregated
        ? emptyState('Not aggregated yet.', "Refresh the customer's accounts (POST /aggregation/v1/customers/{customerId}/accounts) to load transactions.")
        : transactions.latest.length === 0
          ? emptyState('No transactions.', 'Aggregated accounts have no transactions in their history yet.')
          : table(
              'Transactions',
              ['Date', 'Description', 'Account', 'Amount', 'Status'],
              transactions.latest.map((t) => {
                const account = accounts.get(t.accountId);
                return [
                  date(t.postedDate ?? t.transactionDate ?? t.createdDate),
                  h('span', {}, t.description, t.memo ? h('span', { class: 'sub' }, t.memo) : null),
                  account ? account.name : String(t.accountId),
                  h('span', { class: `num ${t.amount < 0 ? 'debit' : 'credit'}` }, money(t.amount, account?.currency ?? 'USD')),
                  badge(t.status, t.status === 'pending' ? 'warn' : 'neutral'),
                ];
              }),
              { hideCaption: true },
            ),
    ),
  );
}
