/**
 * Deliveries: TxPUSH notifications, Connect webhooks and e-mails with their state, event type, payload, last answer and
 * every attempt; `ledgerlink listen` copies under the delivery they copy; filters by state, event type and target;
 * redelivery.
 */
import './deliveries.css';
import type { Delivery, DeliveryCopy, DeliveryList, DeliveryState } from '../shared/contract.js';
import { api } from './api.js';
import { badge, dateTime, emptyState, h, pageHeader, poll, section, statusTone, toastAfter, withBusy } from './ui.js';

const STATES: { value: DeliveryState; label: string; tone: 'ok' | 'warn' | 'bad' | 'neutral' | 'info' }[] = [
  { value: 'pending', label: 'Pending', tone: 'info' },
  { value: 'retrying', label: 'Retrying', tone: 'warn' },
  { value: 'failed', label: 'Failed', tone: 'bad' },
  { value: 'delivered', label: 'Delivered', tone: 'ok' },
  { value: 'cancelled', label: 'Cancelled', tone: 'neutral' },
];

const KIND: Record<Delivery['kind'], string> = { txpush: 'TxPUSH', webhook: 'Connect webhook', email: 'E-mail' };

interface Filters {
  state: string;
  eventType: string;
  target: string;
}

// Kept for the whole visit, so the filters stay as chosen while the list refreshes and when coming back to the page.
const chosen: Filters = { state: '', eventType: '', target: '' };

