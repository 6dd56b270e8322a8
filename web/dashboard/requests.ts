/** API requests: the live log of calls made with the partner's credentials. */
import type { RequestLog, RequestLogEntry } from '../shared/contract.js';
import { api } from './api.js';
import { badge, emptyState, h, pageHeader, poll, statusTone } from './ui.js';

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
