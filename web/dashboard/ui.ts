/** Shared pieces of the dashboard's pages: headings, tables, empty states, copy buttons, confirmations, feedback. */
import { ApiError } from '../shared/api.js';
import { alertBox, h } from '../shared/dom.js';

export { alertBox, h };

type Child = Node | string | null | undefined | false;

/**
 * The message of an action (success or failure) in the live region. The region sits in the page's header band
 * (main.ts puts it there), beside the header's badges and above the content, so it never covers a badge. It stays
 * until the next message replaces it or the user dismisses it: a message that leaves on a timer can go before
 * someone who reads slowly, or looks away, has read it.
 */
export function toast(message: string, kind: 'ok' | 'error' = 'ok'): void {
  const region = document.getElementById('toasts')!;
  const dismiss = h('button', { type: 'button', class: 'toast-dismiss', 'aria-label': 'Dismiss message' }, '\u00d7');
  const item = h('div', { class: `toast toast-${kind}` }, h('span', {}, message), dismiss);
  dismiss.addEventListener('click', () => {
    // Focus was on the button, which leaves with the message: it moves to the page's main region, not to the body.
    pushingContent(() => item.remove());
    document.getElementById('main')?.focus({ preventScroll: true });
  });
  // One at a time: the newest replaces the last, so the header grows by one line at most.
  pushingContent(() => region.replaceChildren(item));
}

/**
 * An action's message, shown once the page has redrawn after the action: the message never announces a page that is
 * still changing, and whoever waits for it (a person, a screen reader, a test) finds the page settled. Shown also if
 * the redraw fails, whose error the caller reports.
 */
export async function toastAfter(redraw: () => Promise<unknown>, message: string, kind: 'ok' | 'error' = 'ok'): Promise<void> {
  try {
    await redraw();
  } finally {
    toast(message, kind);
  }
}

let draws = 0;

/**
 * Claims the page's main region for a draw that ends after requests: a later claim (another page, or the same page
 * drawn again after an action) makes this one stale, so a draw that finishes late never covers a newer one. Answers
 * whether the claim is still the latest.
 */
export function claimMain(): () => boolean {
  const mine = ++draws;
  return () => mine === draws;
}

/**
 * Runs a change of the header's height so that it moves the page's content rather than covering it. The header
 * stays at the top of the window; left alone, the browser's scroll anchoring would keep the content in place and
 * let a taller header (a toast on a narrow screen) slide over it. Anchoring resumes once that layout is done.
 */
function pushingContent(change: () => void): void {
  // Chromium anchors the viewport's scrolling unless both the root and the body opt out.
  const scrollers = [document.documentElement, document.body];
  for (const el of scrollers) el.style.setProperty('overflow-anchor', 'none');
  change();
  requestAnimationFrame(() => requestAnimationFrame(() => scrollers.forEach((el) => el.style.removeProperty('overflow-anchor'))));
}

/** The message of a failed call, for the user. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.code && /^\d+$/.test(error.code) ? `${error.message} (code ${error.code})` : error.message;
  return error instanceof Error ? error.message : String(error);
}

/** The page heading (focused after navigation, so screen readers announce the new page) with optional actions. */
export function pageHeader(title: string, lead?: string, ...actions: Child[]): HTMLElement {
  return h(
    'div',
    { class: 'page-header' },
    h('div', {}, h('h1', { tabindex: '-1', id: 'page-title' }, title), lead ? h('p', { class: 'lead' }, lead) : null),
    actions.some(Boolean) ? h('div', { class: 'actions' }, ...actions) : null,
  );
}

