/**
 * The hosted Connect app. One screen at a time in <main>: institution search, sign-in (form or OAuth window),
 * MFA, account choice, statement file upload (statements.ts), success, in Full mode account management, and the
 * micro entry verification (micro-entries.ts). Every step is a call to /connect/api
 * with the link; every screen change is reported to the SDK as a `route` event.
 */
import { ApiError } from '../shared/api.js';
import type {
  AddedAccounts,
  ConnectAccountsBody,
  ConnectBorrower,
  ConnectEndBody,
  ConnectInstitution,
  ConnectInstitutionPage,
  ConnectLogin,
  ConnectLoginField,
  ConnectLogins,
  ConnectMfaBody,
  ConnectRedirect,
  ConnectSession,
  ConnectSignInBody,
  DiscoveredAccount,
  ErrorDetails,
  Experience,
  MfaChallenge,
  SelectedInstitution,
  SignInStep,
  StatementUploaded,
} from '../shared/contract.js';
import { alertBox, busy, h, money } from '../shared/dom.js';
import { api, setBorrower } from './api.js';
import { emit, hasSdk, inIframe, onSdkMessage } from './sdk-bridge.js';
import { microEntryScreen } from './micro-entries.js';
import { sameAccountForm } from './same-account.js';
import { type StatementUi, uploadScreen } from './statements.js';

const screen = document.getElementById('screen') as HTMLElement;
let session: ConnectSession;
const added: AddedAccounts[] = [];
let finished = false;
/** What the user typed in non-secret sign-in fields, by field id. */
const typed = new Map<string, string>();
/** Sandbox mode: the test users of test institutions, by institution id, as the server sent them. */
const testCredentials = new Map<number, NonNullable<SelectedInstitution['testCredentials']>>();

/** Shows a screen: a heading (focused, for screen readers and keyboards) and its content; tells the SDK. */
function show(name: string, title: string, params: Record<string, unknown>, ...content: (Node | null)[]): void {
  const heading = h('h2', { tabindex: '-1', id: 'screen-title' }, title);
  screen.replaceChildren(heading, ...content.filter((n): n is Node => n !== null));
  screen.setAttribute('aria-labelledby', 'screen-title');
  document.title = `${title} – ${session?.experience.appName ?? 'Connect'}`;
  heading.focus();
  emit('route', { screen: name, params });
}

