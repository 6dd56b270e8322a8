/**
 * "Your own bank data": the steps from the sandbox to a person's real accounts, each checked live: a production
 * partner (a Test Drive one may not enrol active customers: 14060), an active customer, a source (a statement file,
 * SimpleFIN or OFX Direct Connect through Connect), and the accounts and transactions it brought. The README's
 * section of the same name runs the same steps with curl.
 */
import type { CustomerSummary, DashboardConnectLink, DashboardConnectLinkBody, DashboardCustomerBody, OwnBankOverview } from '../shared/contract.js';
import { api } from './api.js';
import { badge, copyButton, field, h, onSubmit, pageHeader, toast, toastAfter, withBusy } from './ui.js';
import './own-bank.css';

type Customer = OwnBankOverview['activeCustomers']['customers'][number];

/** `n thing`, or `n things`. */
const count = (n: number, thing: string) => `${n} ${thing}${n === 1 ? '' : 's'}`;

/** A command with a copy button. */
function command(label: string, text: string): HTMLElement {
  return h(
    'div',
    { class: 'own-command' },
    h('code', {}, text),
    copyButton(`Copy: ${label}`, () => text),
  );
}

/** One step: its number, title, whether it is done, and what to do. */
function step(n: number, title: string, done: boolean, ...content: (HTMLElement | string | null)[]): HTMLElement {
  const id = `own-step-${n}`;
  return h(
    'li',
    { class: `card own-step${done ? ' done' : ''}`, 'aria-labelledby': id },
    h('div', { class: 'own-step-head' }, h('h2', { id }, `${n}. ${title}`), done ? badge('Done', 'ok') : badge('To do', 'warn')),
    ...content,
  );
}

function customerLink(c: Customer | CustomerSummary): HTMLElement {
  return h('a', { href: `#/customers/${encodeURIComponent(c.id)}` }, [c.firstName, c.lastName].filter(Boolean).join(' ') || c.username);
}

/** The form that adds an active customer; the page redraws with it. */
function activeCustomerForm(onCreated: () => Promise<void>): HTMLElement {
  const username = h('input', { name: 'username', id: 'own-username', required: true, maxlength: '255', autocomplete: 'off', spellcheck: 'false' });
  const firstName = h('input', { name: 'firstName', id: 'own-first-name', maxlength: '255', autocomplete: 'off' });
  const errors = h('div', {});
  const submit = h('button', { type: 'submit', class: 'button primary', id: 'own-create' }, 'Add active customer');
  return h(
    'form',
    {
      class: 'inline-form',
      'aria-label': 'New active customer',
      onsubmit: onSubmit(submit, errors, 'Adding…', async () => {
        const body: DashboardCustomerBody = { username: username.value.trim(), firstName: firstName.value };
        const created = await api<CustomerSummary>('POST', '/own-bank/customers', body);
        await toastAfter(onCreated, `Active customer ${created.username} added.`);
      }),
    },
    errors,
    h('div', { class: 'field-row' }, field('Username', username, '6 to 255 characters, unique among your customers.'), field('First name', firstName)),
    h('div', { class: 'form-actions' }, submit),
  );
}

/** Opens a Full Connect link for the customer in a new tab (search SimpleFIN, an OFX bank, or upload a file there). */
function connectButton(customer: Customer): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'button primary small', id: 'own-connect' }, 'Open Connect');
  button.addEventListener('click', () =>
    withBusy(button, 'Opening…', async () => {
      const body: DashboardConnectLinkBody = { type: 'full' };
      const link = await api<DashboardConnectLink>('POST', `/customers/${encodeURIComponent(customer.id)}/connect-links`, body);
      window.open(link.link, '_blank', 'noopener');
      toast(`Connect opened for ${customer.username} in a new tab.`);
    }),
  );
  return button;
}

