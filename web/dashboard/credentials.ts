/** Credentials: partner ID, app key (revealed on demand, rotatable), token revocation, secret change, lock state. */
import type { AppKey, DashboardPartner, DashboardSession, SecretChangeBody, TokensRevoked, UnlockBody } from '../shared/contract.js';
import { api } from './api.js';
import { badge, copyButton, dateTime, field, h, inlineConfirm, onSubmit, pageHeader, section, toast, toastAfter, withBusy } from './ui.js';

const MASK = '••••••••••••••••••••••••••••••••';

export async function credentialsPage(main: HTMLElement, refreshSession: () => Promise<DashboardSession>): Promise<void> {
  const session = await refreshSession();
  const { partner } = session;
  main.replaceChildren(
    pageHeader('Credentials', 'What your application sends with every API call: the app key in Service-App-Key, and a token from partner authentication.'),
    identity(partner, session),
    appKeySection(),
    tokensSection(),
    lockSection(partner, () => credentialsPage(main, refreshSession)),
    secretSection(),
  );
}

function identity(partner: DashboardPartner, session: DashboardSession): HTMLElement {
  return section(
    'Partner',
    h(
      'dl',
      { class: 'credentials' },
      h('dt', {}, 'Partner ID'),
      h(
        'dd',
        {},
        h('code', { 'data-testid': 'partner-id' }, partner.partnerId),
        copyButton('Copy partner ID', () => partner.partnerId),
      ),
      h('dt', {}, 'Name'),
      h('dd', {}, partner.name),
      h('dt', {}, 'Plan'),
      h('dd', {}, partner.plan === 'testdrive' ? badge('Test Drive', 'info') : badge('Production', 'ok')),
      h('dt', {}, 'Created'),
      h('dd', {}, dateTime(partner.createdDate)),
      h('dt', {}, 'This session ends'),
      h('dd', {}, dateTime(session.expiresAt)),
    ),
  );
}

function appKeySection(): HTMLElement {
  let key: string | undefined;
  const value = h('code', { 'data-testid': 'app-key', 'aria-live': 'polite' }, MASK);
  const reveal = h('button', { type: 'button', class: 'button small secondary', 'aria-pressed': 'false' }, 'Reveal');
  const fetchKey = async () => (key ??= (await api<AppKey>('GET', '/app-key')).appKey);
  reveal.addEventListener('click', () =>
    withBusy(reveal, 'Loading…', async () => {
      const shown = reveal.getAttribute('aria-pressed') === 'true';
      value.textContent = shown ? MASK : await fetchKey();
      reveal.setAttribute('aria-pressed', String(!shown));
    }).then(() => (reveal.textContent = reveal.getAttribute('aria-pressed') === 'true' ? 'Hide' : 'Reveal')),
  );

  const rotate = h('button', { type: 'button', class: 'button danger' }, 'Rotate app key');
  const confirmArea = inlineConfirm(rotate, {
    label: 'Confirm rotation',
    question: 'The current app key stops working immediately, for every running integration. Rotate?',
    confirm: 'Rotate now',
    busy: 'Rotating…',
    run: async () => {
      key = (await api<AppKey>('POST', '/app-key/rotate')).appKey;
      value.textContent = key;
      reveal.setAttribute('aria-pressed', 'true');
      reveal.textContent = 'Hide';
      toast('App key rotated.');
      return h('div', { class: 'notice ok', role: 'status' }, 'A new app key is in use. The previous key is refused from now on: update your application.');
    },
  });
  return section(
    'App key',
    h('p', { class: 'muted' }, 'Send it as the Service-App-Key header. Keep it out of browsers and source control.'),
    h('div', { class: 'key-row' }, value, reveal, copyButton('Copy app key', fetchKey)),
    h('div', { class: 'row-actions' }, rotate),
    confirmArea,
  );
}

function tokensSection(): HTMLElement {
  const revoke = h('button', { type: 'button', class: 'button danger' }, 'Revoke all tokens');
  const confirmArea = inlineConfirm(revoke, {
    label: 'Confirm revocation',
    question: 'Every API token of this partner stops working immediately, for every running integration. Revoke?',
    confirm: 'Revoke now',
    busy: 'Revoking…',
    run: async () => {
      const { revoked } = await api<TokensRevoked>('POST', '/tokens/revoke');
      toast('API tokens revoked.');
      return h(
        'div',
        { class: 'notice ok', role: 'status', 'data-testid': 'tokens-revoked' },
        `${revoked} token${revoked === 1 ? '' : 's'} revoked. Every earlier token is refused from now on: your application authenticates again for a new one.`,
      );
    },
  });
  return section(
    'API tokens',
    h(
      'p',
      { class: 'muted' },
      'Tokens come from partner authentication and live two hours. Changing the secret or rotating the app key leaves them valid; if a token may have leaked, revoke them all here.',
    ),
    h('div', { class: 'row-actions' }, revoke),
    confirmArea,
  );
}

function lockSection(partner: DashboardPartner, reload: () => Promise<void>): HTMLElement {
  if (partner.lockedAt === null) {
    return section(
      'Lock state',
      h(
        'p',
        {},
        badge('Active', 'ok'),
        ' ',
        partner.failedAuthentications === 0
          ? 'No failed authentications since the last success.'
          : `${partner.failedAuthentications} failed authentication${partner.failedAuthentications === 1 ? '' : 's'} since the last success; the partner locks at 5.`,
      ),
    );
  }
  const secret = h('input', { type: 'password', autocomplete: 'current-password', required: true });
  const errors = h('div', {});
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Unlock partner');
  return section(
    'Lock state',
    h(
      'p',
      {},
      badge('Locked', 'bad'),
      ` since ${dateTime(partner.lockedAt)} after ${partner.failedAuthentications} failed authentications. Every authentication is refused; tokens issued before the lock keep working.`,
    ),
    h(
      'form',
      {
        class: 'inline-form',
        onsubmit: onSubmit(submit, errors, 'Unlocking…', async () => {
          await api('POST', '/unlock', { partnerSecret: secret.value } satisfies UnlockBody);
          await toastAfter(reload, 'Partner unlocked.');
        }),
      },
      errors,
      field('Current partner secret', secret, 'Proves it is you: a session alone cannot lift a lock.'),
      submit,
    ),
  );
}

function secretSection(): HTMLElement {
  const current = h('input', { type: 'password', autocomplete: 'current-password', required: true });
  const next = h('input', { type: 'password', autocomplete: 'new-password', required: true });
  const errors = h('div', {});
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Change secret');
  const form = h(
    'form',
    {
      class: 'inline-form',
      onsubmit: onSubmit(submit, errors, 'Changing…', async () => {
        await api('POST', '/secret', { partnerSecret: current.value, newPartnerSecret: next.value } satisfies SecretChangeBody);
        form.reset();
        toast('Partner secret changed. Other dashboard sessions were signed out; API tokens stay valid.');
      }),
    },
    errors,
    field('Current secret', current),
    field('New secret', next, '12 to 255 characters: letters, digits and ! @ # $ % & * _ - +, at least one letter and one digit.'),
    submit,
  );
  return section('Partner secret', h('p', { class: 'muted' }, 'A wrong current secret counts towards the lock-out, as in API authentication.'), form);
}
