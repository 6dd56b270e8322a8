/**
 * Statement files from a customer's page: a file of any format the service reads (labels and file types from the
 * contract's STATEMENT_FORMATS) uploaded for the customer at an institution, one it already has statement files at
 * or one found in the catalogue, through the API's own upload. The result shows the accounts, the transactions added
 * or already present, and every problem the file had (line and message), as Connect shows them to the customer.
 */
import { ApiError } from '../shared/api.js';
import {
  type CustomerOverview,
  type DashboardInstitutionPage,
  type ErrorDetails,
  type InstitutionRef,
  STATEMENT_FILE_ACCEPT,
  STATEMENT_FORMAT_LABELS,
  type StatementUploaded,
} from '../shared/contract.js';
import { money } from '../shared/dom.js';
import { api, uploadFile } from './api.js';
import { h, messageOf, onSubmit, section, table, toastAfter, withBusy } from './ui.js';

/** The service's own limit; checked here first so a large file is not sent for nothing. */
const MAX_BYTES = 10 * 1024 * 1024;
/** The formats the service reads, as people know them: their labels, the last after "or". */
const FORMATS =
  STATEMENT_FORMAT_LABELS.length > 1 ? `${STATEMENT_FORMAT_LABELS.slice(0, -1).join(', ')} or ${STATEMENT_FORMAT_LABELS.at(-1)}` : STATEMENT_FORMAT_LABELS[0]!;

/** What each customer's section holds across the page's redraws: the last search, the institution chosen, the last upload. */
interface Kept {
  search: string;
  results: InstitutionRef[] | undefined;
  chosen: string;
  last: StatementUploaded | undefined;
}
const kept = new Map<string, Kept>();

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

