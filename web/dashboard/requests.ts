/**
 * API requests: the live log of calls made with the partner's app key, narrowed by status, method and path, each row
 * opening to show its request and its answer (headers and bodies, secrets redacted).
 */
import type { RequestLog, RequestLogDetail, RequestLogEntry, RequestLogMessage } from '../shared/contract.js';
import { api } from './api.js';
import './requests.css';
import { badge, copyButton, dateTime, emptyState, h, messageOf, pageHeader, poll, statusTone, toast } from './ui.js';

const COLUMNS = ['Time', 'Method', 'Path', 'Status', 'Latency', 'Error code', 'Request ID'];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];
/** What the status filter takes: a class (2xx) or a status (404); the server says the same. */
const STATUS_PATTERN = /^[1-5]([0-9]{2}|xx)$/i;
/** Most entries the page shows; older ones leave as new ones come. */
const MAX_SHOWN = 500;

interface Filters {
  status: string;
  method: string;
  path: string;
}

/** The filters in the page's address (#/requests?status=4xx&method=GET&path=...), so a reload keeps them. */
function filtersFromAddress(): Filters {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  // An address edited by hand does not break the page: what the server would refuse is left out.
  const status = params.get('status') ?? '';
  const method = (params.get('method') ?? '').toUpperCase();
  return {
    status: STATUS_PATTERN.test(status) ? status.toLowerCase() : '',
    method: METHODS.includes(method) ? method : '',
    path: (params.get('path') ?? '').slice(0, 500),
  };
}

function query(filters: Filters): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  return params.toString();
}

function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  return `${(bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} KB (${bytes.toLocaleString('en-US')} bytes)`;
}

