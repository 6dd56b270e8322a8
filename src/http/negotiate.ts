/** The two wire formats of the API. */
export type WireFormat = 'json' | 'xml';

const CANDIDATES: Array<{ format: WireFormat; type: string; subtype: string }> = [
  { format: 'json', type: 'application', subtype: 'json' },
  { format: 'xml', type: 'application', subtype: 'xml' },
  { format: 'xml', type: 'text', subtype: 'xml' },
];

/**
 * Picks the response format from an Accept header: highest q wins, then the more specific range,
 * then JSON. Absent or empty Accept means JSON; undefined means nothing acceptable (406).
 */
export function negotiateFormat(accept: string | undefined): WireFormat | undefined {
  if (!accept?.trim()) return 'json';
  // Clients send the same few Accept headers on every request: remember the answer for each.
  if (remembered.has(accept)) return remembered.get(accept);
  const format = negotiate(accept);
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(accept, format);
  return format;
}

const MAX_REMEMBERED = 256;
const remembered = new Map<string, WireFormat | undefined>();

function negotiate(accept: string): WireFormat | undefined {
  const ranges = accept.split(',').map((part) => {
    const [range = '', ...params] = part.trim().split(';');
    const [type = '', subtype = ''] = range.trim().toLowerCase().split('/');
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k?.trim().toLowerCase() === 'q') {
        const n = Number(v);
        q = Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 0;
      }
    }
    return { type, subtype, q };
  });
  let best: { format: WireFormat; q: number; specificity: number } | undefined;
  for (const c of CANDIDATES) {
    let match: { q: number; specificity: number } | undefined;
    for (const r of ranges) {
      const specificity =
        r.type === c.type && (r.subtype === c.subtype || r.subtype.endsWith(`+${c.subtype}`))
          ? 2
          : r.type === c.type && r.subtype === '*'
            ? 1
            : r.type === '*'
              ? 0
              : -1;
      if (specificity >= 0 && (!match || specificity > match.specificity)) match = { q: r.q, specificity };
    }
    if (!match || match.q <= 0) continue;
    if (!best || match.q > best.q || (match.q === best.q && match.specificity > best.specificity)) best = { format: c.format, ...match };
  }
  return best?.format;
}

/**
 * Whether an Accept header names text/html (with a q above 0): a browser navigating, as opposed to an API client,
 * whose Accept is absent, any type or JSON/XML.
 */
export function acceptsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [range = '', ...params] = part.trim().split(';');
    if (range.trim().toLowerCase() !== 'text/html') return false;
    const q = params.map((p) => p.trim().split('=')).find(([k]) => k?.trim().toLowerCase() === 'q')?.[1];
    return q === undefined || Number(q) > 0;
  });
}
