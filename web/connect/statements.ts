/**
 * Statement files in the Connect app: choosing a downloaded statement file of any format the service reads (its
 * labels and file types come from the contract's STATEMENT_FORMATS) and uploading it, and, when the service cannot
 * tell a CSV file's columns apart (14112), asking which column is which and uploading it again with that mapping.
 * The result joins the app's usual success screen.
 */
import { ApiError } from '../shared/api.js';
import {
  type ConnectInstitution,
  type ConnectStatementQuery,
  type ErrorDetails,
  STATEMENT_FILE_ACCEPT,
  STATEMENT_FORMAT_LABELS,
  type StatementPreview,
  type StatementUploaded,
} from '../shared/contract.js';
import { alertBox, busy, h, money } from '../shared/dom.js';
import { upload } from './api.js';
import { sameAccountForm } from './same-account.js';

/** What the statement screens need of the app around them. */
export interface StatementUi {
  show(name: string, title: string, params: Record<string, unknown>, ...content: (Node | null)[]): void;
  header(inst: ConnectInstitution): HTMLElement;
  fatal(error: unknown): void;
  /** The way back: another institution (Full), or the sign-in form when the institution has one. */
  back(): HTMLElement | null;
  uploaded(result: StatementUploaded): void;
}

/** The service's own limit; checked here first so a large file is not sent for nothing. */
const MAX_BYTES = 10 * 1024 * 1024;
/** The formats the service reads, as the user knows them: their labels, the last after "or". Files go as octet-stream: the service tells them apart by their first bytes, as browsers label them unreliably. */
const FORMATS =
  STATEMENT_FORMAT_LABELS.length > 1 ? `${STATEMENT_FORMAT_LABELS.slice(0, -1).join(', ')} or ${STATEMENT_FORMAT_LABELS.at(-1)}` : STATEMENT_FORMAT_LABELS[0]!;

/** The upload screen: pick a file, upload it; a CSV file of an unknown layout leads to the mapping screen. */
export function uploadScreen(ui: StatementUi, inst: ConnectInstitution, live: boolean, error?: string): void {
  const input = h('input', {
    type: 'file',
    id: 'statement-file',
    accept: STATEMENT_FILE_ACCEPT.join(','),
    required: true,
    'aria-describedby': 'statement-file-hint',
  });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Upload');
  const form = h(
    'form',
    { novalidate: true },
    h('label', { for: input.id }, 'Statement file'),
    h('p', { class: 'hint muted', id: 'statement-file-hint' }, `${FORMATS}, up to 10 MB.`),
    input,
    error ? alertBox(error) : null,
    submit,
    ui.back(),
  );
  const complain = (message: string) => {
    form.querySelector('.alert')?.remove();
    submit.before(alertBox(message));
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  };
  input.addEventListener('change', () => input.removeAttribute('aria-invalid'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const file = input.files?.[0];
    if (!file) return complain('Choose the file you downloaded.');
    if (file.size > MAX_BYTES) return complain('The file is larger than 10 MB. Download a shorter period and try again.');
    void busy(submit, 'Uploading…', () => send(ui, inst, live, file, {}, (message) => complain(message))).catch(ui.fatal);
  });
  const intro = live
    ? `Instead of signing in, you can download a statement from ${inst.name}'s website and upload it here.`
    : `${inst.name} cannot be connected directly. Download a statement from its website and upload it here.`;
  ui.show(
    'statementUpload',
    'Upload a statement file',
    { institutionId: inst.id },
    ui.header(inst),
    h('p', {}, intro),
    h('p', { class: 'muted' }, `In online banking, look for Download or Export on the account's activity page, and choose ${FORMATS}.`),
    form,
  );
}

/**
 * Uploads the file (with a mapping, when there is one). Success goes to the app; an unknown layout to the mapping
 * screen; a refusal the user can act on is shown by `complain`; anything else is fatal.
 */