function institutionHeader(inst: ConnectInstitution): HTMLElement {
  return h(
    'div',
    { class: 'institution' },
    h('img', { src: inst.logo, alt: '' }),
    h('div', {}, h('strong', {}, inst.name), h('span', { class: 'sub muted' }, inst.url.replace(/^https?:\/\//, ''))),
  );
}

/** A failure the user cannot fix here: reported to the SDK as `error`. */
function fatal(error: unknown): void {
  const e = error instanceof ApiError ? error : new ApiError(0, 'client', String(error));
  show(
    'error',
    'Something went wrong',
    { code: e.code },
    alertBox(e.message),
    h('p', { class: 'muted' }, 'Close this window and ask for a new link if the problem continues.'),
  );
  emit('error', { code: Number(e.code) || e.status || 500, reason: e.message });
}

function applyBranding(x: Experience): void {
  document.documentElement.style.setProperty('--brand', /^#[0-9a-f]{6}$/i.test(x.primaryColor) ? x.primaryColor : '#1f5fbf');
  const brand = document.querySelector('.brand') as HTMLElement;
  brand.replaceChildren(
    x.logoUrl ? h('img', { src: x.logoUrl, alt: '' }) : h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, x.appName.slice(0, 1).toUpperCase()),
    h('span', { class: 'brand-name' }, x.appName),
  );
}

// ---------- joint borrowers ----------

/** Whose accounts a joint borrower link is adding now. */
let currentBorrower: ConnectBorrower['type'] = 'primary';

/** Makes the app act for this borrower from now on (the SDK hears a `user` event). */
function chooseBorrower(b: ConnectBorrower): void {
  currentBorrower = b.type;
  setBorrower(b.type);
  emit('user', { action: 'borrowerSelected', borrower: b.type, customerId: b.customerId });
}

/** After a borrower's accounts were connected: a button to connect the other borrower's, on a joint borrower link. */
function otherBorrowerButton(): HTMLElement | null {
  const other = session.borrowers?.find((b) => b.type !== currentBorrower);
  if (!other) return null;
  return h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      onclick: () => {
        chooseBorrower(other);
        searchScreen();
      },
    },
    `Connect ${other.name}’s accounts`,
  );
}

/** Whose accounts were just connected, on a joint borrower link. */
function borrowerNote(): HTMLElement | null {
  const current = session.borrowers?.find((b) => b.type === currentBorrower);
  return current ? h('p', { class: 'muted' }, `Connected for ${current.name}.`) : null;
}

/**
 * A joint borrower link's choice of borrower: each borrower links their own accounts, under their own customer, by
 * picking themselves here before searching (the calls that follow name the borrower). Null for other links.
 */
function borrowerChoice(): HTMLElement | null {
  const borrowers = session.borrowers;
  if (!borrowers) return null;
  const label = (b: ConnectBorrower) => `${b.name} (${b.type === 'primary' ? 'primary borrower' : 'joint borrower'})`;
  return h(
    'fieldset',
    { class: 'borrowers' },
    h('legend', {}, 'Whose accounts are you connecting?'),
    ...borrowers.map((b) =>
      h(
        'label',
        { class: 'choice' },
        h('input', {
          type: 'radio',
          name: 'borrower',
          value: b.type,
          checked: b.type === currentBorrower ? true : undefined,
          onchange: () => chooseBorrower(b),
        }),
        ` ${label(b)}`,
      ),
    ),
  );
}

// ---------- institution search (Full) ----------

function searchScreen(): void {
  const input = h('input', { id: 'search', type: 'search', autocomplete: 'off', placeholder: 'Bank name or website', 'aria-describedby': 'search-hint' });
  const results = h('ul', { class: 'list', id: 'results', 'aria-label': 'Institutions' });
  const hint = h('p', { class: 'muted', id: 'search-hint' }, 'Test institutions are called FinBank.');
  let timer: ReturnType<typeof setTimeout> | undefined;
  let seq = 0;
  const run = async () => {
    const text = input.value.trim();
    const mine = ++seq;
    if (!text) {
      results.replaceChildren();
      return;
    }
    try {
      const page = await api<ConnectInstitutionPage>('GET', `/institutions?search=${encodeURIComponent(text)}&limit=20`);
      if (mine !== seq) return;
      results.replaceChildren(
        ...page.institutions.map((inst) =>
          h(
            'li',
            {},
            h(
              'button',
              {
                type: 'button',
                class: 'row',
                'aria-disabled': inst.available || inst.statementUpload ? undefined : 'true',
                'aria-label': inst.available
                  ? inst.name
                  : inst.statementUpload
                    ? `${inst.name} (upload a statement file)`
                    : `${inst.name} (not available for this account)`,
                onclick: () => (inst.available || inst.statementUpload ? selectInstitution(inst) : undefined),
              },
              h('img', { src: inst.logo, alt: '' }),
              h(
                'span',
                { class: 'grow' },
                inst.name,
                h(
                  'span',
                  { class: 'sub' },
                  inst.available ? inst.url.replace(/^https?:\/\//, '') : inst.statementUpload ? 'Upload a statement file' : 'Not available for this account',
                ),
              ),
            ),
          ),
        ),
      );
      if (page.institutions.length === 0) results.replaceChildren(h('li', { class: 'muted' }, `No institution matches “${text}”.`));
      hint.textContent = `${page.found} institution${page.found === 1 ? '' : 's'} found.`;
    } catch (e) {
      fatal(e);
    }
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(run, 250);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      clearTimeout(timer);
      void run();
    }
  });
  const manage =
    session.mode === 'full' ? h('button', { type: 'button', class: 'link-button', onclick: () => void manageScreen() }, 'Manage connected accounts') : null;
  show(
    'search',
    'Find your bank',
    {},
    h('p', { class: 'muted' }, 'Search among thousands of banks, card issuers and brokers.'),
    borrowerChoice(),
    h('label', { for: 'search' }, 'Search for your institution'),
    input,
    hint,
    results,
    manage,
  );
  input.focus();
}

