/**
 * Query parameters whose values are bearer secrets (whoever holds one can use it): a Connect link's `signature`,
 * OAuth `code` and `state`, and any `...token`, `...secret`, `...key`, `...password`, `...code` a client or link
 * may carry. Matched on the decoded name, case-insensitively, so `%73ignature` or `Access_Token` are caught too.
 */
const SECRET_NAME = /(?:signature|sig|token|secret|password|passwd|key|code|state)$/i;

/**
 * One `name=value` pair of a query string, after `?`, `&` or `;`. The value stops where a URL would end in text,
 * in HTML or in a JSON string (whose escapes, such as `\"`, are taken whole so a JSON line stays well formed).
 */
const PAIR = /([?&;])([^=&;?#\s"'<>\\]+)=((?:\\.|[^&;#\s"'<>\\])*)/g;

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * Replaces the values of secret query parameters in a URL, or in any text holding URLs (a log line), with
 * `[redacted]`. Text without `=` is returned as it is, at the cost of one scan.
 */
export function redactQuerySecrets(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(PAIR, (pair, sep: string, name: string) => (SECRET_NAME.test(decodedName(name)) ? `${sep}${name}=[redacted]` : pair));
}