async function send(
  ui: StatementUi,
  inst: ConnectInstitution,
  live: boolean,
  file: File,
  query: ConnectStatementQuery,
  complain: (message: string) => void,
): Promise<void> {
  const search = searchOf(query);
  try {
    const result = await upload<StatementUploaded>(`/institutions/${inst.id}/statements${search ? `?${search}` : ''}`, file, 'application/octet-stream');
    ui.uploaded(result);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const details = (e.details ?? {}) as ErrorDetails;
    // An unknown layout, or a card export whose signs the file does not tell (details.ask): the user says.
    if (e.code === '14112' && details.headers && details.sample) return mappingScreen(ui, inst, live, file, details);
    // An account that may be one the customer already has: the user says, and the same upload goes again.
    if (e.code === '14115' && details.sameAs?.length) return sameAccountScreen(ui, inst, live, file, query, details.sameAs);
    // The file's own problems, and a mapping that does not fit: the user can pick another file or other columns.
    if (['14110', '14111', '14113', '14114', '10041', '10005'].includes(e.code)) return complain(e.message);
    throw e;
  }
}

/**
 * Asks whether the file's accounts are accounts the customer already has (14115), then uploads the file again with
 * the answers (and the mapping it was sent with); a refusal then shows on the upload screen.
 */
function sameAccountScreen(
  ui: StatementUi,
  inst: ConnectInstitution,
  live: boolean,
  file: File,
  query: ConnectStatementQuery,
  questions: NonNullable<ErrorDetails['sameAs']>,
): void {
  const form = sameAccountForm(
    questions,
    (sameAs) => send(ui, inst, live, file, { ...query, sameAs: JSON.stringify(sameAs) }, (message) => uploadScreen(ui, inst, live, message)),
    ui.fatal,
  );
  ui.show(
    'statementSameAccount',
    questions.length === 1 ? 'Is this an account you already connected?' : 'Are these accounts you already connected?',
    { institutionId: inst.id, accounts: questions.length },
    ui.header(inst),
    form,
  );
}

/** A sample cell that holds a date such as 03/02/2026, 2026-03-02 or 2.3.26. */
const DATE_CELL = /^\s*\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\s*$/;

/** How long the choices must rest before the preview is fetched again (each fetch sends the whole file). */
const PREVIEW_DELAY_MS = 300;

/** Codes offered for the currency; any other ISO 4217 code may be typed. */
const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'NZD', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF', 'JPY', 'SGD', 'HKD', 'MXN', 'BRL', 'INR', 'ZAR'];

type Mapping = NonNullable<ErrorDetails['mapping']>;

/** A header compared as the service compares it: case, spacing and punctuation aside. */
const headerKey = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** A transaction's day as the preview shows it: year first, so that month-first and day-first files both read plainly. */
const day = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().slice(0, 10);

/**
 * The mapping screen: which column is the date, the description, and the amount (or money out and money in), how the
 * file shows purchases (the sign) and which currency its amounts are in, with the first rows as they will be stored
 * (fetched with preview=true as the choices change). Opened for a file of an unknown layout, or, with `details.ask`
 * naming the sign, for a card export whose signs the file does not tell: the proposed mapping chosen, the question
 * marked.
 */
