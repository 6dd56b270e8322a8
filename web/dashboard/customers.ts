/**
 * Customers: a searchable list with a form to add a testing customer, and one customer with its consumer, Connect links,
 * statement file uploads, institution logins, accounts, TxPUSH subscriptions and transactions.
 */
import type { CustomerOverview, CustomerPage, CustomerSummary, DashboardCustomerBody } from '../shared/contract.js';
import { money } from '../shared/dom.js';
import { api } from './api.js';
import { consumerSection } from './customer-consumer.js';
import { reportsSection } from './customer-reports.js';
import { connectLinksSection } from './customer-links.js';
import { loginRefreshPanel } from './customer-refresh.js';
import { statementsSection } from './customer-statements.js';
import { transactionsSection } from './customer-transactions.js';
import { simplefinSection } from './customer-simplefin.js';
import { txpushSection } from './customer-txpush.js';
import { badge, claimMain, dateTime, date, emptyState, field, h, onSubmit, pageHeader, section, table, toast } from './ui.js';

const PAGE_SIZE = 25;

function fullName(c: { firstName: string | null; lastName: string | null }): string {
  return [c.firstName, c.lastName].filter(Boolean).join(' ') || '—';
}

/** The form that adds a testing customer; on success the new customer's page opens. */
function createCustomerForm(onCancel: () => void): HTMLElement {
  const username = h('input', { name: 'username', required: true, maxlength: '255', autocomplete: 'off', spellcheck: 'false' });
  const firstName = h('input', { name: 'firstName', maxlength: '255', autocomplete: 'off' });
  const lastName = h('input', { name: 'lastName', maxlength: '255', autocomplete: 'off' });
  const errors = h('div', {});
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Add customer');
  const cancel = h('button', { type: 'button', class: 'button secondary', onclick: onCancel }, 'Cancel');
  const form = h(
    'form',
    {
      class: 'inline-form',
      'aria-label': 'New testing customer',
      onsubmit: onSubmit(submit, errors, 'Creating…', async () => {
        const body: DashboardCustomerBody = { username: username.value.trim(), firstName: firstName.value, lastName: lastName.value };
        const created = await api<CustomerSummary>('POST', '/customers', body);
        toast(`Testing customer ${created.username} created.`);
        location.hash = `#/customers/${encodeURIComponent(created.id)}`;
      }),
    },
    errors,
    field('Username', username, '6 to 255 characters: letters, digits and ! @ . # $ % & * _ - +. Unique among your customers.'),
    h('div', { class: 'field-row' }, field('First name', firstName), field('Last name', lastName)),
    h('div', { class: 'form-actions' }, submit, cancel),
  );
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 's-new-customer' },
    h('h2', { id: 's-new-customer' }, 'New testing customer'),
    h('p', { class: 'muted' }, 'Testing customers link accounts at the test institutions (FinBank), as with POST /aggregation/v2/customers/testing.'),
    form,
  );
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
  const formSlot = h('div', { id: 'new-customer' });
  const createButtons: HTMLButtonElement[] = [];
  const createButton = (cls: string) => {
    const b = h('button', { type: 'button', class: `button ${cls}`, 'aria-expanded': 'false', 'aria-controls': 'new-customer' }, 'Create customer');
    b.addEventListener('click', () => {
      formSlot.replaceChildren(
        createCustomerForm(() => {
          formSlot.replaceChildren();
          for (const other of createButtons) other.setAttribute('aria-expanded', 'false');
          b.focus();
        }),
      );
      for (const other of createButtons) other.setAttribute('aria-expanded', 'true');
      (formSlot.querySelector('input[name=username]') as HTMLInputElement).focus();
    });
    createButtons.push(b);
    return b;
  };
  const list =
    page.customers.length === 0
      ? emptyState(
          search ? `No customer matches “${search}”.` : 'No customers yet.',
          search
            ? 'Try another search.'
            : h(
                'span',
                {},
                'Create a testing customer here (or with ',
                h('code', {}, 'POST /aggregation/v2/customers/testing'),
                '), then link accounts through a Connect link from its page.',
              ),
          search ? null : h('p', {}, createButton('primary')),
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
  const pageLink = (to: number, label: string) =>
    h('a', { class: 'button secondary small', href: `#/customers?${new URLSearchParams({ start: String(to), ...(search ? { search } : {}) })}` }, label);
  const pager = h(
    'nav',
    { class: 'pager', 'aria-label': 'Customer pages' },
    start > 1 ? pageLink(Math.max(1, start - PAGE_SIZE), 'Previous') : null,
    page.found > 0 ? h('span', { class: 'muted' }, `${start}–${start + page.customers.length - 1} of ${page.found}`) : null,
    page.moreAvailable ? pageLink(start + PAGE_SIZE, 'Next') : null,
  );
  main.replaceChildren(
    pageHeader('Customers', 'The people whose accounts your application links.', createButton('primary')),
    formSlot,
    h('div', { class: 'card' }, form, list, pager),
  );
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

function loginsSection(overview: CustomerOverview, reload: Reload): HTMLElement {
  const { institutionLogins } = overview;
  return section(
    'Institution logins',
    institutionLogins.length === 0
      ? emptyState('No institution logins yet.', 'Generate a Connect link above and sign in at a test institution (FinBank), for example as profile_03.')
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
                h('span', { class: 'muted' }, `Login ${l.institutionLoginId} · institution ${l.institution.id}${l.statementFile ? ' · statement files' : ''}`),
                statusText(l.aggregationStatusCode),
              ),
              loginRefreshPanel(overview.customer.id, l, reload),
              table(
                `Accounts at ${l.institution.name}`,
                ['Account', 'Type', 'Number', 'Balance', 'Status', 'Last aggregated', 'Statement'],
                l.accounts.map((a) => [
                  h('span', {}, a.name, h('span', { class: 'sub' }, `ID ${a.id}`)),
                  a.type,
                  a.accountNumberDisplay,
                  h('span', { class: 'num' }, money(a.balance, a.currency)),
                  statusText(a.aggregationStatusCode),
                  dateTime(a.aggregationSuccessDate),
                  statementLink(overview.customer.id, a),
                ]),
                { hideCaption: true },
              ),
            ),
          ),
        ),
  );
}