function sizeOf(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A refusal as the form shows it: the service's message and code, and for a CSV layout it cannot read, where to map it. */
function refusal(error: unknown): Error {
  if (!(error instanceof ApiError) || error.code !== '14112') return new Error(messageOf(error));
  const headers = ((error.details ?? {}) as ErrorDetails).headers ?? [];
  return new Error(
    `${error.message}${headers.length ? ` Columns found: ${headers.join(', ')}.` : ''} Upload it in Connect (a Connect link above, then “Upload a statement file instead”), which asks which column is which, or through the API with a mapping parameter. (code ${error.code})`,
  );
}

function resultView(result: StatementUploaded): HTMLElement {
  const { problems } = result;
  return h(
    'div',
    { class: 'link-result', role: 'group', 'aria-labelledby': 'statement-result' },
    h('h3', { class: 'link-title', id: 'statement-result', tabindex: '-1' }, `Uploaded to ${result.institution.name}, login ${result.institutionLoginId}`),
    h(
      'p',
      { id: 'statement-counts' },
      `${plural(result.transactionsAdded, 'new transaction')} added, ${plural(result.transactionsAlreadyPresent, 'transaction')} already present from an earlier file.`,
    ),
    table(
      `Accounts in the file (${result.accounts.length})`,
      ['Account', 'Type', 'Number', 'Balance'],
      result.accounts.map((a) => [
        h('span', {}, a.name, h('span', { class: 'sub' }, `ID ${a.id}`)),
        a.type,
        a.accountNumberDisplay || '—',
        h('span', { class: 'num' }, money(a.balance, a.currency)),
      ]),
    ),
    problems.length === 0
      ? h('p', { class: 'muted' }, 'No problems: the file was read without a note.')
      : table(
          // Rows that could not be read (with their line) and notes on the whole file, such as how its dates were read.
          `Problems in the file (${problems.length})`,
          ['Line', 'Problem'],
          problems.map((p) => [p.line !== undefined ? String(p.line) : 'Whole file', p.message]),
        ),
  );
}

export async function statementsSection(customerId: string, overview: CustomerOverview, reload: (focusId?: string) => Promise<void>): Promise<HTMLElement> {
  const path = `/customers/${encodeURIComponent(customerId)}`;
  const state: Kept = kept.get(customerId) ?? { search: '', results: undefined, chosen: '', last: undefined };
  kept.set(customerId, state);
  const testing = overview.customer.type === 'testing';
  // Later uploads at an institution the customer has statement files at merge into the same login: offered first.
  const uploadedAt = [...new Map(overview.institutionLogins.filter((l) => l.statementFile).map((l) => [l.institution.id, l.institution] as const)).values()];
  // A testing customer may upload at the test institutions only, few enough to list before any search.
  if (testing && state.results === undefined) state.results = (await api<DashboardInstitutionPage>('GET', `${path}/institutions`)).institutions;

  const institution = h('select', { id: 'statement-institution', required: true, 'aria-describedby': 'statement-institution-hint' });
  const fill = () => {
    const others = (state.results ?? []).filter((r) => !uploadedAt.some((u) => u.id === r.id));
    const group = (label: string, list: InstitutionRef[]) =>
      list.length === 0
        ? null
        : h('optgroup', { label }, ...list.map((i) => h('option', { value: String(i.id), selected: String(i.id) === state.chosen }, `${i.name} (${i.id})`)));
    institution.replaceChildren(
      ...(uploadedAt.length + others.length === 0 ? [h('option', { value: '' }, 'Search the catalogue first')] : []),
      ...[
        group('Statement files uploaded before', uploadedAt),
        group(state.search ? `Matching “${state.search}”` : testing ? 'Test institutions' : 'Found', others),
      ].filter((g) => g !== null),
    );
    state.chosen = institution.value;
  };
  fill();
  institution.addEventListener('change', () => {
    state.chosen = institution.value;
  });

  const box = h('input', { type: 'search', id: 'statement-search', maxlength: '255', autocomplete: 'off', value: state.search });
  const found = h('p', { class: 'hint', id: 'statement-search-found', role: 'status' });
  const searchButton = h('button', { type: 'submit', class: 'button secondary' }, 'Search');
  const search = h(
    'form',
    {
      role: 'search',
      class: 'search-form',
      'aria-label': 'Find the institution',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void withBusy(searchButton, 'Searching…', async () => {
          const text = box.value.trim();
          const page = await api<DashboardInstitutionPage>('GET', `${path}/institutions?${new URLSearchParams(text ? { search: text } : {})}`);
          state.search = text;
          state.results = page.institutions;
          // The best match is chosen, unless nothing matched.
          if (page.institutions[0]) state.chosen = String(page.institutions[0].id);
          fill();
          found.textContent =
            page.found === 0
              ? `No institution${testing ? ' open to testing customers' : ''} matches “${text}”.`
              : `${plural(page.found, 'institution')} found${page.moreAvailable ? `, the best ${page.institutions.length} listed` : ''}: choose under Institution.`;
        });
      },
    },
    h('div', { class: 'field' }, h('label', { for: box.id }, 'Find an institution'), box),
    searchButton,
  );

  const file = h('input', {
    type: 'file',
    id: 'statement-file',
    accept: STATEMENT_FILE_ACCEPT.join(','),
    required: true,
    'aria-describedby': 'statement-file-hint',
  });
  const accountName = h('input', { id: 'statement-account-name', maxlength: '200', autocomplete: 'off', 'aria-describedby': 'statement-account-name-hint' });
  const currency = h('input', {
    id: 'statement-currency',
    maxlength: '3',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'statement-currency-hint',
  });
  const errors = h('div', {});
  const progress = h('p', { class: 'hint', id: 'statement-progress', role: 'status' });
  const submit = h('button', { type: 'submit', class: 'button primary', id: 'statement-upload' }, 'Upload');
  const labelled = (input: HTMLElement, label: string, hint: string) =>
    h('div', { class: 'field' }, h('label', { for: input.id }, label), input, h('p', { class: 'hint', id: `${input.id}-hint` }, hint));
  const form = h(
    'form',
    {
      class: 'inline-form upload-form',
      'aria-label': 'Statement file to upload',
      novalidate: true,
      onsubmit: onSubmit(submit, errors, 'Uploading…', async () => {
        const chosen = file.files?.[0];
        const code = currency.value.trim();
        if (!institution.value) {
          box.focus();
          throw new Error('Choose the institution the file comes from: search the catalogue for it.');
        }
        if (!chosen) {
          file.focus();
          throw new Error('Choose the statement file.');
        }
        if (chosen.size > MAX_BYTES) throw new Error('The file is larger than 10 MB, the most a statement file may be: upload a shorter period.');
        if (code && !/^[A-Za-z]{3}$/.test(code)) {
          currency.focus();
          throw new Error('The currency is a three-letter ISO 4217 code, such as EUR.');
        }
        const query = new URLSearchParams({
          ...(accountName.value.trim() ? { accountName: accountName.value.trim() } : {}),
          ...(code ? { currency: code.toUpperCase() } : {}),
        });
        progress.textContent = `Uploading ${chosen.name} (${sizeOf(chosen.size)}): the service reads and stores it, which takes a few seconds for a large file.`;
        try {
          state.last = await uploadFile<StatementUploaded>(`${path}/institutions/${institution.value}/statements${query.size ? `?${query}` : ''}`, chosen);
        } catch (e) {
          throw refusal(e);
        } finally {
          progress.textContent = '';
        }
        // The new login, accounts and transactions show in the sections below.
        await toastAfter(
          () => reload('statement-result'),
          `${state.last.institution.name}: ${plural(state.last.transactionsAdded, 'new transaction')}, ${plural(state.last.problems.length, 'problem')}.`,
        );
      }),
    },
    errors,
    labelled(
      institution,
      'Institution',
      testing ? 'Testing customers upload at test institutions only, such as FinBank.' : 'Where the file was downloaded: uploads there merge into one login.',
    ),
    labelled(file, 'Statement file', `${FORMATS}, up to 10 MB.`),
    h(
      'div',
      { class: 'field-row' },
      labelled(accountName, 'Account name (optional)', 'CSV and QIF files of one account: later uploads with this name land in the same account.'),
      labelled(currency, 'Currency (optional)', "A code such as EUR, when the file's own currency is not right (CSV and QIF)."),
    ),
    h('div', { class: 'form-actions' }, submit),
    progress,
  );

  return section(
    'Upload a statement file',
    h(
      'p',
      { class: 'muted' },
      'Upload a file downloaded from online banking for this customer, as POST /aggregation/v1/customers/{customerId}/institutions/{institutionId}/statements does: the first upload at an institution makes its statement-file login, later ones add only what is new.',
    ),
    search,
    found,
    form,
    state.last ? resultView(state.last) : null,
  );
}