async function selectInstitution(inst: ConnectInstitution): Promise<void> {
  emit('user', { action: 'institutionSelected', institutionId: inst.id });
  try {
    const chosen = await api<SelectedInstitution>('POST', `/institutions/${inst.id}`);
    if (!chosen.live) return uploadScreen(statementUi(chosen.institution, false), chosen.institution, false);
    if (chosen.testCredentials) testCredentials.set(chosen.institution.id, chosen.testCredentials);
    signInScreen(chosen.institution, chosen.loginForm, chosen.oauth);
  } catch (e) {
    fatal(e);
  }
}

// ---------- statement files ----------

/** The statement screens' hooks into the app; `live`: the institution also has a sign-in form to go back to. */
function statementUi(inst: ConnectInstitution, live: boolean): StatementUi {
  return {
    show,
    header: institutionHeader,
    fatal,
    back: () =>
      live
        ? h('button', { type: 'button', class: 'secondary', onclick: () => void selectInstitution(inst) }, 'Sign in instead')
        : session.mode === 'full'
          ? h('button', { type: 'button', class: 'secondary', onclick: () => searchScreen() }, 'Choose another institution')
          : null,
    uploaded: (result) => {
      added.push(result);
      emit('user', { action: 'statementUploaded', institutionId: result.institution.id, accounts: result.accounts.length });
      successScreen(result);
    },
  };
}

/** Where an institution with a sign-in form also takes statement files (not when repairing a sign-in). */
function uploadInstead(inst: ConnectInstitution): HTMLElement | null {
  if (!inst.statementUpload || session.mode === 'fix') return null;
  return h(
    'button',
    { type: 'button', class: 'link-button', onclick: () => uploadScreen(statementUi(inst, true), inst, true) },
    'Upload a statement file instead',
  );
}

// ---------- sign-in ----------

function signInScreen(inst: ConnectInstitution, fields: ConnectLoginField[], oauth: boolean, error?: string): void {
  const back =
    session.mode === 'full' ? h('button', { type: 'button', class: 'secondary', onclick: () => searchScreen() }, 'Choose another institution') : null;
  const title = session.mode === 'fix' ? `Sign in again to ${inst.name}` : `Sign in to ${inst.name}`;
  if (oauth) {
    const go = h('button', { type: 'button', class: 'primary', id: 'oauth-continue' }, `Continue to ${inst.name}`);
    go.addEventListener('click', () => void busy(go, 'Waiting for sign-in…', () => oauthSignIn(inst)));
    show(
      'oauth',
      title,
      { institutionId: inst.id },
      institutionHeader(inst),
      h('p', {}, `You will sign in on ${inst.name}'s own site in a new window. ${session.experience.appName} never sees your password.`),
      error ? alertBox(error) : null,
      go,
      back,
      uploadInstead(inst),
    );
    return;
  }
  const inputs = [...fields]
    .sort((a, b) => a.displayOrder - b.displayOrder)
    .map((f) => ({
      f,
      hint: f.hint ? h('p', { class: 'hint muted', id: `hint-${f.id}` }, f.hint) : null,
      input: h('input', {
        id: `field-${f.id}`,
        name: f.name,
        type: f.kind === 'text' ? 'text' : 'password',
        required: true,
        // After a refused sign-in the user id stays filled in; passwords and tokens never do.
        value: f.kind === 'text' ? typed.get(f.id) : undefined,
        // A pasted token is no password of this site: password managers must not offer to keep it.
        autocomplete: f.kind === 'text' ? 'username' : f.kind === 'password' ? 'current-password' : 'off',
        'aria-describedby': f.hint ? `hint-${f.id}` : undefined,
        autocapitalize: 'off',
        spellcheck: 'false',
      }),
    }));
  // A pasted token is no sign-in of the user's own: the button says what happens next.
  const tokenOnly = fields.length > 0 && fields.every((f) => f.kind === 'token');
  const submit = h('button', { type: 'submit', class: 'primary' }, tokenOnly ? 'Continue' : 'Sign in');
  const form = h(
    'form',
    { novalidate: true },
    ...inputs.flatMap(({ f, hint, input }) => [h('label', { for: input.id }, f.label), hint, input]),
    error ? alertBox(error) : null,
    submit,
    back,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const missing = inputs.find(({ input }) => !input.value);
    if (missing) {
      missing.input.setAttribute('aria-invalid', 'true');
      missing.input.focus();
      return;
    }
    for (const { f, input } of inputs) if (f.kind === 'text') typed.set(f.id, input.value);
    void busy(submit, tokenOnly ? 'Connecting…' : 'Signing in…', async () => {
      const step = await api<SignInStep>('POST', '/signin', {
        institutionId: inst.id,
        credentials: inputs.map(({ f, input }) => ({ id: f.id, value: input.value })),
      } satisfies ConnectSignInBody);
      nextStep(inst, fields, step);
    }).catch(fatal);
  });
  show('signIn', title, { institutionId: inst.id }, institutionHeader(inst), form, testCredentialsNote(inst), uploadInstead(inst));
  (inputs.find(({ input }) => !input.value) ?? inputs[0])?.input.focus();
}

