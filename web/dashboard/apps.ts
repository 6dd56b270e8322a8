/** App registrations: the partner's apps for OAuth institutions and where each stands. */
import type { DashboardApp, DashboardApps } from '../shared/contract.js';
import { api } from './api.js';
import { badge, dateTime, emptyState, h, pageHeader, section, table } from './ui.js';

type Tone = 'ok' | 'warn' | 'bad' | 'neutral';

const STATUS: Record<string, [string, Tone]> = {
  A: ['Approved', 'ok'],
  P: ['Pending', 'warn'],
  R: ['Rejected', 'bad'],
};

/** Where a registration stands, in words: approved, rejected with its note, or pending and who decides. */
function standing(app: DashboardApp, list: DashboardApps): HTMLElement {
  const [label, tone]: [string, Tone] = STATUS[app.status] ?? [app.status, 'neutral'];
  const why =
    app.status === 'P'
      ? list.mode === 'sandbox' && app.approvesAt !== null
        ? `Approved by itself at ${dateTime(app.approvesAt)} (sandbox).`
        : `Waits for the operator: ledgerlink apps approve ${app.preAppId}`
      : (app.note ?? '');
  return h('span', { class: 'app-status' }, badge(label, tone), why ? h('span', { class: 'muted' }, ` ${why}`) : '');
}

/** The partner's app registrations, oldest first. */
export async function appsPage(main: HTMLElement): Promise<void> {
  const list = await api<DashboardApps>('GET', '/apps');
  main.replaceChildren(
    pageHeader(
      'App registrations',
      'Apps registered for OAuth institutions (POST /aggregation/v1/partners/applications): their status, application id, and the customers and institution logins assigned to each.',
    ),
    section(
      'Apps',
      list.apps.length === 0
        ? emptyState(
            'No app is registered yet.',
            h('span', {}, 'Register one with ', h('code', {}, 'POST /aggregation/v1/partners/applications'), ' and it appears here.'),
          )
        : table(
            'App registrations of the partner',
            ['Pre-app id', 'App', 'Status', 'Application id', 'Submitted', 'Customers', 'Logins'],
            list.apps.map((a) => [
              String(a.preAppId),
              h('strong', {}, a.name),
              standing(a, list),
              a.applicationId ? h('code', { class: 'path' }, a.applicationId) : '—',
              dateTime(a.submittedAt),
              String(a.customers),
              String(a.institutionLogins),
            ]),
            { hideCaption: true },
          ),
    ),
  );
}
