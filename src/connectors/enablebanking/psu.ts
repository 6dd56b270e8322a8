/**
 * PSD2's PSU headers: while the customer is in Connect, the requests that read a bank carry what their browser sent,
 * which tells the bank the customer is present (such reads do not count against the 4 a day). Each bank names the
 * headers it requires; Enable Banking refuses a request with some of them and not the others, so they go all or none.
 */
import type { PsuContext } from '../connector.js';

/** The headers Enable Banking publishes, by lower-case name: how each is written and where its value comes from. */
const HEADERS: Readonly<Record<string, { name: string; value: (psu: PsuContext) => string | undefined }>> = {
  'psu-ip-address': { name: 'Psu-Ip-Address', value: (psu) => psu.ipAddress },
  'psu-user-agent': { name: 'Psu-User-Agent', value: (psu) => psu.userAgent },
  'psu-referer': { name: 'Psu-Referer', value: (psu) => psu.referer },
  'psu-accept': { name: 'Psu-Accept', value: (psu) => psu.accept },
  'psu-accept-charset': { name: 'Psu-Accept-Charset', value: (psu) => psu.acceptCharset },
  'psu-accept-encoding': { name: 'Psu-Accept-Encoding', value: (psu) => psu.acceptEncoding },
  'psu-accept-language': { name: 'Psu-Accept-Language', value: (psu) => psu.acceptLanguage },
};

/** What an HTTP header value may hold (a browser's own headers do; anything else would make the request fail). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]{1,2048}$/;

/**
 * The PSU headers of a read: every header the bank requires, when the customer is present and their browser gave a
 * value for each; undefined otherwise (no customer, or one header the browser did not send or the connector cannot
 * know, such as Psu-Geo-Location): the read is then unattended. A bank that requires none gets none.
 */
export function psuHeaders(required: readonly string[], psu: PsuContext | undefined): Record<string, string> | undefined {
  if (!psu) return undefined;
  const headers: Record<string, string> = {};
  for (const wanted of required) {
    const known = Object.hasOwn(HEADERS, wanted.toLowerCase()) ? HEADERS[wanted.toLowerCase()] : undefined;
    const value = known?.value(psu)?.trim();
    if (!known || !value || !HEADER_VALUE.test(value)) return undefined;
    headers[known.name] = value;
  }
  return headers;
}