function stateBadge(state: DeliveryState): HTMLElement {
  const s = STATES.find((x) => x.value === state);
  return badge(state, s?.tone ?? 'neutral');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Where a `listen` copy went, in a few words: the listener's host and port, or the number of one that polls. */
function listenLabel(target: string): string {
  try {
    const url = new URL(target);
    if (url.protocol === 'http:' || url.protocol === 'https:') return `listen ${url.host}`;
    if (url.protocol === 'listen:') return `listen #${url.host || url.pathname.replace(/^\/+/, '')}`;
  } catch {
    // Not a URL: shown as it is.
  }
  return `listen ${target}`;
}

/** One sentence on where a delivery (or copy) stands: when it went, when it goes next, or why it stopped. */
function standing(d: DeliveryCopy, now: number): string {
  const tried = d.attempts.length;
  if (d.inFlight) return tried <= 1 && d.state === 'pending' ? 'Sending now…' : 'Sending again now…';
  switch (d.state) {
    case 'delivered':
      return `Delivered ${dateTime(d.deliveredAt)}.`;
    case 'failed':
      return `Gave up ${dateTime(d.cancelledAt)} after ${plural(tried, 'attempt')}.`;
    case 'cancelled':
      return `Cancelled ${dateTime(d.cancelledAt)}${d.lastError ? `: ${d.lastError}` : ''}.`;
    default: {
      const when = d.nextAttemptAt === null || d.nextAttemptAt <= now ? 'due now' : `next attempt ${dateTime(d.nextAttemptAt)}`;
      const waits = d.waitingFor !== null ? ` Waits for #${d.waitingFor}, an earlier webhook of this Connect session to the same target.` : '';
      return d.state === 'pending' ? `Not attempted yet; ${when}.${waits}` : `Last attempt failed; ${when}.${waits}`;
    }
  }
}

/** JSON indented; XML one element per line; anything else as it is. */
function prettyPayload(payload: string, contentType: string | null): string {
  if (contentType?.includes('xml') || payload.trimStart().startsWith('<')) return prettyXml(payload);
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

function prettyXml(text: string): string {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) return text;
  const declaration = /^<\?xml[^>]*\?>/.exec(text)?.[0];
  const lines: string[] = declaration ? [declaration] : [];
  const walk = (el: Element, depth: number) => {
    const pad = '  '.repeat(depth);
    const children = [...el.children];
    const attrs = [...el.attributes].map((a) => ` ${a.name}="${a.value}"`).join('');
    if (children.length === 0) {
      const value = el.textContent ?? '';
      lines.push(value === '' ? `${pad}<${el.tagName}${attrs}/>` : `${pad}<${el.tagName}${attrs}>${value}</${el.tagName}>`);
      return;
    }
    lines.push(`${pad}<${el.tagName}${attrs}>`);
    for (const c of children) walk(c, depth + 1);
    lines.push(`${pad}</${el.tagName}>`);
  };
  walk(doc.documentElement, 0);
  return lines.join('\n');
}

function lastResponse(d: DeliveryCopy, key: string): HTMLElement | null {
  const r = d.lastResponse;
  if (!r) return null;
  return h(
    'div',
    { class: 'dl-response' },
    h(
      'p',
      { class: 'dl-response-head' },
      h('span', { class: 'dl-label' }, 'Last response'),
      badge(r.statusCode === null ? 'no answer' : String(r.statusCode), statusTone(r.statusCode)),
      h('span', { class: 'muted' }, dateTime(r.attemptedAt)),
    ),
    r.body
      ? h(
          'pre',
          { class: 'dl-pre dl-response-body', tabindex: '0', 'aria-label': `Response body of delivery ${d.id}`, 'data-focus-key': `${key}-body` },
          r.body,
        )
      : r.error
        ? h('p', { class: 'attempt-error dl-response-error' }, r.error)
        : h('p', { class: 'muted dl-response-error' }, 'Empty body.'),
  );
}

/** Attempts shown as they are; a long history folds into a disclosure. */
const ATTEMPTS_SHOWN = 5;

function attemptList(d: DeliveryCopy): HTMLElement {
  if (d.attempts.length === 0) return h('p', { class: 'muted dl-none' }, 'No attempts yet.');
  const list = attemptItems(d);
  return d.attempts.length <= ATTEMPTS_SHOWN ? list : disclosure(`attempts-${d.id}`, `All ${d.attempts.length} attempts`, list);
}

function attemptItems(d: DeliveryCopy): HTMLElement {
  return h(
    'ol',
    { class: 'attempts', 'aria-label': `Attempts of delivery ${d.id}` },
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
}

type Redeliver = (id: number, button: HTMLButtonElement, what: string) => void;

function redeliverButton(id: number, label: string, what: string, onRedeliver: Redeliver, small = false): HTMLButtonElement {
  const button = h(
    'button',
    { type: 'button', class: `button secondary small${small ? ' dl-copy-button' : ''}`, 'aria-label': label, 'data-focus-key': `redeliver-${id}` },
    'Redeliver',
  );
  button.addEventListener('click', () => onRedeliver(id, button, what));
  return button;
}

function copyItem(c: DeliveryCopy, now: number, onRedeliver: Redeliver): HTMLElement {
  const where = listenLabel(c.target);
  return h(
    'li',
    { class: 'dl-copy', 'data-delivery-id': String(c.id) },
    h(
      'div',
      { class: 'dl-copy-head' },
      h('span', {}, 'Also sent to ', h('code', { title: c.target }, where)),
      stateBadge(c.state),
      h('span', { class: 'muted' }, `#${c.id} · ${plural(c.attempts.length, 'attempt')}`),
      h('span', { class: 'grow' }),
      redeliverButton(c.id, `Redeliver copy ${c.id} to ${where}`, `The copy to ${where}`, onRedeliver, true),
    ),
    h('p', { class: 'dl-standing' }, standing(c, now)),
    lastResponse(c, `copy-${c.id}`),
  );
}

function disclosure(key: string, summary: string, ...content: HTMLElement[]): HTMLElement {
  return h('details', { class: 'dl-details', 'data-open-key': key }, h('summary', { 'data-focus-key': `${key}-summary` }, summary), ...content);
}

function deliveryCard(d: Delivery, now: number, onRedeliver: Redeliver): HTMLElement {
  const title = d.eventType ?? KIND[d.kind];
  const payloadBytes = new TextEncoder().encode(d.payload).length;
  return h(
    'article',
    { class: 'delivery', 'data-delivery-id': String(d.id), 'aria-labelledby': `delivery-${d.id}` },
    h(
      'div',
      { class: 'delivery-head' },
      h('h3', { id: `delivery-${d.id}` }, title, h('span', { class: 'dl-id' }, ` #${d.id}`)),
      stateBadge(d.state),
      h('span', { class: 'muted attempts-count' }, plural(d.attempts.length, 'attempt')),
      h('span', { class: 'grow' }),
      redeliverButton(d.id, `Redeliver delivery ${d.id}`, `Delivery #${d.id}`, onRedeliver),
    ),
    h('p', { class: 'dl-standing' }, standing(d, now)),
    h(
      'dl',
      { class: 'details compact dl-facts' },
      h('dt', {}, 'Kind'),
      h('dd', {}, KIND[d.kind] ?? d.kind),
      h('dt', {}, 'Target'),
      h('dd', { class: 'path' }, d.target),
      h('dt', {}, 'Event'),
      h('dd', {}, h('code', { class: 'dl-event-id' }, d.eventId)),
      h('dt', {}, 'Created'),
      h('dd', {}, dateTime(d.createdAt)),
      d.customerId ? h('dt', {}, 'Customer') : null,
      d.customerId ? h('dd', {}, h('a', { href: `#/customers/${d.customerId}` }, String(d.customerId))) : null,
      d.copyOf ? h('dt', {}, 'Copy of') : null,
      d.copyOf ? h('dd', {}, `#${d.copyOf} (a listen copy)`) : null,
    ),
    lastResponse(d, `delivery-${d.id}`),
    attemptList(d),
    d.copies.length > 0
      ? h('ul', { class: 'dl-copies', 'aria-label': `Listen copies of delivery ${d.id}` }, ...d.copies.map((c) => copyItem(c, now, onRedeliver)))
      : null,
    disclosure(
      `payload-${d.id}`,
      `Payload (${d.contentType ?? (d.kind === 'email' ? 'e-mail' : 'no content type')}, ${payloadBytes} bytes${d.payloadTruncated ? ', cut' : ''})`,
      h(
        'pre',
        { class: 'dl-pre dl-payload', tabindex: '0', 'aria-label': `Payload of delivery ${d.id}`, 'data-focus-key': `payload-${d.id}-body` },
        prettyPayload(d.payload, d.contentType),
      ),
    ),
  );
}

function select(id: string, all: string, options: { value: string; label: string }[], value: string): HTMLSelectElement {
  const el = h('select', { id, name: id }, h('option', { value: '' }, all), ...options.map((o) => h('option', { value: o.value }, o.label)));
  el.value = value;
  return el;
}

/** Replaces a select's options when they changed, keeping what is chosen (also when it is no longer offered). */
function setOptions(el: HTMLSelectElement, all: string, values: string[], value: string): void {
  const wanted = value && !values.includes(value) ? [value, ...values] : values;
  const have = [...el.options].slice(1).map((o) => o.value);
  if (have.length === wanted.length && have.every((v, i) => v === wanted[i])) return;
  el.replaceChildren(h('option', { value: '' }, all), ...wanted.map((v) => h('option', { value: v }, v)));
  el.value = value;
}

/** Deliveries with their attempts, refreshed every two seconds, filtered as chosen, each with a Redeliver button. */
export async function deliveriesPage(main: HTMLElement): Promise<() => void> {
  const list = h('div', { class: 'deliveries' });
  const summary = h('p', { class: 'muted dl-summary', role: 'status' });
  const stateSelect = select(
    'filter-state',
    'All states',
    STATES.map((s) => ({ value: s.value, label: s.label })),
    chosen.state,
  );
  const typeSelect = select('filter-event-type', 'All event types', [], chosen.eventType);
  const targetSelect = select('filter-target', 'All targets', [], chosen.target);
  const clear = h('button', { type: 'button', class: 'button secondary small' }, 'Clear filters');
  const field = (label: string, el: HTMLSelectElement) => h('div', { class: 'dl-filter' }, h('label', { for: el.id }, label), el);
  const form = h(
    'form',
    { class: 'dl-filters', 'aria-label': 'Filter deliveries', onsubmit: (e: Event) => e.preventDefault() },
    field('State', stateSelect),
    field('Event type', typeSelect),
    field('Target', targetSelect),
    h('div', { class: 'dl-filter dl-filter-actions' }, clear),
  );

  let signature = '';
  // Answers can cross (a poll and a filter change): only the latest request's answer is drawn.
  let latest = 0;
  const render = async () => {
    const ticket = ++latest;
    const query = new URLSearchParams({ limit: '50' });
    if (chosen.state) query.set('state', chosen.state);
    if (chosen.eventType) query.set('eventType', chosen.eventType);
    if (chosen.target) query.set('target', chosen.target);
    const answer = await api<DeliveryList>('GET', `/deliveries?${query}`);
    if (ticket !== latest) return;
    setOptions(typeSelect, 'All event types', answer.filters.eventTypes, chosen.eventType);
    setOptions(targetSelect, 'All targets', answer.filters.targets, chosen.target);
    clear.hidden = !chosen.state && !chosen.eventType && !chosen.target;
    const now = JSON.stringify([answer.deliveries, chosen]);
    if (now === signature) return;
    signature = now;
    // Redrawing must not close what the reader opened, nor move keyboard focus.
    const open = new Set([...list.querySelectorAll<HTMLDetailsElement>('details[open]')].map((d) => d.dataset.openKey));
    const focusKey = (document.activeElement as HTMLElement | null)?.closest?.('[data-focus-key]')?.getAttribute('data-focus-key');
    const filtered = Boolean(chosen.state || chosen.eventType || chosen.target);
    const n = answer.deliveries.length;
    const counted = `${n} ${n === 1 ? 'delivery' : 'deliveries'}`;
    summary.textContent = filtered ? `${counted} ${n === 1 ? 'matches' : 'match'} these filters.` : `${counted}, newest first.`;
    list.replaceChildren(
      ...(n === 0
        ? [
            filtered
              ? emptyState('No deliveries match these filters.', 'Change or clear the filters to see more.')
              : emptyState(
                  'No deliveries yet.',
                  'TxPUSH notifications, Connect webhooks and Connect e-mails your partner triggers appear here with every attempt.',
                ),
          ]
        : answer.deliveries.map((d) => deliveryCard(d, answer.now, redeliver))),
    );
    for (const d of list.querySelectorAll<HTMLDetailsElement>('details')) if (open.has(d.dataset.openKey)) d.open = true;
    if (focusKey) (list.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`) as HTMLElement | null)?.focus();
  };
  const redeliver: Redeliver = (id, button, what) =>
    void withBusy(button, 'Queuing…', async () => {
      await api('POST', `/deliveries/${id}/redeliver`);
      signature = '';
      await toastAfter(render, `${what} is queued for redelivery and goes out now.`);
    });
  const refilter = () => {
    chosen.state = stateSelect.value;
    chosen.eventType = typeSelect.value;
    chosen.target = targetSelect.value;
    signature = '';
    void render().catch(() => undefined);
  };
  for (const el of [stateSelect, typeSelect, targetSelect]) el.addEventListener('change', refilter);
  clear.addEventListener('click', () => {
    stateSelect.value = '';
    typeSelect.value = '';
    targetSelect.value = '';
    refilter();
    stateSelect.focus();
  });
  await render();
  main.replaceChildren(
    pageHeader(
      'Deliveries',
      'TxPUSH notifications, Connect webhooks and e-mails, with every attempt and the last answer. Copies sent to a running ledgerlink listen appear under the delivery they copy. Redelivery sends the same event id again, at once.',
    ),
    section('Recent deliveries', form, summary, list),
  );
  return poll(render);
}