/** A body as shown: JSON indented when it is whole, anything else as it came. */
function shownBody(body: string, truncated: boolean): string {
  if (truncated || !/^\s*[[{]/.test(body)) return body;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** One side of a call: its headers, then its body (or why there is none to show). */
function messagePanel(title: string, subtitle: string, m: RequestLogMessage): HTMLElement {
  let body: HTMLElement;
  if (m.omitted === 'not-kept') body = h('p', { class: 'muted' }, 'Headers and body were not kept for this call.');
  else if (m.omitted === 'not-read')
    body = h('p', { class: 'muted' }, 'The body was not read: the request was refused before it (its credentials, most often).');
  else if (m.omitted === 'binary') body = h('p', { class: 'muted' }, `Not text${m.bytes ? ` (${bytesText(m.bytes)})` : ''}: not shown.`);
  else if (m.body === null || m.body === '') body = h('p', { class: 'muted' }, 'No body.');
  else
    body = h(
      'div',
      {},
      m.truncated && m.bytes !== null ? h('p', { class: 'cut-note' }, `Cut: the first 8 KB of ${bytesText(m.bytes)}.`) : null,
      h('pre', { class: 'body', tabindex: '0', 'aria-label': `${title} body` }, shownBody(m.body, m.truncated)),
    );
  return h(
    'section',
    { class: 'message', 'aria-label': title },
    h('h3', {}, title, h('span', { class: 'muted message-sub' }, subtitle)),
    m.headers.length > 0
      ? h(
          'details',
          { class: 'headers' },
          h('summary', {}, `Headers (${m.headers.length})`),
          h('dl', {}, ...m.headers.flatMap((x) => [h('dt', {}, x.name), h('dd', {}, x.value)])),
        )
      : null,
    body,
  );
}

function detailPanel(d: RequestLogDetail): HTMLElement {
  const e = d.entry;
  const sent = d.request.bytes === null ? 'body not read' : d.request.bytes === 0 ? 'no body' : bytesText(d.request.bytes);
  const answered = d.response.bytes === null ? '' : d.response.bytes === 0 ? 'no body' : bytesText(d.response.bytes);
  return h(
    'div',
    { class: 'req-detail-inner' },
    h(
      'p',
      { class: 'req-meta' },
      h('span', {}, dateTime(e.at, true)),
      h(
        'span',
        {},
        'Request ID ',
        h('code', {}, e.requestId),
        ' ',
        copyButton(`Copy request ID ${e.requestId}`, () => e.requestId),
      ),
    ),
    h(
      'div',
      { class: 'messages' },
      messagePanel('Request', ` ${e.method} · ${sent}`, d.request),
      messagePanel('Response', ` ${e.status}${answered ? ` · ${answered}` : ''}`, d.response),
    ),
  );
}

/** A path as text with a line-break opportunity after each `/`, `?` and `&`, so a long path wraps between its parts. */
function breakable(path: string): (string | HTMLElement)[] {
  return path.split(/(?<=[/?&])/).flatMap((part, i) => (i === 0 ? [part] : [h('wbr'), part]));
}

/** One entry: its summary row, whose path opens a row below with the request and the answer (loaded when opened). */
function entryRows(r: RequestLogEntry): HTMLTableSectionElement {
  const detailId = `request-${r.id}`;
  const detailCell = h('td', { colspan: String(COLUMNS.length) });
  const detailRow = h('tr', { class: 'req-detail', id: detailId, hidden: true }, detailCell);
  const toggle = h(
    'button',
    { type: 'button', class: 'req-toggle', 'aria-expanded': 'false', 'aria-controls': detailId },
    h('span', { class: 'chevron', 'aria-hidden': 'true' }),
    h('span', { class: 'path' }, ...breakable(r.path)),
  );
  let loaded = false;
  toggle.addEventListener('click', async () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    detailRow.hidden = !open;
    if (!open || loaded) return;
    loaded = true;
    detailCell.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
    try {
      detailCell.replaceChildren(detailPanel(await api<RequestLogDetail>('GET', `/requests/${r.id}`)));
    } catch (e) {
      loaded = false;
      detailCell.replaceChildren(h('p', { class: 'alert', role: 'alert' }, messageOf(e)));
    }
  });
  const label = (name: string) => ({ 'data-label': name });
  return h(
    'tbody',
    { class: 'req', 'data-request-id': String(r.id) },
    h(
      'tr',
      {},
      h('td', { class: 'time', ...label('Time'), title: dateTime(r.at, true) }, new Date(r.at).toLocaleTimeString('en-US')),
      h('td', { class: 'method-cell', ...label('Method') }, h('span', { class: 'method' }, r.method)),
      h('td', { class: 'path-cell', ...label('Path') }, toggle),
      h('td', { class: 'status', ...label('Status') }, badge(String(r.status), statusTone(r.status))),
      h('td', { class: 'num latency', ...label('Latency') }, `${r.latencyMs.toFixed(1)} ms`),
      h('td', { class: r.errorCode ? 'code' : 'code none', ...label('Error code') }, r.errorCode ?? '—'),
      h('td', { class: 'request-id', ...label('Request ID') }, h('code', {}, r.requestId)),
    ),
    detailRow,
  );
}

function filterForm(filters: Filters, apply: (f: Filters) => void): HTMLFormElement {
  const status = h('input', {
    type: 'text',
    id: 'filter-status',
    name: 'status',
    value: filters.status,
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'filter-status-hint',
    list: 'filter-status-options',
  });
  const statusOptions = h('datalist', { id: 'filter-status-options' }, ...['2xx', '4xx', '5xx', '401', '404'].map((v) => h('option', { value: v })));
  const method = h('select', { id: 'filter-method', name: 'method' }, h('option', { value: '' }, 'Any'), ...METHODS.map((m) => h('option', { value: m }, m)));
  method.value = filters.method;
  const path = h('input', { type: 'search', id: 'filter-path', name: 'path', value: filters.path, autocomplete: 'off', spellcheck: 'false', maxlength: '500' });
  const hint = h('p', { class: 'hint', id: 'filter-status-hint' }, '2xx, 4xx, 5xx or a status such as 401');
  const clear = h('button', { type: 'button', class: 'button secondary small' }, 'Clear');
  const form = h(
    'form',
    { class: 'req-filters', 'aria-label': 'Filter requests', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'filter-status' }, 'Status'), status, statusOptions, hint),
    h('div', { class: 'field' }, h('label', { for: 'filter-method' }, 'Method'), method),
    h('div', { class: 'field grow' }, h('label', { for: 'filter-path' }, 'Path contains'), path),
    h('div', { class: 'filter-actions' }, h('button', { type: 'submit', class: 'button primary small' }, 'Apply'), clear),
  );
  const current = (): Filters | undefined => {
    const s = status.value.trim();
    const valid = s === '' || STATUS_PATTERN.test(s);
    status.setAttribute('aria-invalid', String(!valid));
    hint.classList.toggle('invalid', !valid);
    hint.textContent = valid ? '2xx, 4xx, 5xx or a status such as 401' : `"${s}" is not a status: use 2xx, 4xx, 5xx or a status such as 401`;
    return valid ? { status: s.toLowerCase(), method: method.value, path: path.value.trim() } : undefined;
  };
  let typing: ReturnType<typeof setTimeout> | undefined;
  const soon = () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      const f = current();
      if (f) apply(f);
    }, 400);
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearTimeout(typing);
    const f = current();
    if (f) apply(f);
    else status.focus();
  });
  status.addEventListener('input', soon);
  path.addEventListener('input', soon);
  method.addEventListener('change', () => {
    const f = current();
    if (f) apply(f);
  });
  clear.addEventListener('click', () => {
    status.value = '';
    method.value = '';
    path.value = '';
    clearTimeout(typing);
    apply(current()!);
  });
  return form;
}

