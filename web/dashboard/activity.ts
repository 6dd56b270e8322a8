/** Activity: the live log of API requests, deliveries with their attempts, and the local mailbox. */
import type { Delivery, DeliveryList, Mailbox, RequestLog, RequestLogEntry } from '../shared/contract.js';
import { api } from './api.js';
import { badge, dateTime, emptyState, h, messageOf, pageHeader, section, statusTone, toast, withBusy } from './ui.js';

const POLL_MS = 2000;

/** Repeats `work` every interval until the returned stop function runs; failures are reported once. */
function poll(work: () => Promise<void>, interval = POLL_MS): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failed = false;
  const tick = async () => {
    try {
      await work();
      failed = false;
    } catch (e) {
      if (!failed) toast(messageOf(e), 'error');
      failed = true;
    }
    if (!stopped) timer = setTimeout(tick, interval);
  };
  timer = setTimeout(tick, interval);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

function requestRow(r: RequestLogEntry): HTMLTableRowElement {
  return h(
    'tr',
    {},
    h('td', {}, new Date(r.at).toLocaleTimeString('en-US')),
    h('td', {}, h('span', { class: 'method' }, r.method)),
    h('td', { class: 'path' }, r.path),
    h('td', {}, badge(String(r.status), statusTone(r.status))),
    h('td', { class: 'num' }, `${r.latencyMs.toFixed(1)} ms`),
    h('td', {}, r.errorCode ?? '—'),
  );
}

/** The live log: newest first, new requests added on top every two seconds while the page is open. */
export async function requestsPage(main: HTMLElement): Promise<() => void> {
  const first = (await api<RequestLog>('GET', '/requests?limit=100')).requests;
  let lastId = first[0]?.id ?? 0;
  let paused = false;
  const body = h('tbody', {}, ...first.map(requestRow));
  const empty = emptyState('No API requests yet.', "Calls your application makes with this partner's app key and token appear here within seconds.");
  const tableEl = h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'log' },
      h('caption', { class: 'visually-hidden' }, 'API requests, newest first'),
      h('thead', {}, h('tr', {}, ...['Time', 'Method', 'Path', 'Status', 'Latency', 'Error code'].map((t) => h('th', { scope: 'col' }, t)))),
      body,
    ),
  );
  const live = h('span', { class: 'live', 'aria-live': 'off' }, h('span', { class: 'dot', 'aria-hidden': 'true' }), 'Live');
  const pause = h('button', { type: 'button', class: 'button secondary small', 'aria-pressed': 'false' }, 'Pause');
  pause.addEventListener('click', () => {
    paused = !paused;
    pause.setAttribute('aria-pressed', String(paused));
    pause.textContent = paused ? 'Resume' : 'Pause';
    live.classList.toggle('paused', paused);
    live.lastChild!.textContent = paused ? 'Paused' : 'Live';
  });
  const holder = h('div', { class: 'card' }, first.length ? tableEl : empty);
  main.replaceChildren(
    pageHeader('API requests', 'Every call made with your credentials: method, path, status, latency and error code. Kept for seven days.', live, pause),
    holder,
  );
  return poll(async () => {
    if (paused) return;
    const fresh = (await api<RequestLog>('GET', `/requests?afterId=${lastId}&limit=500`)).requests;
    if (fresh.length === 0) return;
    lastId = fresh[fresh.length - 1]!.id;
    if (!holder.contains(tableEl)) holder.replaceChildren(tableEl);
    body.prepend(...fresh.reverse().map(requestRow));
    while (body.rows.length > 500) body.lastElementChild!.remove();
  });
}

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

/** The local mailbox: e-mail kept instead of sent when no SMTP server is configured. */
export async function mailPage(main: HTMLElement): Promise<void> {
  const messages = (await api<Mailbox>('GET', '/mail?limit=50')).messages;
  main.replaceChildren(
    pageHeader('E-mails', 'Messages Ledgerlink kept in its local mailbox (no SMTP_URL set), such as Connect e-mails.'),
    section(
      'Mailbox',
      messages.length === 0
        ? emptyState(
            'The mailbox is empty.',
            h('span', {}, 'Send a Connect e-mail with ', h('code', {}, 'POST /connect/v2/send/email'), ' and it appears here.'),
          )
        : h(
            'div',
            { class: 'mail-list' },
            ...messages.map((m) =>
              h(
                'details',
                { class: 'mail' },
                h('summary', {}, h('strong', {}, m.subject), h('span', { class: 'muted' }, ` to ${m.to} · ${dateTime(m.createdAt)}`)),
                h(
                  'dl',
                  { class: 'details compact' },
                  h('dt', {}, 'From'),
                  h('dd', {}, m.from),
                  h('dt', {}, 'To'),
                  h('dd', {}, m.to),
                  h('dt', {}, 'Event'),
                  h('dd', {}, h('code', {}, m.eventId)),
                ),
                h('pre', { class: 'mail-body', tabindex: '0', 'aria-label': `Text of ${m.subject}` }, m.text),
              ),
            ),
          ),
    ),
  );
}
