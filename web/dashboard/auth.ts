/** Signed-out pages: sign-in, sign-up, and the credentials shown once after sign-up. */
import { ApiError } from '../shared/api.js';
import type { DashboardSession, DashboardSignedUp, DashboardSignInBody, DashboardSignUpBody } from '../shared/contract.js';
import { api, useCsrfToken } from './api.js';
import { copyButton, field, h, onSubmit } from './ui.js';

const POLICY = '12 to 255 characters: letters, digits and ! @ # $ % & * _ - +, with at least one letter and one digit.';

function authShell(title: string, lead: string, ...content: Node[]): HTMLElement {
  const heading = h('h1', { tabindex: '-1', id: 'page-title' }, title);
  return h(
    'div',
    { class: 'auth' },
    h(
      'header',
      { class: 'auth-brand' },
      h('span', { class: 'logo', 'aria-hidden': 'true' }, 'L'),
      h('span', {}, 'Ledgerlink'),
      h('span', { class: 'muted' }, 'Developer dashboard'),
    ),
    h('main', { id: 'main', class: 'auth-card', tabindex: '-1' }, heading, h('p', { class: 'lead' }, lead), ...content),
  );
}

function input(attrs: Record<string, string | boolean>): HTMLInputElement {
  return h('input', attrs);
}

/** The sign-in page; `notice` says why it is shown (signed out, session expired); `offerSignUp` when the server allows sign-up. */
export function signInPage(onSignedIn: (s: DashboardSession) => void, notice?: string, offerSignUp = true): HTMLElement {
  const partnerId = input({ name: 'partnerId', autocomplete: 'username', inputmode: 'numeric', required: true, spellcheck: 'false' });
  const secret = input({ name: 'partnerSecret', type: 'password', autocomplete: 'current-password', required: true });
  const errors = h('div', { class: 'form-errors' });
  const submit = h('button', { type: 'submit', class: 'button primary wide' }, 'Sign in');
  const form = h(
    'form',
    {
      novalidate: true,
      onsubmit: onSubmit(submit, errors, 'Signing in…', async () => {
        if (!partnerId.value.trim() || !secret.value) {
          (partnerId.value.trim() ? secret : partnerId).focus();
          throw new Error('Enter your partner ID and partner secret.');
        }
        try {
          const session = await api<DashboardSession>('POST', '/signin', {
            partnerId: partnerId.value.trim(),
            partnerSecret: secret.value,
          } satisfies DashboardSignInBody);
          useCsrfToken(session.csrfToken);
          onSignedIn(session);
        } catch (err) {
          secret.value = '';
          secret.focus();
          if (err instanceof ApiError && err.code === '10027')
            throw new Error(
              'This partner is locked after too many failed attempts. Ask the operator to unlock it (ledgerlink partner unlock), or unlock it from a dashboard session that is still open.',
            );
          throw err;
        }
      }),
    },
    errors,
    field('Partner ID', partnerId),
    field('Partner secret', secret),
    submit,
  );
  return authShell(
    'Sign in',
    'Use the partner ID and secret of your Ledgerlink partner.',
    ...(notice ? [h('div', { class: 'notice', role: 'status' }, notice)] : []),
    form,
    ...(offerSignUp ? [h('p', { class: 'switch' }, 'New to Ledgerlink? ', h('a', { href: '#/signup' }, 'Create a Test Drive partner'))] : []),
  );
}

/** The sign-up page: a name and a chosen secret make a Test Drive partner; its credentials are shown next. */
export function signUpPage(onSignedUp: (s: DashboardSignedUp) => void): HTMLElement {
  const name = input({ name: 'name', autocomplete: 'organization', required: true, maxlength: '100' });
  const secret = input({ name: 'partnerSecret', type: 'password', autocomplete: 'new-password', required: true, maxlength: '255' });
  const confirm = input({ name: 'confirmSecret', type: 'password', autocomplete: 'new-password', required: true, maxlength: '255' });
  const errors = h('div', { class: 'form-errors' });
  const submit = h('button', { type: 'submit', class: 'button primary wide' }, 'Create partner');
  const form = h(
    'form',
    {
      novalidate: true,
      onsubmit: onSubmit(submit, errors, 'Creating…', async () => {
        if (!name.value.trim()) {
          name.focus();
          throw new Error('Enter a name for your partner.');
        }
        if (secret.value !== confirm.value) {
          confirm.focus();
          throw new Error('The two secrets differ.');
        }
        const body: DashboardSignUpBody = { name: name.value.trim(), partnerSecret: secret.value };
        const created = await api<DashboardSignedUp>('POST', '/signup', body).catch((err) => {
          secret.focus();
          throw err;
        });
        useCsrfToken(created.csrfToken);
        onSignedUp(created);
      }),
    },
    errors,
    field('Partner name', name, 'Shown in Connect as your application name until you set an experience.'),
    field('Partner secret', secret, POLICY),
    field('Confirm partner secret', confirm),
    submit,
  );
  return authShell(
    'Create a Test Drive partner',
    'Test Drive partners work with testing customers and the test institutions (FinBank).',
    form,
    h('p', { class: 'switch' }, 'Already have a partner? ', h('a', { href: '#/signin' }, 'Sign in')),
  );
}

/** Shown once after sign-up: the new partner's ID and app key, with copy buttons. */
export function welcomePage(created: DashboardSignedUp, onContinue: () => void): HTMLElement {
  const { partnerId } = created.partner;
  return authShell(
    'Your partner is ready',
    'Keep these credentials: the app key can be shown again under Credentials, the secret is the one you chose and is never shown.',
    h(
      'dl',
      { class: 'credentials' },
      h('dt', {}, 'Partner ID'),
      h(
        'dd',
        {},
        h('code', { 'data-testid': 'partner-id' }, partnerId),
        copyButton('Copy partner ID', () => partnerId),
      ),
      h('dt', {}, 'App key'),
      h(
        'dd',
        {},
        h('code', { 'data-testid': 'app-key' }, created.appKey),
        copyButton('Copy app key', () => created.appKey),
      ),
      h('dt', {}, 'Plan'),
      h('dd', {}, 'Test Drive'),
    ),
    h(
      'p',
      { class: 'muted' },
      'Next: exchange these for a token with POST /aggregation/v2/partners/authentication (header Service-App-Key), then add a testing customer.',
    ),
    h('button', { type: 'button', class: 'button primary wide', onclick: onContinue }, 'Go to the dashboard'),
  );
}
