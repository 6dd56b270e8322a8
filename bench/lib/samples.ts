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