export async function ownBankPage(main: HTMLElement): Promise<void> {
  const o = await api<OwnBankOverview>('GET', '/own-bank');
  const production = o.plan === 'production';
  const customers = o.activeCustomers.customers;
  const first = customers[0];
  const linked = customers.find((c) => c.accounts > 0);
  const redraw = async () => {
    await ownBankPage(main);
    document.getElementById('own-step-2')?.focus();
  };
  main.replaceChildren(
    pageHeader('Your own bank data', 'From the sandbox to your real accounts: a production partner, an active customer, a source, and what it brings.'),
    h(
      'ol',
      { class: 'own-steps' },
      step(
        1,
        'A production partner',
        production,
        production
          ? h('p', {}, 'You are signed in as a production partner: you may enrol active customers.')
          : h(
              'div',
              {},
              h(
                'p',
                {},
                'You are signed in as a ',
                h('strong', {}, 'Test Drive'),
                ' partner: it may enrol testing customers only, and asking for an active one answers 401 with code 14060. The operator of this service makes a production partner on its data store, while it runs:',
              ),
              command('make a production partner', 'npx ledgerlink partner create --plan production --name "My own bank data" --data data'),
              h('p', { class: 'muted' }, 'It prints the partner ID and secret once. Sign out and sign in with them to go on here.'),
            ),
        o.serviceMode === 'sandbox'
          ? h(
              'p',
              { class: 'muted' },
              'This service runs in sandbox mode: fine for your own data on your own machine; run it with --mode production where others can reach it.',
            )
          : null,
      ),
      step(
        2,
        'An active customer',
        o.activeCustomers.found > 0,
        o.activeCustomers.found > 0
          ? h(
              'ul',
              { class: 'own-customers' },
              ...customers.map((c) =>
                h(
                  'li',
                  {},
                  customerLink(c),
                  h('span', { class: 'muted' }, ` · ${count(c.institutionLogins, 'institution login')} · ${count(c.accounts, 'account')}`),
                ),
              ),
            )
          : h('p', {}, 'The person whose accounts these are. None yet.'),
        production ? activeCustomerForm(redraw) : h('p', { class: 'muted' }, 'Needs a production partner (step 1).'),
      ),
      step(
        3,
        'A source for the bank',
        customers.some((c) => c.institutionLogins > 0),
        h(
          'ul',
          { class: 'own-sources' },
          h(
            'li',
            {},
            h('strong', {}, 'A statement file'),
            ' (works offline): download OFX/QFX, CSV, QIF, MT940 or camt from your bank, then ',
            first
              ? h('a', { href: `#/customers/${encodeURIComponent(first.id)}` }, `upload it on ${first.username}'s page`)
              : 'upload it on the customer’s page',
            '.',
          ),
          h('li', {}, h('strong', {}, 'SimpleFIN'), ': make a setup token at a SimpleFIN bridge, open Connect, search “SimpleFIN” and paste the token.'),
          h(
            'li',
            {},
            h('strong', {}, 'OFX Direct Connect'),
            ': 1,112 banks with an OFX server are in the catalogue already; the operator adds another (its Quicken or Direct Connect help names the server, FID and ORG), then open Connect and sign in there:',
            command(
              'add an OFX bank',
              'npx ledgerlink institutions add-ofx --name "My Bank" --url https://ofx.mybank.example/ofx --fid 1234 --org MYBANK --data data',
            ),
          ),
        ),
        first
          ? h('p', {}, connectButton(first), h('span', { class: 'muted' }, ` for ${first.username}`))
          : h('p', { class: 'muted' }, 'Needs an active customer (step 2).'),
      ),
      step(
        4,
        'Accounts and transactions',
        linked !== undefined,
        linked
          ? h('p', {}, 'See them, each login’s refresh status and its Refresh button on ', customerLink(linked), '’s page.')
          : h('p', {}, 'Once a source has brought accounts, the customer’s page shows them with their transactions and each login’s refresh status.'),
      ),
    ),
  );
}
