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
  type StatementUploaded,
} from '../shared/contract.js';
import { alertBox, busy, h } from '../shared/dom.js';
import { upload } from './api.js';

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
  const search = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string')).toString();
  try {
    const result = await upload<StatementUploaded>(`/institutions/${inst.id}/statements${search ? `?${search}` : ''}`, file, 'application/octet-stream');
    ui.uploaded(result);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const details = (e.details ?? {}) as ErrorDetails;
    if (e.code === '14112' && details.headers && details.sample) return mappingScreen(ui, inst, live, file, details);
    // The file's own problems, and a mapping that does not fit: the user can pick another file or other columns.
    if (['14110', '14111', '14113', '14114', '10041', '10005'].includes(e.code)) return complain(e.message);
    throw e;
  }
}

/** A sample cell that holds a date such as 03/02/2026, 2026-03-02 or 2.3.26. */
const DATE_CELL = /^\s*\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\s*$/;

/** The mapping screen: which column is the date, the description, and the amount (or money out and money in). */
function mappingScreen(ui: StatementUi, inst: ConnectInstitution, live: boolean, file: File, details: ErrorDetails): void {
  const headers = details.headers ?? [];
  const sample = details.sample ?? [];
  const names = headers.map((header, i) => (header.trim() === '' ? `Column ${i + 1}` : header.trim()));
  // A first guess the user checks: the first column of dates, and the column of the longest texts.
  const guessDate = headers.findIndex((_, i) => sample.length > 0 && sample.every((row) => DATE_CELL.test(row[i] ?? '')));
  const textLength = (i: number) => sample.reduce((sum, row) => sum + (/[a-z]/i.test(row[i] ?? '') ? (row[i] ?? '').length : 0), 0);
  const guessDescription = headers.reduce((best, _, i) => (i !== guessDate && textLength(i) > (best === -1 ? 0 : textLength(best)) ? i : best), -1);

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
  const amount = select('map-amount', 'Amount');
  const debit = select('map-debit', 'Money out (debits)');
  const credit = select('map-credit', 'Money in (credits)');
  const single = h('input', { type: 'radio', id: 'amounts-single', name: 'amounts', value: 'single', checked: true });
  const split = h('input', { type: 'radio', id: 'amounts-split', name: 'amounts', value: 'split' });
  const splitBox = h('div', { hidden: true }, debit.node, credit.node);
  const syncAmounts = () => {
    amount.node.hidden = split.checked;
    splitBox.hidden = !split.checked;
  };
  single.addEventListener('change', syncAmounts);
  split.addEventListener('change', syncAmounts);
  const order = h(
    'select',
    { id: 'map-date-order' },
    h('option', { value: '' }, 'Decide from the file'),
    h('option', { value: 'mdy' }, 'Month first (03/04/2026 is March 4)'),
    h('option', { value: 'dmy' }, 'Day first (03/04/2026 is 3 April)'),
    h('option', { value: 'ymd' }, 'Year first (2026-03-04)'),
  );
  const negate = h('input', { type: 'checkbox', id: 'map-negate' });

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
      h('label', { class: 'choice', for: single.id }, single, 'One column, money out written as negative'),
      h('label', { class: 'choice', for: split.id }, split, 'Separate columns for money out and money in'),
    ),
    amount.node,
    splitBox,
    h('label', { for: order.id }, 'Dates are written'),
    order,
    h('label', { class: 'choice', for: negate.id }, negate, 'Purchases are positive amounts (many card exports)'),
    submit,
    h('button', { type: 'button', class: 'secondary', onclick: () => uploadScreen(ui, inst, live) }, 'Choose another file'),
  );
  const complain = (message: string) => {
    form.querySelector('.alert')?.remove();
    submit.before(alertBox(message));
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const at = (s: { control: HTMLSelectElement }) => (s.control.value === '' ? undefined : Number(s.control.value));
    const mapping: Record<string, unknown> = { date: at(date), description: at(description), headerRow: details.headerRow ?? 0 };
    if (split.checked) {
      mapping.debit = at(debit);
      mapping.credit = at(credit);
    } else mapping.amount = at(amount);
    if (order.value) mapping.dateOrder = order.value;
    if (negate.checked) mapping.negate = true;
    const missing =
      mapping.date === undefined
        ? date
        : mapping.description === undefined
          ? description
          : split.checked
            ? mapping.debit === undefined && mapping.credit === undefined
              ? debit
              : undefined
            : mapping.amount === undefined
              ? amount
              : undefined;
    if (missing) {
      complain(`Choose the column for “${missing.node.querySelector('label')?.textContent}”.`);
      missing.control.focus();
      return;
    }
    void busy(submit, 'Importing…', () => send(ui, inst, live, file, { mapping: JSON.stringify(mapping) }, complain)).catch(ui.fatal);
  });
  ui.show(
    'statementMapping',
    'Which column is which?',
    { institutionId: inst.id, columns: names.length },
    ui.header(inst),
    h('p', {}, `The columns of ${file.name} could not be told apart. Choose the column that holds each of these; the first rows of the file are below.`),
    table,
    form,
  );
}