/** A download of the account's latest statement (docs/statements.md): the last month that has ended, as a PDF file. */
function statementLink(customerId: string, account: { id: string; name: string }): HTMLElement {
  return h(
    'a',
    {
      class: 'button secondary small',
      href: `/dashboard/api/customers/${encodeURIComponent(customerId)}/accounts/${encodeURIComponent(account.id)}/statement`,
      download: true,
      'aria-label': `Latest statement of ${account.name} (${account.id}), PDF`,
    },
    'PDF',
  );
}

/** What the page needs to redraw itself after a change, keeping focus on the control with `focusId`. */
export type Reload = (focusId?: string) => Promise<void>;

export async function customerPage(
  main: HTMLElement,
  customerId: string,
  params: URLSearchParams,
  extra: (overview: CustomerOverview, reload: Reload) => HTMLElement | null = () => null,
): Promise<void> {
  const latest = claimMain();
  const path = `/customers/${encodeURIComponent(customerId)}`;
  const overview = await api<CustomerOverview>('GET', path);
  const { customer, institutionLogins } = overview;
  const accounts = institutionLogins.flatMap((l) => l.accounts);
  const reload: Reload = async (focusId) => {
    // The transactions section keeps its account, page and size in the fragment's query.
    await customerPage(main, customerId, new URLSearchParams(location.hash.split('?')[1] ?? ''), extra);
    if (focusId) document.getElementById(focusId)?.focus();
  };
  const [transactions, txpush, statements, simplefin, consumer, reports] = await Promise.all([
    transactionsSection(customerId, accounts, params),
    txpushSection(customerId, accounts),
    statementsSection(customerId, overview, reload),
    simplefinSection(customerId, accounts),
    consumerSection(customerId),
    reportsSection(customerId),
  ]);
  // Two draws can overlap (a redraw after an action, the address changing); the one begun last is the one shown.
  if (!latest()) return;
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
    consumer,
    reports,
    connectLinksSection(customerId, institutionLogins),
    statements,
    ...(controls ? [controls] : []),
    loginsSection(overview, reload),
    txpush,
    simplefin,
    transactions,
  );
}
