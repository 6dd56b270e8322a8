/**
 * An account's daily balances as a line chart: plain SVG drawn at the box's width (redrawn when it changes, so text
 * and dots keep their size on a phone), with a title and a description naming the range, the lowest and highest
 * balances and the latest, and the balances as a table behind a disclosure for anyone who cannot see the chart.
 */
import type { DailyBalance, DashboardAccount, DashboardBalanceHistory } from '../shared/contract.js';
import { money } from '../shared/dom.js';
import './balance-chart.css';
import { api } from './api.js';
import { emptyState, h, messageOf, table, toast } from './ui.js';

const SVG = 'http://www.w3.org/2000/svg';
const HEIGHT = 180;
const PAD = { top: 12, right: 10, bottom: 12, left: 10 };

const SOURCE_LABELS: Record<DailyBalance['source'], string> = {
  refresh: 'Read by a refresh',
  statement: 'Statement closing balance',
  derived: 'Derived from transactions',
};

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  el.append(...children);
  return el;
}

/** A day (YYYY-MM-DD) as the dashboard writes dates. */
function dayLabel(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** What the chart shows, in words: its description and the summary above it. */
function describe(balances: readonly DailyBalance[], currency: string): string {
  const first = balances[0]!;
  const last = balances[balances.length - 1]!;
  let low = first;
  let high = first;
  for (const b of balances) {
    if (b.balance < low.balance) low = b;
    if (b.balance > high.balance) high = b;
  }
  const derived = balances.filter((b) => b.source === 'derived').length;
  return (
    `${balances.length} days from ${dayLabel(first.date)} to ${dayLabel(last.date)}: ${money(first.balance, currency)} to ${money(last.balance, currency)}; ` +
    `lowest ${money(low.balance, currency)} on ${dayLabel(low.date)}, highest ${money(high.balance, currency)} on ${dayLabel(high.date)}. ` +
    `${derived} of the days are derived from transactions.`
  );
}

/** The chart itself, `width` pixels wide. */
function drawChart(balances: readonly DailyBalance[], width: number, ids: { title: string; desc: string }, title: string, desc: string): SVGSVGElement {
  const values = balances.map((b) => b.balance);
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (min === max) [min, max] = [min - 1, max + 1];
  const days = balances.map((b) => Date.parse(`${b.date}T00:00:00Z`));
  const start = days[0]!;
  const span = Math.max(1, days[days.length - 1]! - start);
  const x = (i: number) => PAD.left + ((days[i]! - start) / span) * (width - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + ((max - v) / (max - min)) * (HEIGHT - PAD.top - PAD.bottom);

  const path = balances.map((b, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(b.balance).toFixed(1)}`).join('');
  const parts: SVGElement[] = [svg('title', { id: ids.title }, title), svg('desc', { id: ids.desc }, desc)];
  // The zero line, when the balance crosses or touches it (an overdraft, a card paid off).
  if (min <= 0 && max >= 0) parts.push(svg('line', { class: 'zero', x1: PAD.left, x2: width - PAD.right, y1: y(0), y2: y(0) }));
  parts.push(svg('path', { class: 'line', d: balances.length === 1 ? `M${PAD.left},${y(values[0]!)}H${width - PAD.right}` : path }));
  // Observed balances as dots: the derived days between them are the line alone.
  balances.forEach((b, i) => {
    if (b.source !== 'derived') parts.push(svg('circle', { class: `dot ${b.source}`, cx: x(i).toFixed(1), cy: y(b.balance).toFixed(1), r: 3.5 }));
  });
  return svg('svg', { width, height: HEIGHT, viewBox: `0 0 ${width} ${HEIGHT}`, role: 'img', 'aria-labelledby': `${ids.title} ${ids.desc}` }, ...parts);
}

/** The balance history of one account: the chart, its range in words, and the balances as a table. */
export function balanceChart(account: { id: string; name: string; currency: string }, balances: readonly DailyBalance[]): HTMLElement {
  const heading = h('h3', { id: `balance-chart-${account.id}-heading` }, `Balance history: ${account.name}`);
  if (balances.length === 0) {
    return h(
      'div',
      { class: 'balance-chart', role: 'group', 'aria-labelledby': heading.id },
      heading,
      emptyState('No balances yet.', 'Each refresh, and each statement file that states a closing balance, adds the day it read and the days before it.'),
    );
  }
  const currency = balances[balances.length - 1]!.currency || account.currency;
  const desc = describe(balances, currency);
  const title = `Daily balance of ${account.name}`;
  const ids = { title: `balance-chart-${account.id}-title`, desc: `balance-chart-${account.id}-desc` };
  const box = h('div', { class: 'chart-box' });
  let drawnWidth = 0;
  const draw = () => {
    const width = Math.max(200, Math.floor(box.clientWidth));
    if (width === drawnWidth) return;
    drawnWidth = width;
    box.replaceChildren(drawChart(balances, width, ids, title, desc));
  };
  new ResizeObserver(draw).observe(box);

  const latest = balances[balances.length - 1]!;
  return h(
    'div',
    { class: 'balance-chart', role: 'group', 'aria-labelledby': heading.id },
    heading,
    h('p', { class: 'muted' }, `Latest ${money(latest.balance, currency)} on ${dayLabel(latest.date)}. ${desc}`),
    box,
    h('div', { class: 'chart-axis', 'aria-hidden': 'true' }, h('span', {}, dayLabel(balances[0]!.date)), h('span', {}, dayLabel(latest.date))),
    h(
      'ul',
      { class: 'chart-legend' },
      h('li', {}, h('span', { class: 'key line', 'aria-hidden': 'true' }), 'Daily balance (derived days are the line alone)'),
      h('li', {}, h('span', { class: 'key refresh', 'aria-hidden': 'true' }), SOURCE_LABELS.refresh),
      h('li', {}, h('span', { class: 'key statement', 'aria-hidden': 'true' }), SOURCE_LABELS.statement),
    ),
    h(
      'details',
      { class: 'chart-table' },
      h('summary', {}, 'Show the balances as a table'),
      table(
        `Daily balances of ${account.name}, newest first`,
        ['Date', 'Balance', 'Source'],
        [...balances]
          .reverse()
          .map((b) => [
            h('span', { class: 'nowrap' }, dayLabel(b.date)),
            h('span', { class: 'num' }, money(b.balance, b.currency || currency)),
            SOURCE_LABELS[b.source],
          ]),
      ),
    ),
  );
}

/**
 * Where the transactions section shows the chart of the account it lists: empty for every account, else that
 * account's history, fetched when the account is chosen.
 */
export function balanceChartSlot(customerId: string, accounts: readonly DashboardAccount[]): { el: HTMLElement; show(accountId: string): Promise<void> } {
  const el = h('div', { class: 'balance-slot', 'aria-live': 'polite' });
  let shown = '';
  return {
    el,
    async show(accountId: string) {
      shown = accountId;
      const account = accounts.find((a) => a.id === accountId);
      if (!account) {
        el.replaceChildren();
        return;
      }
      try {
        const history = await api<DashboardBalanceHistory>(
          'GET',
          `/customers/${encodeURIComponent(customerId)}/accounts/${encodeURIComponent(accountId)}/balances`,
        );
        // Another account may have been chosen while this one loaded.
        if (shown === accountId) el.replaceChildren(balanceChart(account, history.balances));
      } catch (e) {
        if (shown === accountId) el.replaceChildren();
        toast(messageOf(e), 'error');
      }
    },
  };
}
