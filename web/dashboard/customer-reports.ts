/**
 * The customer's reports (docs/reports.md), newest first: type, status, when asked for, and links to open each as
 * a PDF or as JSON. Reports are generated through the API.
 */
import type { DashboardCustomerReports, DashboardReportSummary } from '../shared/contract.js';
import { api } from './api.js';
import { badge, dateTime, emptyState, h, messageOf, section, table } from './ui.js';

const TONES: Record<string, 'ok' | 'bad' | 'info'> = { success: 'ok', failure: 'bad', inProgress: 'info' };
const LABELS: Record<string, string> = { success: 'Success', failure: 'Failed', inProgress: 'In progress' };

function row(customerId: string, r: DashboardReportSummary) {
  const href = (format: string) => `/dashboard/api/customers/${encodeURIComponent(customerId)}/reports/${encodeURIComponent(r.id)}?format=${format}`;
  return [
    h('code', {}, r.id),
    r.type,
    badge(LABELS[r.status] ?? r.status, TONES[r.status] ?? 'info'),
    dateTime(r.createdDate),
    h(
      'span',
      {},
      h('a', { href: href('pdf'), target: '_blank', rel: 'noopener', 'aria-label': `Report ${r.id} as PDF` }, 'PDF'),
      ' · ',
      h('a', { href: href('json'), target: '_blank', rel: 'noopener', 'aria-label': `Report ${r.id} as JSON` }, 'JSON'),
    ),
  ];
}

export async function reportsSection(customerId: string): Promise<HTMLElement> {
  let body: HTMLElement;
  try {
    const { reports } = await api<DashboardCustomerReports>('GET', `/customers/${encodeURIComponent(customerId)}/reports`);
    body =
      reports.length > 0
        ? table(
            'Reports',
            ['Report', 'Type', 'Status', 'Asked for', 'Open'],
            reports.map((r) => row(customerId, r)),
            { hideCaption: true },
          )
        : emptyState(
            'No reports yet.',
            h('span', {}, 'Generate one with the API, e.g. ', h('code', {}, `POST /decisioning/v2/customers/${customerId}/voa`), '.'),
          );
  } catch (e) {
    body = h('p', { class: 'muted' }, messageOf(e));
  }
  return section('Reports', body);
}