/** Sandbox mode at a test institution: which test users sign in here (from the server), under the form. */
function testCredentialsNote(inst: ConnectInstitution): HTMLElement | null {
  const hint = testCredentials.get(inst.id);
  if (!hint) return null;
  return h(
    'aside',
    { class: 'test-credentials', 'aria-labelledby': 'test-credentials-title' },
    h('h3', { id: 'test-credentials-title' }, 'Test credentials'),
    h('p', {}, hint.note),
    h(
      'ul',
      {},
      hint.users.map((u) =>
        h(
          'li',
          {},
          h('code', {}, u.username),
          // Shown only where it is not the user ID itself (the note says so).
          u.password !== u.username ? [' password ', h('code', {}, u.password)] : null,
          h('span', { class: 'sub muted' }, u.description),
        ),
      ),
    ),
  );
}

/** Opens the institution's sign-in window and waits until the sign-in moved on (the return page completes it). */
async function oauthSignIn(inst: ConnectInstitution): Promise<void> {
  const step = await api<SignInStep>('POST', '/signin', { institutionId: inst.id, credentials: [] } satisfies ConnectSignInBody);
  if (step.step !== 'oauth' || !step.authorizeUrl) return nextStep(inst, [], step);
  let own: Window | null = null;
  // Inside an iframe the SDK opens it (the `url` event); otherwise Connect does.
  if (inIframe && hasSdk()) emit('url', undefined, { url: step.authorizeUrl });
  else own = window.open(step.authorizeUrl, 'institutionSignIn', 'width=600,height=700');
  let closed = false;
  onSdkMessage((m) => {
    if (m.type === 'window' && m.closed) closed = true;
  });
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await api<SignInStep>('GET', `/signin/${step.sessionId}`);
    if (now.step !== 'oauth') {
      emit('closePopup');
      own?.close();
      return nextStep(inst, [], now);
    }
    if (closed || own?.closed) return signInScreen(inst, [], true, 'The sign-in window was closed before you finished. Try again.');
  }
}

function nextStep(inst: ConnectInstitution, fields: ConnectLoginField[], step: SignInStep): void {
  if (step.step === 'mfa') return mfaScreen(inst, fields, step.sessionId, step.challenges);
  if (step.step === 'accounts') return accountsScreen(inst, step.sessionId, step.accounts);
  if (step.step === 'failed') {
    emit('user', { action: 'signInFailed', code: step.code });
    return signInScreen(inst, fields, inst.oauth, step.message);
  }
  fatal(new ApiError(409, 'step', 'This sign-in cannot continue. Start again.'));
}

// ---------- MFA ----------

