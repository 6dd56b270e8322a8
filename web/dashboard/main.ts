/**
 * The developer dashboard. Signed out: sign-in and sign-up. Signed in: a shell (banner, navigation, main) whose
 * main region shows one page at a time, chosen by the URL fragment (#/credentials, #/customers/ID, ...). Every
 * page reads /dashboard/api; changes carry the session's CSRF token.
 */
import { ApiError } from '../shared/api.js';
import type { DashboardSession, DashboardSettings } from '../shared/contract.js';
import { api, isSignedOut, useCsrfToken, whenSignedOut } from './api.js';
import { signInPage, signUpPage, welcomePage } from './auth.js';
import { credentialsPage } from './credentials.js';
import { customerPage, customersPage } from './customers.js';
import { deliveriesPage } from './deliveries.js';
import { mailPage } from './mail.js';
import { requestsPage } from './requests.js';
import { experiencesPage } from './experiences.js';
import { sandboxPanel } from './sandbox.js';
import { alertBox, badge, h, messageOf, toast } from './ui.js';

const app = document.getElementById('app')!;
let session: DashboardSession | null = null;
/** Stops what the current page runs in the background (polling). */
let stopPage: (() => void) | undefined;

const NAV = [
  { path: '/credentials', label: 'Credentials' },
  { path: '/customers', label: 'Customers' },
  { path: '/requests', label: 'API requests' },
  { path: '/deliveries', label: 'Deliveries' },
  { path: '/mail', label: 'E-mails' },
  { path: '/experiences', label: 'Connect experiences' },
];

function route(): { path: string; params: URLSearchParams } {
  const raw = location.hash.replace(/^#/, '') || '/credentials';
  const [path, query] = raw.split('?');
  return { path: path || '/credentials', params: new URLSearchParams(query ?? '') };
}

async function refreshSession(): Promise<DashboardSession> {
  session = await api<DashboardSession>('GET', '/session');
  useCsrfToken(session.csrfToken);
  return session;
}

function focusTitle(): void {
  (document.getElementById('page-title') as HTMLElement | null)?.focus();
}

/** Whether the server offers sign-up (GET /settings), asked once; when it cannot say, sign-up is not offered. */
let signUpOffered: Promise<boolean> | undefined;
function offersSignUp(): Promise<boolean> {
  signUpOffered ??= api<DashboardSettings>('GET', '/settings').then(
    (s) => s.signUp === true,
    () => false,
  );
  return signUpOffered;
}

const SIGN_UP_OFF = 'Sign-up is turned off on this server. Ask its operator for a partner ID and secret.';

async function showSignedOut(notice?: string): Promise<void> {
  stopPage?.();
  stopPage = undefined;
  session = null;
  const signUp = await offersSignUp();
  const { path } = route();
  if (path === '/signup' && signUp) {
    app.replaceChildren(
      signUpPage((created) => {
        session = created;
        app.replaceChildren(
          welcomePage(created, () => {
            location.hash = '#/credentials';
            void render();
          }),
        );
        document.title = 'Your partner is ready – Ledgerlink dashboard';
        focusTitle();
      }),
    );
    document.title = 'Create a Test Drive partner – Ledgerlink dashboard';
  } else {
    app.replaceChildren(
      signInPage(
        (s) => {
          session = s;
          toast(`Signed in as ${s.partner.name}.`);
          if (route().path === '/signin') location.hash = '#/credentials';
          void render();
        },
        notice ?? (path === '/signup' ? SIGN_UP_OFF : undefined),
        signUp,
      ),
    );
    document.title = 'Sign in – Ledgerlink dashboard';
  }
  focusTitle();
}

function shell(current: string, s: DashboardSession): HTMLElement {
  const signOut = h('button', { type: 'button', class: 'button secondary small' }, 'Sign out');
  signOut.addEventListener('click', async () => {
    try {
      await api('POST', '/signout');
    } catch (e) {
      if (!isSignedOut(e)) return toast(messageOf(e), 'error');
    }
    location.hash = '#/signin';
    void showSignedOut('You are signed out.');
  });
  const main = h('main', { id: 'main', tabindex: '-1', class: 'content' }, h('p', { class: 'muted' }, 'Loading…'));
  return h(
    'div',
    { class: 'shell' },
    h(
      'header',
      { class: 'topbar' },
      h(
        'a',
        { class: 'brand', href: '#/credentials' },
        h('span', { class: 'logo', 'aria-hidden': 'true' }, 'L'),
        h('span', {}, 'Ledgerlink'),
        h('span', { class: 'brand-sub' }, 'Dashboard'),
      ),
      h(
        'div',
        { class: 'who' },
        s.partner.plan === 'testdrive' ? badge('Test Drive', 'info') : badge('Production', 'ok'),
        s.partner.lockedAt !== null ? badge('Locked', 'bad') : null,
        h('span', { class: 'partner-name' }, s.partner.name, h('span', { class: 'sub' }, s.partner.partnerId)),
        signOut,
      ),
    ),
    h(
      'div',
      { class: 'layout' },
      h(
        'nav',
        { class: 'sidenav', 'aria-label': 'Dashboard' },
        h(
          'ul',
          {},
          ...NAV.map((n) =>
            h('li', {}, h('a', { href: `#${n.path}`, 'aria-current': current === n.path || current.startsWith(`${n.path}/`) ? 'page' : undefined }, n.label)),
          ),
        ),
      ),
      main,
    ),
  );
}

async function render(): Promise<void> {
  stopPage?.();
  stopPage = undefined;
  const { path, params } = route();
  if (path === '/signin' || path === '/signup') {
    if (session) location.hash = '#/credentials';
    else return showSignedOut();
  }
  if (!session) {
    try {
      await refreshSession();
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return showSignedOut(e.code === '14101' ? e.message : undefined);
      app.replaceChildren(alertBox(messageOf(e)));
      return;
    }
  }
  const current = route().path;
  app.replaceChildren(shell(current, session!));
  const main = document.getElementById('main')!;
  const title = NAV.find((n) => current === n.path || current.startsWith(`${n.path}/`))?.label ?? 'Not found';
  document.title = `${title} – Ledgerlink dashboard`;
  try {
    const customer = /^\/customers\/([^/]+)$/.exec(current);
    if (current === '/credentials') await credentialsPage(main, refreshSession);
    else if (current === '/customers') await customersPage(main, params);
    else if (customer) await customerPage(main, decodeURIComponent(customer[1]!), (overview, reload) => sandboxPanel(session!, overview, reload));
    else if (current === '/requests') stopPage = await requestsPage(main);
    else if (current === '/deliveries') stopPage = await deliveriesPage(main);
    else if (current === '/mail') await mailPage(main);
    else if (current === '/experiences') await experiencesPage(main);
    else
      main.replaceChildren(
        h('h1', { tabindex: '-1', id: 'page-title' }, 'Page not found'),
        h('p', {}, h('a', { href: '#/credentials' }, 'Back to your credentials')),
      );
  } catch (e) {
    if (isSignedOut(e)) return;
    const notFound = e instanceof ApiError && e.status === 404;
    main.replaceChildren(h('h1', { tabindex: '-1', id: 'page-title' }, notFound ? 'Not found' : 'Something went wrong'), alertBox(messageOf(e)));
  }
  focusTitle();
}

whenSignedOut((message) => {
  if (!session) return;
  void showSignedOut(message);
});
// The skip link moves focus to the main region without touching the fragment, which routes pages.
document.querySelector('.skip-link')?.addEventListener('click', (e) => {
  e.preventDefault();
  document.getElementById('main')?.focus();
});
window.addEventListener('hashchange', () => void render());
void render();
