/**
 * The customer's consumer (docs/consumers.md), read-only: the person reports name, as the API answers it (the SSN as
 * its last four digits). Consumers are created and changed through the API.
 */
import type { DashboardConsumer, DashboardCustomerConsumer } from '../shared/contract.js';
import { api } from './api.js';
import { dateTime, emptyState, h, messageOf, section } from './ui.js';

const or = (value: string | undefined) => (value ? value : '—');

function birthday(b: DashboardConsumer['birthday']): string {
  if (b.year === undefined || b.month === undefined || b.dayOfMonth === undefined) return '—';
  return `${b.year}-${String(b.month).padStart(2, '0')}-${String(b.dayOfMonth).padStart(2, '0')}`;
}

function details(c: DashboardConsumer): HTMLElement {
  const name = [c.firstName, c.lastName, c.suffix].filter(Boolean).join(' ');
  const address = [c.address, c.city, [c.state, c.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const rows: [string, string][] = [
    ['Consumer', c.id],
    ['Name', name],
    ['Address', address],
    ['Phone', or(c.phone)],
    ['E-mail', or(c.email)],
    ['SSN', c.ssn ? `ending ${c.ssn}` : '—'],
    ['Birthday', birthday(c.birthday)],
    ['Created', dateTime(c.createdDate)],
  ];
  if (c.endUser) rows.push(['Reports’ end user', [c.endUser.name, c.endUser.city, c.endUser.state].join(', ')]);
  return h('dl', { class: 'details', id: 'consumer-details' }, ...rows.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]));
}

export async function consumerSection(customerId: string): Promise<HTMLElement> {
  let body: HTMLElement;
  try {
    const { consumer } = await api<DashboardCustomerConsumer>('GET', `/customers/${encodeURIComponent(customerId)}/consumer`);
    body = consumer
      ? details(consumer)
      : emptyState('No consumer yet.', h('span', {}, 'Create one with the API: ', h('code', {}, `POST /decisioning/v1/customers/${customerId}/consumer`), '.'));
  } catch (e) {
    body = h('p', { class: 'muted' }, messageOf(e));
  }
  return section('Consumer', body);
}
