/**
 * Download links of a customer's transactions in each export format (docs/exports.md): of every account, or of the
 * one the transactions section shows. Plain links to the dashboard's export routes, so the browser saves the file as
 * it streams, whatever its size.
 */
import { DASHBOARD_EXPORT_FORMATS, DASHBOARD_EXPORT_LABELS, type DashboardAccount } from '../shared/contract.js';
import { h } from './ui.js';

export function exportLinks(customerId: string, accounts: DashboardAccount[]): { el: HTMLElement; show(accountId: string): void } {
  const el = h('div', { class: 'downloads', role: 'group', 'aria-labelledby': 'downloads-label' });
  const show = (accountId: string) => {
    const account = accounts.find((a) => a.id === accountId);
    const base = `/dashboard/api/customers/${encodeURIComponent(customerId)}${account ? `/accounts/${encodeURIComponent(account.id)}` : ''}/export`;
    const what = account ? `${account.name} (${account.id})` : 'all accounts';
    el.replaceChildren(
      h('span', { class: 'downloads-label', id: 'downloads-label' }, account ? 'Export this account' : 'Export all accounts'),
      h(
        'span',
        { class: 'download-links' },
        ...DASHBOARD_EXPORT_FORMATS.map((format, i) =>
          h(
            'a',
            { class: 'button secondary small', href: `${base}?format=${format}`, download: true, 'aria-label': `${DASHBOARD_EXPORT_LABELS[i]} of ${what}` },
            DASHBOARD_EXPORT_LABELS[i]!,
          ),
        ),
      ),
    );
  };
  show('');
  return { el, show };
}