/** The live log: newest first, new requests matching the filters added on top every two seconds while the page is open. */
export async function requestsPage(main: HTMLElement): Promise<() => void> {
  let filters = filtersFromAddress();
  let lastId = 0;
  let paused = false;
  /** Bumped by every new filter, so an answer for older filters is dropped. */
  let generation = 0;
  const table = h(
    'table',
    { class: 'reqlog' },
    h('caption', { class: 'visually-hidden' }, 'API requests, newest first. Open a path to see its request and response.'),
    h('thead', {}, h('tr', {}, ...COLUMNS.map((t) => h('th', { scope: 'col', class: t === 'Latency' ? 'num' : undefined }, t)))),
  );
  const tableEl = h('div', { class: 'reqlog-wrap' }, table);
  const count = h('p', { class: 'muted req-count' });
  const holder = h('div', {});
  const showing = (n: number) => {
    const filtered = Boolean(filters.status || filters.method || filters.path);
    count.textContent = n === 0 ? '' : `The latest ${n === 1 ? 'request' : `${n} requests`}${filtered ? ' matching the filters' : ''}.`;
  };
  const emptyNow = () =>
    filters.status || filters.method || filters.path
      ? emptyState('No requests match these filters.', 'Change or clear the filters; new matching requests appear here within seconds.')
      : emptyState('No API requests yet.', "Calls your application makes with this partner's app key appear here within seconds, failed ones included.");

  const load = async () => {
    const mine = ++generation;
    const q = query(filters);
    const first = (await api<RequestLog>('GET', `/requests?limit=100${q ? `&${q}` : ''}`)).requests;
    if (mine !== generation) return;
    for (const old of [...table.tBodies]) old.remove();
    table.append(...first.map(entryRows));
    lastId = first[0]?.id ?? lastId;
    holder.replaceChildren(first.length ? tableEl : emptyNow());
    showing(first.length);
  };

  const apply = (next: Filters) => {
    if (query(next) === query(filters)) return;
    filters = next;
    const q = query(filters);
    history.replaceState(null, '', `#/requests${q ? `?${q}` : ''}`);
    load().catch((e) => toast(messageOf(e), 'error'));
  };

  const live = h('span', { class: 'live', 'aria-live': 'off' }, h('span', { class: 'dot', 'aria-hidden': 'true' }), 'Live');
  const pause = h('button', { type: 'button', class: 'button secondary small', 'aria-pressed': 'false' }, 'Pause');
  pause.addEventListener('click', () => {
    paused = !paused;
    pause.setAttribute('aria-pressed', String(paused));
    pause.textContent = paused ? 'Resume' : 'Pause';
    live.classList.toggle('paused', paused);
    live.lastChild!.textContent = paused ? 'Paused' : 'Live';
  });

  await load();
  main.replaceChildren(
    pageHeader(
      'API requests',
      'Every call made with your app key, failed ones included: method, path, status, latency, error code and request ID. Open a path to see the request and the response, secrets redacted. Kept for seven days.',
      live,
      pause,
    ),
    h('div', { class: 'card' }, filterForm(filters, apply), count, holder),
  );
  return poll(async () => {
    if (paused) return;
    const mine = generation;
    const q = query(filters);
    const fresh = (await api<RequestLog>('GET', `/requests?afterId=${lastId}&limit=500${q ? `&${q}` : ''}`)).requests;
    if (mine !== generation || fresh.length === 0) return;
    lastId = fresh[fresh.length - 1]!.id;
    if (!holder.contains(tableEl)) holder.replaceChildren(tableEl);
    const newest = fresh.reverse().map(entryRows);
    const before = table.tBodies[0];
    if (before) for (const entry of newest) table.insertBefore(entry, before);
    else table.append(...newest);
    while (table.tBodies.length > MAX_SHOWN) table.tBodies[table.tBodies.length - 1]!.remove();
    showing(table.tBodies.length);
  });
}