function mfaScreen(inst: ConnectInstitution, fields: ConnectLoginField[], sessionId: string, challenges: MfaChallenge[]): void {
  const controls = challenges.map((c, i) => {
    const options = c.options ?? [];
    if (options.length > 0) {
      const name = `mfa-${i}`;
      return {
        c,
        read: () => (document.querySelector(`input[name="${name}"]:checked`) as HTMLInputElement | null)?.value ?? '',
        node: h(
          'fieldset',
          {},
          h('legend', {}, c.prompt),
          c.image ? h('img', { class: 'mfa-image', src: c.image, alt: 'Your security image' }) : null,
          ...options.map((o, j) =>
            h(
              'label',
              { class: 'choice', for: `${name}-${j}` },
              h('input', { type: 'radio', id: `${name}-${j}`, name, value: o.value, required: true }),
              o.label,
            ),
          ),
        ),
      };
    }
    const input = h('input', { type: 'text', id: `mfa-${i}`, autocomplete: 'one-time-code', required: true });
    return {
      c,
      read: () => input.value,
      node: h(
        'div',
        {},
        c.image ? h('img', { class: 'mfa-image', src: c.image, alt: 'Security image' }) : null,
        h('label', { for: input.id }, c.prompt),
        input,
      ),
    };
  });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Continue');
  const form = h('form', { novalidate: true }, ...controls.map((x) => x.node), submit);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const answers = controls.map(({ c, read }) => ({ id: c.id, value: read() }));
    if (answers.some((a) => a.value.trim() === '')) {
      form.querySelector('.alert')?.remove();
      submit.before(alertBox('Answer every question to continue.'));
      return;
    }
    void busy(submit, 'Checking…', async () =>
      nextStep(inst, fields, await api<SignInStep>('POST', `/signin/${sessionId}/mfa`, { answers } satisfies ConnectMfaBody)),
    ).catch(fatal);
  });
  show(
    'mfa',
    'Verify it is you',
    { institutionId: inst.id, questions: challenges.length },
    institutionHeader(inst),
    h('p', { class: 'muted' }, `${inst.name} asks a security question.`),
    form,
  );
}

// ---------- account choice ----------

function accountsScreen(inst: ConnectInstitution, sessionId: string, accounts: DiscoveredAccount[]): void {
  if (accounts.length === 0) {
    show(
      'noAccounts',
      'No accounts found',
      {},
      institutionHeader(inst),
      h('p', {}, `${inst.name} shows no accounts for this sign-in, so there is nothing to connect.`),
      session.mode === 'full'
        ? h('button', { type: 'button', class: 'primary', onclick: () => searchScreen() }, 'Choose another institution')
        : h('button', { type: 'button', class: 'primary', onclick: () => void cancel('noAccounts') }, 'Close'),
    );
    return;
  }
  const fix = session.mode === 'fix';
  const boxes = accounts.map((a, i) => ({ a, box: h('input', { type: 'checkbox', id: `account-${i}`, value: a.ref, checked: a.alreadyLinked || !fix }) }));
  const submit = h('button', { type: 'submit', class: 'primary' }, fix ? 'Save' : 'Connect accounts');
  const form = h(
    'form',
    {},
    h(
      'fieldset',
      {},
      h('legend', {}, fix ? 'Your connected accounts' : 'Choose the accounts to share'),
      ...boxes.map(({ a, box }) =>
        h(
          'label',
          { class: 'choice', for: box.id },
          box,
          h('span', { class: 'grow' }, a.name, h('span', { class: 'sub' }, `${a.accountNumberDisplay}${a.alreadyLinked ? ' · already connected' : ''}`)),
          h('span', { class: 'amount' }, money(a.balance, a.currency)),
        ),
      ),
    ),
    submit,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const refs = boxes.filter(({ box }) => box.checked).map(({ box }) => box.value);
    if (refs.length === 0 && !fix) {
      form.querySelector('.alert')?.remove();
      submit.before(alertBox('Choose at least one account.'));
      return;
    }
    void busy(submit, 'Connecting…', () => addAccounts(inst, sessionId, fix ? {} : { accountRefs: refs })).catch(fatal);
  });
  show('accounts', fix ? 'Your accounts' : 'Select accounts', { institutionId: inst.id, accounts: accounts.length }, institutionHeader(inst), form);
}

/**
 * Saves the chosen accounts. An account that may be one the customer already has (14115, from a statement file or
 * another source) is asked about first, and the same accounts are saved again with the answers.
 */
