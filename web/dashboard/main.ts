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
import { ownBankPage } from './own-bank.js';
import { requestsPage } from './requests.js';
import { rulesPage } from './rules.js';
import { experiencesPage } from './experiences.js';
import { appsPage } from './apps.js';
import { sandboxPanel } from './sandbox.js';
import { alertBox, badge, claimMain, h, messageOf, scrollRegion, toast } from './ui.js';

const app = document.getElementById('app')!;
let session: DashboardSession | null = null;
/** Stops what the current page runs in the background (polling). */
let stopPage: (() => void) | undefined;

/** What a page is given; it may hand back a function that stops what it runs in the background (polling). */
type Page = (main: HTMLElement, params: URLSearchParams) => Promise<unknown>;
/** A page of one item below a page's path: given the rest of the path (`/customers/ID` gives ID). */
type SubPage = (main: HTMLElement, params: URLSearchParams, id: string) => Promise<unknown>;
const stopOf = (handed: unknown) => (typeof handed === 'function' ? (handed as () => void) : undefined);

/**
 * The pages, in the navigation's order: a new page is its module and a row here. A page's path also serves the
 * paths below it (`/customers/ID`, through `sub`).
 */
const NAV: { path: string; label: string; page: Page; sub?: SubPage }[] = [
  { path: '/credentials', label: 'Credentials', page: (main) => credentialsPage(main, refreshSession) },
  {
    path: '/customers',
    label: 'Customers',
    page: (main, params) => customersPage(main, params),
    sub: (main, params, id) => customerPage(main, decodeURIComponent(id), params, (overview, reload) => sandboxPanel(session!, overview, reload)),
  },
  { path: '/own-bank', label: 'Your own bank data', page: (main) => ownBankPage(main) },
  { path: '/rules', label: 'Rules', page: (main, params) => rulesPage(main, params) },
  { path: '/requests', label: 'API requests', page: (main) => requestsPage(main) },
  { path: '/deliveries', label: 'Deliveries', page: (main) => deliveriesPage(main) },
  { path: '/mail', label: 'E-mails', page: (main) => mailPage(main) },
  { path: '/experiences', label: 'Connect experiences', page: (main) => experiencesPage(main) },
  { path: '/apps', label: 'App registrations', page: (main) => appsPage(main) },
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
  frame = null;
  document.body.append(toasts);
  document.documentElement.style.removeProperty('--header-height');
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

/** The toasts' live region (index.html): in the shell's header while signed in, back at the end of the body otherwise. */
const toasts = document.getElementById('toasts')!;

/** The signed-in frame, built once per session and kept across pages, so the live region and header stay put. */
interface Shell {
  root: HTMLElement;
  main: HTMLElement;
  /** Marks the current page in the navigation, closes the menu, and redraws what the header says of the partner. */
  show(current: string, s: DashboardSession): void;
}
let frame: { partnerId: string; shell: Shell } | null = null;

function planBadges(s: DashboardSession): HTMLElement[] {
  return [
    s.partner.plan === 'testdrive' ? badge('Test Drive', 'info') : badge('Production', 'ok'),
    ...(s.partner.lockedAt !== null ? [badge('Locked', 'bad')] : []),
  ];
}

function buildShell(): Shell {
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
  const links = NAV.map((n) => ({ path: n.path, a: h('a', { href: `#${n.path}` }, n.label) }));
  const nav = h('nav', { class: 'sidenav', id: 'sidenav', 'aria-label': 'Dashboard' }, h('ul', {}, ...links.map((l) => h('li', {}, l.a))));
  const navMeta = h('div', { class: 'nav-meta' });
  nav.prepend(navMeta);
  // On narrow screens the navigation folds behind this button; on wide ones it is hidden and the navigation shows.
  const menu = h(
    'button',
    { type: 'button', class: 'button secondary small menu-toggle', 'aria-expanded': 'false', 'aria-controls': 'sidenav' },
    h('span', { class: 'menu-icon', 'aria-hidden': 'true' }),
    'Menu',
  );
  const setOpen = (open: boolean) => {
    menu.setAttribute('aria-expanded', String(open));
    nav.classList.toggle('open', open);
  };
  menu.addEventListener('click', () => setOpen(menu.getAttribute('aria-expanded') !== 'true'));
  nav.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && nav.classList.contains('open')) {
      setOpen(false);
      menu.focus();
    }
  });
  const who = h('div', { class: 'who' });
  const header = h(
    'header',
    { class: 'topbar' },
    h(
      'a',
      { class: 'brand', href: '#/credentials' },
      h('span', { class: 'logo', 'aria-hidden': 'true' }, 'L'),
      h('span', {}, 'Ledgerlink'),
      h('span', { class: 'brand-sub' }, 'Dashboard'),
    ),
    toasts,
    who,
    menu,
  );
  const root = h('div', { class: 'shell' }, header, h('div', { class: 'layout' }, nav, main));
  // Focus moves and in-page scrolling stop below the header, however tall its toasts make it (styles.css).
  new ResizeObserver(() => document.documentElement.style.setProperty('--header-height', `${header.offsetHeight}px`)).observe(header);
  // Any table box that ends up scrolling sideways (a wide table on a narrow screen) becomes reachable by keyboard.
  new MutationObserver(() => {
    for (const wrap of main.querySelectorAll<HTMLElement>('.table-wrap:not([data-scroll-watched])')) scrollRegion(wrap);
  }).observe(main, { childList: true, subtree: true });
  return {
    root,
    main,
    show(current, s) {
      for (const l of links) {
        if (current === l.path || current.startsWith(`${l.path}/`)) l.a.setAttribute('aria-current', 'page');
        else l.a.removeAttribute('aria-current');
      }
      setOpen(false);
      who.replaceChildren(
        ...planBadges(s).map((b) => (b.classList.add('header-badge'), b)),
        h('span', { class: 'partner-name' }, s.partner.name, h('span', { class: 'sub' }, s.partner.partnerId)),
        signOut,
      );
      navMeta.replaceChildren(h('span', { class: 'nav-partner' }, s.partner.name, h('span', { class: 'sub' }, s.partner.partnerId)), ...planBadges(s));
    },
  };
}

async function render(): Promise<void> {
  // A draw of the page before (a redraw after an action still waiting for its data) no longer shows when it ends.
  claimMain();
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
  if (frame?.partnerId !== session!.partner.partnerId) {
    frame = { partnerId: session!.partner.partnerId, shell: buildShell() };
    app.replaceChildren(frame.shell.root);
  }
  frame.shell.show(current, session!);
  const main = frame.shell.main;
  main.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  const title = NAV.find((n) => current === n.path || current.startsWith(`${n.path}/`))?.label ?? 'Not found';
  document.title = `${title} – Ledgerlink dashboard`;
  try {
    const page = NAV.find((n) => n.path === current);
    const below = NAV.find((n) => n.sub && current.startsWith(`${n.path}/`) && !current.slice(n.path.length + 1).includes('/'));
    if (page) stopPage = stopOf(await page.page(main, params));
    else if (below) stopPage = stopOf(await below.sub!(main, params, current.slice(below.path.length + 1)));
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
