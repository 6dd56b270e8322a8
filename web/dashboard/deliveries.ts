/** Deliveries: TxPUSH notifications, Connect webhooks and e-mails with every attempt, and redelivery. */
import type { Delivery, DeliveryList } from '../shared/contract.js';
import { api } from './api.js';
import { badge, dateTime, emptyState, h, pageHeader, poll, section, statusTone, toast, withBusy } from './ui.js';

function deliveryStatus(d: Delivery): HTMLElement {
  const tone = d.status === 'delivered' ? 'ok' : d.status === 'pending' ? 'warn' : 'neutral';
  return badge(d.status, tone);
}

const KIND: Record<Delivery['kind'], string> = { txpush: 'TxPUSH', webhook: 'Connect webhook', email: 'E-mail' };

function deliveryCard(d: Delivery, onRedeliver: (d: Delivery, button: HTMLButtonElement) => void): HTMLElement {
  const redeliver = h('button', { type: 'button', class: 'button secondary small', 'aria-label': `Redeliver delivery ${d.id}` }, 'Redeliver');
  redeliver.addEventListener('click', () => onRedeliver(d, redeliver));
  const attemptsId = `attempts-${d.id}`;
  const attempts =
    d.attempts.length === 0
      ? h('p', { class: 'muted', id: attemptsId }, d.status === 'pending' ? `No attempt yet; due ${dateTime(d.nextAttemptAt)}.` : 'No attempts.')
      : h(
          'ol',
          { class: 'attempts', id: attemptsId, 'aria-label': `Attempts of delivery ${d.id}` },
          ...d.attempts.map((a, i) =>
            h(
              'li',
              {},
              h('span', { class: 'attempt-n' }, `#${i + 1}`),
              dateTime(a.attemptedAt),
              ' ',
              badge(a.statusCode === null ? 'no answer' : String(a.statusCode), statusTone(a.statusCode)),
              h('span', { class: 'muted' }, ` ${Math.round(a.latencyMs)} ms`),
              a.error ? h('span', { class: 'attempt-error' }, ` ${a.error}`) : null,
            ),
          ),
        );
  return h(
    'article',
    { class: 'delivery', 'data-delivery-id': String(d.id), 'aria-labelledby': `delivery-${d.id}` },
    h(
      'div',
      { class: 'delivery-head' },
      h('h3', { id: `delivery-${d.id}` }, `${KIND[d.kind] ?? d.kind} #${d.id}`),
      deliveryStatus(d),
      h('span', { class: 'muted attempts-count' }, `${d.attempts.length} attempt${d.attempts.length === 1 ? '' : 's'}`),
      h('span', { class: 'grow' }),
      redeliver,
    ),
    h(
      'dl',
      { class: 'details compact' },
      h('dt', {}, 'Event'),
      h('dd', {}, h('code', {}, d.eventId)),
      h('dt', {}, 'Target'),
      h('dd', { class: 'path' }, d.target),
      h('dt', {}, 'Created'),
      h('dd', {}, dateTime(d.createdAt)),
      d.customerId ? h('dt', {}, 'Customer') : null,
      d.customerId ? h('dd', {}, h('a', { href: `#/customers/${d.customerId}` }, String(d.customerId))) : null,
    ),
    attempts,
  );
}

/** Deliveries with their attempts, refreshed every two seconds, each with a Redeliver button. */
export async function deliveriesPage(main: HTMLElement): Promise<() => void> {
  const list = h('div', { class: 'deliveries' });
  let signature = '';
  const render = async () => {
    const deliveries = (await api<DeliveryList>('GET', '/deliveries?limit=50')).deliveries;
    const now = JSON.stringify(deliveries);
    if (now === signature) return;
    signature = now;
    const focusedId = (document.activeElement as HTMLElement | null)?.closest?.('[data-delivery-id]')?.getAttribute('data-delivery-id');
    list.replaceChildren(
      ...(deliveries.length === 0
        ? [emptyState('No deliveries yet.', 'TxPUSH notifications, Connect webhooks and Connect e-mails your partner triggers appear here with every attempt.')]
        : deliveries.map((d) => deliveryCard(d, redeliver))),
    );
    // Keep keyboard focus on the delivery it was in when the list redraws.
    if (focusedId) (list.querySelector(`[data-delivery-id="${focusedId}"] button`) as HTMLElement | null)?.focus();
  };
  const redeliver = (d: Delivery, button: HTMLButtonElement) =>
    void withBusy(button, 'Queuing…', async () => {
      await api('POST', `/deliveries/${d.id}/redeliver`);
      toast(`Delivery #${d.id} queued for redelivery.`);
      signature = '';
      await render();
    });
  await render();
  main.replaceChildren(
    pageHeader('Deliveries', 'TxPUSH notifications, Connect webhooks and e-mails, with every attempt. Redelivery sends the same event id again.'),
    section('Recent deliveries', list),
  );
  return poll(render);
}