async function addAccounts(inst: ConnectInstitution, sessionId: string, body: ConnectAccountsBody): Promise<void> {
  let result: AddedAccounts;
  try {
    result = await api<AddedAccounts>('POST', `/signin/${sessionId}/accounts`, body);
  } catch (e) {
    const questions = e instanceof ApiError && e.code === '14115' ? (e.details as ErrorDetails | undefined)?.sameAs : undefined;
    if (!questions?.length) throw e;
    const form = sameAccountForm(questions, (sameAs) => addAccounts(inst, sessionId, { ...body, sameAs }), fatal);
    show(
      'sameAccount',
      questions.length === 1 ? 'Is this an account you already connected?' : 'Are these accounts you already connected?',
      { institutionId: inst.id, accounts: questions.length },
      institutionHeader(inst),
      form,
    );
    return;
  }
  added.push(result);
  emit('user', { action: 'accountsAdded', institutionId: inst.id, accounts: result.accounts.length });
  successScreen(result);
}

// ---------- success and the end ----------

function successScreen(result: AddedAccounts | StatementUploaded): void {
  const done = h('button', { type: 'button', class: 'primary', id: 'done' }, 'Done');
  done.addEventListener('click', () => void busy(done, 'Finishing…', () => finish()).catch(fatal));
  const imported = 'transactionsAdded' in result ? result : undefined;
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  show(
    'success',
    imported ? 'Statement imported' : session.mode === 'fix' ? 'Connection repaired' : 'Accounts connected',
    { institutionId: result.institution.id, accounts: result.accounts.length },
    h('div', { class: 'success', 'aria-hidden': 'true' }, '✓'),
    h(
      'p',
      {},
      `${result.institution.name}: ${plural(result.accounts.length, 'account')} ${
        imported ? 'up to date with your file' : session.mode === 'fix' ? 'working again' : 'connected'
      }.`,
    ),
    imported
      ? h(
          'p',
          { class: 'muted' },
          `${plural(imported.transactionsAdded, 'new transaction')} imported${
            imported.transactionsAlreadyPresent > 0 ? `; ${imported.transactionsAlreadyPresent} already here from an earlier file` : ''
          }${
            imported.transactionsMatched > 0
              ? `; ${plural(imported.transactionsMatched, 'transaction')} already here from another source, not counted twice`
              : ''
          }.${imported.mapping?.source === 'saved' ? ' Its columns were read as chosen for an earlier file like it.' : ''}`,
        )
      : null,
    imported && imported.problems.length > 0
      ? h(
          'details',
          { class: 'problems' },
          // Rows that could not be read (with their line) and notes on the whole file, such as how dates were read.
          h('summary', {}, `${plural(imported.problems.length, 'note')} on the file`),
          h('ul', {}, ...imported.problems.map((p) => h('li', {}, p.line !== undefined ? `Line ${p.line}: ${p.message}` : p.message))),
        )
      : null,
    h(
      'ul',
      { class: 'list', 'aria-label': 'Connected accounts' },
      ...result.accounts.map((a) =>
        h(
          'li',
          { class: 'row' },
          h('span', { class: 'grow' }, a.name, h('span', { class: 'sub' }, a.accountNumberDisplay)),
          h('span', {}, money(a.balance, a.currency)),
        ),
      ),
    ),
    borrowerNote(),
    done,
    otherBorrowerButton(),
    session.mode === 'full' ? h('button', { type: 'button', class: 'secondary', onclick: () => searchScreen() }, 'Connect another institution') : null,
  );
}

/**
 * The end of Connect: tells the SDK (`last`, the done or cancel event, which makes the SDK close Connect), then
 * sends the browser to the redirect URI, which is honoured only outside an iframe.
 */
function leave(redirectUri: string | null, query: Record<string, string>, last: () => void): void {
  if (redirectUri && inIframe) {
    // Connect inside an iframe never navigates away; the SDK events say what happened.
    emit('user', { action: 'redirectRefused', reason: 'redirectUri cannot be used when Connect is in an iframe' });
  }
  last();
  if (!redirectUri || inIframe) return;
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  window.location.assign(url.toString());
}

async function finish(): Promise<void> {
  const { redirectUri } = await api<ConnectRedirect>('POST', '/done', { reason: 'done' } satisfies ConnectEndBody);
  finished = true;
  show('done', 'All set', {}, h('div', { class: 'success', 'aria-hidden': 'true' }, '✓'), h('p', {}, 'You can close this window now.'));
  leave(redirectUri, { code: '200', reason: 'done' }, () =>
    emit('done', { code: 200, reason: 'done', reportData: [], institutionLoginIds: added.map((a) => a.institutionLoginId) }),
  );
}