/** A titled section (a card). */
export function section(title: string, ...content: Child[]): HTMLElement {
  const id = `s-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return h('section', { class: 'card', 'aria-labelledby': id }, h('h2', { id }, title), ...content);
}

/** What a list shows when it has nothing yet, with what to do about it. */
export function emptyState(title: string, hint: Child, ...more: Child[]): HTMLElement {
  return h('div', { class: 'empty' }, h('p', { class: 'empty-title' }, title), h('p', { class: 'muted' }, hint), ...more);
}

/**
 * A data table with a caption (visually hidden when asked) and column headers. On narrow screens its rows become
 * stacked cards, each cell labelled with its column's header (data-label), so nothing scrolls sideways.
 */
export function table(
  caption: string,
  headers: string[],
  rows: Child[][],
  options: { hideCaption?: boolean; rowAttrs?: (i: number) => Record<string, string> } = {},
): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'stack' },
      h('caption', { class: options.hideCaption ? 'visually-hidden' : '' }, caption),
      h('thead', {}, h('tr', {}, ...headers.map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, ...rows.map((cells, i) => h('tr', options.rowAttrs?.(i) ?? {}, ...cells.map((c, j) => h('td', { 'data-label': headers[j] ?? '' }, c))))),
    ),
  );
}

/**
 * Makes a table's box keyboard-reachable while its table is wider than it (it scrolls sideways then): a named
 * region in the tab order, so keyboard users can scroll it too. Watches its size; calling it twice does nothing more.
 */
export function scrollRegion(wrap: HTMLElement): void {
  if (wrap.dataset.scrollWatched) return;
  wrap.dataset.scrollWatched = 'true';
  const update = () => {
    const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
    if (scrolls && !wrap.hasAttribute('tabindex')) {
      wrap.setAttribute('tabindex', '0');
      wrap.setAttribute('role', 'region');
      wrap.setAttribute('aria-label', `${wrap.querySelector('caption')?.textContent?.trim() || 'Table'} (scrolls sideways)`);
    } else if (!scrolls && wrap.hasAttribute('tabindex')) {
      for (const a of ['tabindex', 'role', 'aria-label']) wrap.removeAttribute(a);
    }
  };
  new ResizeObserver(update).observe(wrap);
  const table = wrap.querySelector('table');
  if (table) new ResizeObserver(update).observe(table);
}

/** A button that copies a value (or what a function answers) to the clipboard, and says so. */
export function copyButton(label: string, value: () => string | Promise<string>): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'button small secondary',
      'aria-label': label,
      onclick: async () => {
        try {
          const text = await value();
          try {
            await navigator.clipboard.writeText(text);
          } catch {
            // Without clipboard permission (plain HTTP on another host than localhost): copy through a selection.
            const area = h('textarea', { readonly: true, class: 'visually-hidden' }, text);
            document.body.append(area);
            area.select();
            document.execCommand('copy');
            area.remove();
          }
          toast('Copied to the clipboard.');
        } catch (e) {
          toast(messageOf(e), 'error');
        }
      },
    },
    'Copy',
  );
}

/** Runs an action from a button: busy state while it runs, its error shown as a toast. */
export async function withBusy(button: HTMLButtonElement, label: string, work: () => Promise<void>): Promise<void> {
  const text = button.textContent ?? '';
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  button.textContent = label;
  try {
    await work();
  } catch (e) {
    toast(messageOf(e), 'error');
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.textContent = text;
  }
}

/** A form's submit handler: the button busy while `work` runs, a failure shown as an alert at the top of the form. */
export function onSubmit(submit: HTMLButtonElement, errors: HTMLElement, busyLabel: string, work: () => Promise<void>): (e: Event) => void {
  return (e) => {
    e.preventDefault();
    errors.replaceChildren();
    void withBusy(submit, busyLabel, async () => {
      try {
        await work();
      } catch (err) {
        errors.append(alertBox(messageOf(err)));
      }
    });
  };
}

/**
 * The one way the dashboard confirms a destructive action: the trigger button asks in place (a question with a
 * confirming and a Cancel button, focus on the confirming one), never with a browser dialog. Answers the area the
 * question appears in, to place after the trigger. `run` may answer a Node to show there afterwards.
 */
export function inlineConfirm(
  trigger: HTMLButtonElement,
  options: { label: string; question: string; confirm: string; busy: string; run: () => Promise<unknown> },
): HTMLElement {
  const area = h('div', { class: 'confirm-area' });
  trigger.addEventListener('click', () => {
    const yes = h('button', { type: 'button', class: 'button danger' }, options.confirm);
    const no = h('button', { type: 'button', class: 'button secondary' }, 'Cancel');
    no.addEventListener('click', () => {
      area.replaceChildren();
      trigger.focus();
    });
    yes.addEventListener('click', () =>
      withBusy(yes, options.busy, async () => {
        const after = await options.run();
        area.replaceChildren(...(after instanceof Node ? [after] : []));
        if (!(after instanceof Node) && trigger.isConnected) trigger.focus();
      }),
    );
    area.replaceChildren(h('div', { class: 'confirm', role: 'group', 'aria-label': options.label }, h('p', {}, options.question), yes, no));
    yes.focus();
  });
  return area;
}

/** A labelled select; `id` keeps it the same element across redraws (focus and remembered values find it). */
export function selectField(label: string, options: [string, string][], attrs: { id?: string; value?: string; hint?: string } = {}) {
  const input = h(
    'select',
    { id: attrs.id ?? `sel-${Math.random().toString(36).slice(2, 9)}` },
    ...options.map(([value, text]) => h('option', { value, selected: value === attrs.value }, text)),
  );
  const hintId = `${input.id}-hint`;
  if (attrs.hint) input.setAttribute('aria-describedby', hintId);
  return {
    el: h('div', { class: 'field' }, h('label', { for: input.id }, label), input, attrs.hint ? h('p', { class: 'hint', id: hintId }, attrs.hint) : null),
    input,
  };
}

/** A labelled form field. */
export function field(label: string, input: HTMLInputElement, hint?: string): HTMLElement {
  const id = input.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  input.id = id;
  const hintId = `${id}-hint`;
  if (hint) input.setAttribute('aria-describedby', hintId);
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hint ? h('p', { class: 'hint', id: hintId }, hint) : null);
}

/** Epoch seconds (or milliseconds with ms) as a local date and time. */
export function dateTime(value: number | null | undefined, ms = false): string {
  if (value === null || value === undefined) return '—';
  return new Date(ms ? value : value * 1000).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium' });
}

/** Epoch seconds as a date. */
export function date(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return new Date(value * 1000).toLocaleDateString('en-US', { dateStyle: 'medium' });
}

/** A small coloured label with its text (colour is never the only signal). */
export function badge(text: string, tone: 'ok' | 'warn' | 'bad' | 'neutral' | 'info'): HTMLElement {
  return h('span', { class: `badge badge-${tone}` }, text);
}

/** The tone of an HTTP status. */
export function statusTone(status: number | null): 'ok' | 'warn' | 'bad' | 'neutral' {
  if (status === null) return 'neutral';
  if (status < 300) return 'ok';
  if (status < 500) return 'warn';
  return 'bad';
}

const POLL_MS = 2000;

/** Repeats `work` every interval until the returned stop function runs; failures are reported once. */
export function poll(work: () => Promise<void>, interval = POLL_MS): () => void {
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
