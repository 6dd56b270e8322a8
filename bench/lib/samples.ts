/**
 * Recorded answers of Ledgerlink, shared by bench/realistic.ts (which records them) and bench/bare-sampled-server.ts
 * (which answers with them): the bare server of a realistic scenario answers each request with bytes Ledgerlink
 * gave for a request of the same kind.
 */

export interface Sample {
  /** The kind of request (see requestKind). */
  kind: string;
  method: string;
  /** Path and query, as sent. */
  url: string;
  status: number;
  contentType: string;
  /** The body, base64. */
  body: string;
}

/**
 * The kind of a request: method, path without its query and with every number replaced by `#`, and the media type
 * it accepts. `GET /aggregation/v3/customers/1005000007/transactions?start=26` with JSON and the same for another
 * customer and page are one kind.
 */
export function requestKind(method: string, url: string, accept: string | undefined): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(/\d+/g, '#');
  return `${method} ${path} ${/xml/i.test(accept ?? '') ? 'xml' : 'json'}`;
}

/**
 * What the bare servers answer with: for each request, the recorded answer of the very same URL when there is one
 * (institution searches: every word is recorded), otherwise the recorded answers of the request's kind in turn
 * (other customers and pages of the same list); undefined for a kind nothing was recorded for. `prepare` turns each
 * recorded answer, once, into what the server sends.
 */
export function answerPicker<T>(
  samples: readonly Sample[],
  prepare: (s: Sample) => T,
): (method: string, url: string, accept: string | undefined) => T | undefined {
  const byUrl = new Map<string, T>();
  const byKind = new Map<string, { answers: T[]; next: number }>();
  for (const s of samples) {
    const a = prepare(s);
    byUrl.set(`${s.kind} ${s.url}`, a);
    const k = byKind.get(s.kind) ?? { answers: [], next: 0 };
    k.answers.push(a);
    byKind.set(s.kind, k);
  }
  return (method, url, accept) => {
    const kind = requestKind(method, url, accept);
    const exact = byUrl.get(`${kind} ${url}`);
    if (exact) return exact;
    const k = byKind.get(kind);
    if (!k) return undefined;
    const a = k.answers[k.next]!;
    k.next = (k.next + 1) % k.answers.length;
    return a;
  };
}