async function cancel(reason: string): Promise<void> {
  if (finished) return;
  finished = true;
  const { redirectUri } = await api<ConnectRedirect>('POST', '/cancel', { reason } satisfies ConnectEndBody).catch(() => ({ redirectUri: null }));
  show('cancelled', 'Connect closed', {}, h('p', {}, 'Nothing more was shared. You can close this window now.'));
  leave(redirectUri, { code: '100', reason }, () => emit('cancel', { code: 100, reason }));
}

// ---------- account management (Full) ----------

async function manageScreen(): Promise<void> {
  let logins: ConnectLogin[];
  try {
    logins = (await api<ConnectLogins>('GET', '/logins')).logins;
  } catch (e) {
    return fatal(e);
  }
  const confirmRemove = (container: HTMLElement, what: string, action: () => Promise<void>) => {
    container.querySelector('.confirm')?.remove();
    const yes = h('button', { type: 'button', class: 'danger' }, `Yes, remove ${what}`);
    yes.addEventListener(
      'click',
      () =>
        void busy(yes, 'Removing…', action)
          .then(() => manageScreen())
          .catch(fatal),
    );
    const box = h(
      'div',
      { class: 'confirm', role: 'group', 'aria-label': `Confirm removing ${what}` },
      h('span', {}, `Remove ${what}? Its data stops being shared.`),
      yes,
      h('button', { type: 'button', class: 'link-button', onclick: () => box.remove() }, 'Keep'),
    );
    container.append(box);
    yes.focus();
  };
  const cards = logins.map((login) => {
    const card = h('section', { class: 'login-card', 'aria-label': login.institution.name });
    card.append(
      h('h3', {}, login.institution.name),
      h('p', { class: 'status-bad', hidden: login.aggregationStatusCode === 0 }, `Needs attention (status ${login.aggregationStatusCode})`),
      h(
        'ul',
        { class: 'list' },
        ...login.accounts.map((a) => {
          const li = h('li', {});
          li.append(
            h(
              'div',
              { class: 'row' },
              h('span', { class: 'grow' }, a.name, h('span', { class: 'sub' }, `${a.accountNumberDisplay} · ${money(a.balance, a.currency)}`)),
              h(
                'button',
                {
                  type: 'button',
                  class: 'danger',
                  'aria-label': `Remove ${a.name}`,
                  onclick: () =>
                    confirmRemove(li, a.name, async () => {
                      await api('DELETE', `/accounts/${a.id}`);
                      emit('user', { action: 'accountDeleted', accountId: a.id });
                    }),
                },
                'Remove',
              ),
            ),
          );
          return li;
        }),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          onclick: () =>
            confirmRemove(card, `all accounts at ${login.institution.name}`, async () => {
              await api('DELETE', `/logins/${login.institutionLoginId}`);
              emit('user', { action: 'institutionLoginDeleted', institutionLoginId: login.institutionLoginId });
            }),
        },
        `Remove all accounts at ${login.institution.name}`,
      ),
    );
    return card;
  });
  show(
    'manage',
    'Connected accounts',
    { logins: logins.length },
    logins.length === 0 ? h('p', { class: 'muted' }, 'No accounts are connected yet.') : null,
    ...cards,
    h('button', { type: 'button', class: 'primary', onclick: () => searchScreen() }, 'Connect an institution'),
    h('button', { type: 'button', class: 'secondary', onclick: () => void finish().catch(fatal) }, 'Done'),
  );
}

// ---------- start ----------

async function start(): Promise<void> {
  (document.getElementById('exit') as HTMLButtonElement).addEventListener('click', () => void cancel('exit'));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !finished) void cancel('exit');
  });
  try {
    session = await api<ConnectSession>('POST', '/session');
  } catch (e) {
    return fatal(e);
  }
  applyBranding(session.experience);
  if (session.mode === 'full') return searchScreen();
  if (session.mode === 'microentry' && session.microEntry) return microEntryScreen({ show, finish, fatal }, session.microEntry);
  const inst = session.institution;
  if (!inst) return fatal(new ApiError(400, 'institution', 'This link names no institution.'));
  await selectInstitution(inst);
}

void start();