function mappingScreen(ui: StatementUi, inst: ConnectInstitution, live: boolean, file: File, details: ErrorDetails): void {
  const headers = details.headers ?? [];
  const sample = details.sample ?? [];
  const proposed: Mapping = details.mapping ?? {};
  const askSign = details.ask?.includes('sign') ?? false;
  // Asked by the 14112 that opened the screen, or by a preview of the user's choices: then the user must answer.
  let signAsked = askSign;
  const names = headers.map((header, i) => (header.trim() === '' ? `Column ${i + 1}` : header.trim()));
  const columnOf = (column: string | number | undefined) =>
    column === undefined
      ? -1
      : typeof column === 'number'
        ? column < names.length
          ? column
          : -1
        : headers.findIndex((h) => headerKey(h) === headerKey(column));
  // A first guess the user checks: the proposed columns, else the first column of dates and the column of the longest texts.
  const guessDate =
    proposed.date !== undefined
      ? columnOf(proposed.date)
      : headers.findIndex((_, i) => sample.length > 0 && sample.every((row) => DATE_CELL.test(row[i] ?? '')));
  const textLength = (i: number) => sample.reduce((sum, row) => sum + (/[a-z]/i.test(row[i] ?? '') ? (row[i] ?? '').length : 0), 0);
  const guessDescription =
    proposed.description !== undefined
      ? columnOf(proposed.description)
      : headers.reduce((best, _, i) => (i !== guessDate && textLength(i) > (best === -1 ? 0 : textLength(best)) ? i : best), -1);

  const select = (id: string, label: string, preset = -1) => {
    const control = h(
      'select',
      { id, name: id },
      h('option', { value: '' }, 'Choose a column'),
      ...names.map((name, i) => h('option', { value: String(i), selected: i === preset }, name)),
    );
    return { control, node: h('div', {}, h('label', { for: id }, label), control) };
  };
  const date = select('map-date', 'Date', guessDate);
  const description = select('map-description', 'Description', guessDescription);
  const amount = select('map-amount', 'Amount', columnOf(proposed.amount));
  const debit = select('map-debit', 'Money out (debits)', columnOf(proposed.debit));
  const credit = select('map-credit', 'Money in (credits)', columnOf(proposed.credit));
  const splitFirst = proposed.amount === undefined && (proposed.debit !== undefined || proposed.credit !== undefined);
  const single = h('input', { type: 'radio', id: 'amounts-single', name: 'amounts', value: 'single', checked: !splitFirst });
  const split = h('input', { type: 'radio', id: 'amounts-split', name: 'amounts', value: 'split', checked: splitFirst });
  const splitBox = h('div', {}, debit.node, credit.node);
  const order = h(
    'select',
    { id: 'map-date-order' },
    h('option', { value: '' }, 'Decide from the file'),
    h('option', { value: 'mdy', selected: proposed.dateOrder === 'mdy' }, 'Month first (03/04/2026 is March 4)'),
    h('option', { value: 'dmy', selected: proposed.dateOrder === 'dmy' }, 'Day first (03/04/2026 is 3 April)'),
    h('option', { value: 'ymd', selected: proposed.dateOrder === 'ymd' }, 'Year first (2026-03-04)'),
  );

  // The sign: negate false when purchases are negative in the file, true when they are positive.
  const negative = h('input', { type: 'radio', id: 'sign-negative', name: 'sign', value: 'negative', checked: proposed.negate === false });
  const positive = h('input', { type: 'radio', id: 'sign-positive', name: 'sign', value: 'positive', checked: proposed.negate === true });
  const signHint = h(
    'p',
    { class: 'hint', id: 'sign-hint' },
    askSign
      ? 'Every amount in this file has the same sign, so it does not tell. Look at a purchase you know in the rows above.'
      : 'Look at a purchase you know in the rows above. Bank accounts mostly show them as negative, card exports often as positive.',
  );
  const sign = h(
    'fieldset',
    { class: askSign ? 'question asked' : 'question', 'aria-describedby': signHint.id },
    h('legend', {}, 'How does the file show purchases and money out?'),
    signHint,
    h('label', { class: 'choice', for: negative.id }, negative, 'Purchases/money out are shown as negative amounts in the file'),
    h('label', { class: 'choice', for: positive.id }, positive, 'Purchases/money out are shown as positive amounts in the file'),
  );

  const currency = h('input', {
    type: 'text',
    id: 'map-currency',
    name: 'currency',
    list: 'currency-codes',
    maxlength: 3,
    autocomplete: 'off',
    autocapitalize: 'characters',
    spellcheck: 'false',
    placeholder: 'USD',
    'aria-describedby': 'map-currency-hint',
  });
  const currencyHint = h('p', { class: 'hint muted', id: 'map-currency-hint' }, 'The three-letter code, such as EUR, when the file does not say it.');
  // Until the user types one, the file's own currency is shown and none is sent: the file's wins.
  let currencyTyped = false;
  currency.addEventListener('input', () => {
    currencyTyped = currency.value.trim() !== '';
  });

  const syncAmounts = () => {
    amount.node.hidden = split.checked;
    splitBox.hidden = !split.checked;
    // Separate columns say the direction themselves.
    sign.hidden = split.checked;
  };
  single.addEventListener('change', syncAmounts);
  split.addEventListener('change', syncAmounts);
  syncAmounts();

  const table = h(
    'div',
    { class: 'table-wrap', role: 'region', 'aria-label': 'The first rows of the file', tabindex: '0' },
    h(
      'table',
      { class: 'preview' },
      h('thead', {}, h('tr', {}, ...names.map((name) => h('th', { scope: 'col' }, name)))),
      h('tbody', {}, ...sample.map((row) => h('tr', {}, ...names.map((_, i) => h('td', {}, row[i] ?? ''))))),
    ),
  );
  const previewStatus = h('p', { class: 'muted', id: 'stored-status', 'aria-live': 'polite' });
  const previewRows = h('div', {});
  const stored = h(
    'section',
    { class: 'stored', 'aria-labelledby': 'stored-title' },
    h('h3', { id: 'stored-title' }, 'As they will be imported'),
    previewStatus,
    previewRows,
  );

  const submit = h('button', { type: 'submit', class: 'primary' }, 'Import');
  const form = h(
    'form',
    { novalidate: true },
    date.node,
    description.node,
    h(
      'fieldset',
      {},
      h('legend', {}, 'Amounts'),
      h('label', { class: 'choice', for: single.id }, single, 'One column of amounts'),
      h('label', { class: 'choice', for: split.id }, split, 'Separate columns for money out and money in'),
    ),
    amount.node,
    splitBox,
    sign,
    h('label', { for: order.id }, 'Dates are written'),
    order,
    h('label', { for: currency.id }, 'Currency of the amounts'),
    currencyHint,
    currency,
    h('datalist', { id: 'currency-codes' }, ...CURRENCIES.map((code) => h('option', { value: code }))),
    stored,
    submit,
    h('button', { type: 'button', class: 'secondary', onclick: () => uploadScreen(ui, inst, live) }, 'Choose another file'),
  );
  const complain = (message: string) => {
    form.querySelector('.alert')?.remove();
    submit.before(alertBox(message));
  };

  /** The choices as the upload's query, or what is missing (its control, and the message saying so). */
  const choices = (): { query: ConnectStatementQuery } | { missing: HTMLElement; message: string } => {
    const at = (s: { control: HTMLSelectElement }) => (s.control.value === '' ? undefined : Number(s.control.value));
    const chosen: Mapping = { date: at(date), description: at(description), headerRow: details.headerRow ?? 0 };
    if (split.checked) {
      chosen.debit = at(debit);
      chosen.credit = at(credit);
    } else chosen.amount = at(amount);
    const missing = (s: { control: HTMLSelectElement; node: HTMLElement }) => ({
      missing: s.control as HTMLElement,
      message: `Choose the column for “${s.node.querySelector('label')?.textContent}”.`,
    });
    if (chosen.date === undefined) return missing(date);
    if (chosen.description === undefined) return missing(description);
    if (split.checked && chosen.debit === undefined && chosen.credit === undefined) return missing(debit);
    if (!split.checked && chosen.amount === undefined) return missing(amount);
    if (order.value) chosen.dateOrder = order.value as Mapping['dateOrder'];
    if (!split.checked && (negative.checked || positive.checked)) chosen.negate = positive.checked;
    if (!split.checked && signAsked && chosen.negate === undefined) {
      return { missing: negative, message: 'Say how the file shows purchases and money out.' };
    }
    const code = currency.value.trim();
    if (currencyTyped && !/^[A-Za-z]{3}$/.test(code)) return { missing: currency, message: 'Type the currency’s three-letter code, such as EUR.' };
    // What else the proposal maps (a memo, a type or card number column...) stays, unless a choice took its column.
    const taken = new Set([chosen.date, chosen.description, chosen.amount, chosen.debit, chosen.credit]);
    const kept = Object.entries(proposed).filter(
      ([field, column]) =>
        !['date', 'description', 'amount', 'debit', 'credit', 'dateOrder', 'negate', 'headerRow'].includes(field) &&
        !taken.has(columnOf(column as string | number)),
    );
    const mapping = { ...Object.fromEntries(kept), ...chosen };
    return { query: { mapping: JSON.stringify(mapping), ...(currencyTyped ? { currency: code.toUpperCase() } : {}) } };
  };

  // The preview follows the choices: fetched once they rest, and only the answer to the latest choices is shown.
  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const showRows = (result: StatementPreview) => {
    const shown = result.transactions.length;
    const where = result.accounts.length === 1 ? ` into ${result.accounts[0]!.name}` : '';
    previewStatus.textContent =
      shown === 0
        ? 'No transaction could be read with these choices.'
        : `The first ${shown} of ${result.transactionsRead} transactions, as they will be imported${where}.`;
    if (result.currencyFrom === 'file' && !currencyTyped && result.accounts[0]) {
      currency.value = result.accounts[0].currency;
      currencyHint.textContent = `The file says its amounts are in ${result.accounts[0].currency}. Change it only if that is wrong.`;
    } else if (result.currencyFrom === 'default' && !currencyTyped) {
      currency.value = '';
      currencyHint.textContent = 'The file does not say its currency: type or pick its code. Left empty, it is USD.';
    }
    previewRows.replaceChildren(
      shown === 0
        ? ''
        : h(
            'div',
            { class: 'table-wrap', role: 'region', 'aria-label': 'The first rows as they will be imported', tabindex: '0' },
            h(
              'table',
              { class: 'preview' },
              h(
                'thead',
                {},
                h('tr', {}, h('th', { scope: 'col' }, 'Date'), h('th', { scope: 'col' }, 'Description'), h('th', { scope: 'col', class: 'num' }, 'Amount')),
              ),
              h(
                'tbody',
                {},
                ...result.transactions.map((t) =>
                  h(
                    'tr',
                    {},
                    h('td', { class: 'day' }, day(t.transactionDate)),
                    h('td', {}, t.description),
                    h('td', { class: 'num' }, money(t.amount, t.currency)),
                  ),
                ),
              ),
            ),
          ),
      ...result.problems.slice(0, 3).map((p) => h('p', { class: 'hint muted' }, p.line ? `Line ${p.line}: ${p.message}` : p.message)),
    );
  };
  // The query the preview shown (or being fetched) is of: a change that leaves it as it was sends nothing.
  let previewed = '';
  const fetchPreview = async () => {
    const chosen = choices();
    const key = 'missing' in chosen ? '' : JSON.stringify(chosen.query);
    if (key !== '' && key === previewed) return;
    previewed = key;
    const mine = ++asked;
    if ('missing' in chosen) {
      previewStatus.textContent = chosen.missing === negative ? 'Say how the file shows purchases to see the rows as they will be imported.' : chosen.message;
      previewRows.replaceChildren();
      return;
    }
    previewStatus.textContent = 'Reading the file…';
    try {
      const result = await preview(inst, file, chosen.query);
      if (mine === asked) showRows(result);
    } catch (e) {
      if (mine !== asked) return;
      if (!(e instanceof ApiError)) throw e;
      // No answer came: the same choices may be asked again.
      if (e.code === 'network') previewed = '';
      if (e.code === '14112' && (e.details as ErrorDetails | undefined)?.ask?.includes('sign')) {
        signAsked = true;
        sign.classList.add('asked');
        previewStatus.textContent = 'Every amount in this file has the same sign: say how it shows purchases to see the rows as they will be imported.';
      } else previewStatus.textContent = e.message;
      previewRows.replaceChildren();
    }
  };
  const refresh = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void fetchPreview().catch(ui.fatal), PREVIEW_DELAY_MS);
  };
  // A complaint about the earlier choices is out of date once they change.
  const changed = () => {
    form.querySelector('.alert')?.remove();
    refresh();
  };
  form.addEventListener('change', changed);
  currency.addEventListener('input', changed);

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const chosen = choices();
    if ('missing' in chosen) {
      complain(chosen.message);
      chosen.missing.focus();
      return;
    }
    clearTimeout(timer);
    asked++;
    void busy(submit, 'Importing…', () => send(ui, inst, live, file, chosen.query, complain)).catch(ui.fatal);
  });
  const intro = askSign
    ? `The columns of ${file.name} were recognised, but not whether its purchases are written as positive or negative amounts. Say which below, and check the first rows as they will be imported.`
    : `The columns of ${file.name} could not be told apart. Choose the column that holds each of these; the first rows of the file are below.`;
  ui.show(
    'statementMapping',
    'Which column is which?',
    { institutionId: inst.id, columns: names.length, ...(askSign ? { ask: 'sign' } : {}) },
    ui.header(inst),
    h('p', {}, intro),
    table,
    form,
  );
  void fetchPreview().catch(ui.fatal);
}

/** What the file would store with these choices: the upload with preview=true, which stores nothing. */
function preview(inst: ConnectInstitution, file: File, query: ConnectStatementQuery): Promise<StatementPreview> {
  return upload<StatementPreview>(`/institutions/${inst.id}/statements?${searchOf({ ...query, preview: true })}`, file, 'application/octet-stream');
}

/** The query string of an upload's options. */
function searchOf(query: ConnectStatementQuery): string {
  return new URLSearchParams(
    Object.entries(query).flatMap(([k, v]): [string, string][] => (typeof v === 'string' || typeof v === 'boolean' ? [[k, String(v)]] : [])),
  ).toString();
}
