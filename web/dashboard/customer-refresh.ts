/**
 * An institution login's refresh in sight on a customer's page: the last attempt and success, the next scheduled
 * refresh (or why there is none), the failures in a row, the source, and a Refresh button that refreshes it now
 * (as the API's Refresh Customer Accounts by Institution Login) and says how it went.
 */
import type { DashboardInstitutionLogin, DashboardLoginStatus } from '../shared/contract.js';
import { api } from './api.js';
import type { Reload } from './customers.js';
import { badge, dateTime, h, toastAfter, withBusy } from './ui.js';
import './customer-refresh.css';

const SOURCES: Record<DashboardLoginStatus['source'], string> = {
  testbank: 'Test bank',
  simplefin: 'SimpleFIN',
  ofx: 'OFX Direct Connect',
  enablebanking: 'Enable Banking',
  statementFile: 'Statement files',
  none: 'No source any more',
};

/** When the scheduled refresh runs next, or why it does not. */
function nextRefresh(s: DashboardLoginStatus): HTMLElement | string {
  switch (s.refreshSchedule) {
    case 'scheduled':
      return dateTime(s.nextRefreshDate);
    case 'retrying':
      return h('span', {}, dateTime(s.nextRefreshDate), ' ', badge('retrying', 'warn'));
    case 'waitingForUser':
      return 'None: waits for the user to sign in again (Fix link)';
    case 'off':
      return 'None: scheduled refresh is off on this server';
    default:
      return s.source === 'statementFile' ? 'None: upload a newer statement file' : 'None: refreshed when asked';
  }
}

/** What a finished refresh says, for the toast and the line under the button. */
function outcome(s: DashboardLoginStatus): string {
  return s.aggregationStatusCode === 0
    ? `Login ${s.institutionLoginId} refreshed.`
    : `Login ${s.institutionLoginId}: the refresh failed with ${s.aggregationStatusCode}${s.aggregationStatusMessage ? ` (${s.aggregationStatusMessage})` : ''}.`;
}

export function loginRefreshPanel(customerId: string, login: DashboardInstitutionLogin, reload: Reload): HTMLElement {
  const s = login.status;
  const id = `refresh-${login.institutionLoginId}`;
  const progress = h('p', { class: 'muted refresh-progress', role: 'status', id: `${id}-progress` });
  const button = h('button', { type: 'button', class: 'button secondary small', id, 'aria-describedby': progress.id }, 'Refresh now');
  // A statement-file login has nothing to ask: a newer file is its refresh.
  if (s.source === 'statementFile' || s.source === 'none') button.hidden = true;
  if (s.refreshInProgress) progress.textContent = 'A refresh of this login is running.';
  button.addEventListener('click', () =>
    withBusy(button, 'Refreshing…', async () => {
      progress.textContent = `Refreshing login ${login.institutionLoginId} at ${login.institution.name}…`;
      try {
        const done = await api<DashboardLoginStatus>(
          'POST',
          `/customers/${encodeURIComponent(customerId)}/institutionLogins/${encodeURIComponent(String(login.institutionLoginId))}/refresh`,
        );
        await toastAfter(() => reload(id), outcome(done), done.aggregationStatusCode === 0 ? 'ok' : 'error');
      } catch (e) {
        progress.textContent = '';
        throw e;
      }
    }),
  );
  const row = (term: string, value: HTMLElement | string) => [h('dt', {}, term), h('dd', {}, value)];
  return h(
    'div',
    { class: 'login-refresh', role: 'group', 'aria-label': `Refresh of login ${login.institutionLoginId}` },
    h(
      'dl',
      { class: 'details refresh-details' },
      ...row('Source', SOURCES[s.source]),
      ...row('Last attempt', dateTime(s.aggregationAttemptDate)),
      ...row('Last success', dateTime(s.aggregationSuccessDate)),
      ...row('Next refresh', nextRefresh(s)),
      ...row('Failures in a row', String(s.consecutiveFailures)),
    ),
    h('div', { class: 'refresh-actions' }, button, progress),
  );
}
