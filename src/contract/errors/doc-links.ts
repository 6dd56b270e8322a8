/**
 * The references the catalogue's text makes (other documents and their sections, operations, CLI commands,
 * settings) as Markdown links for docs/errors.md. Targets are relative to docs/; test/unit/errors-doc-links.test.ts
 * checks that every file and anchor exists.
 */

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

interface Reference {
  pattern: RegExp;
  target: (match: RegExpExecArray) => string;
}

const to = (target: string) => () => target;

/** Earlier entries win where two match the same text. */
const REFERENCES: Reference[] = [
  // docs/connectors.md, "Statement files": the file, at the section when one is named.
  {
    pattern: /docs\/([a-z-]+)\.md(?:, "([^"]+)")?/g,
    target: (m) => `${m[1]}.md${m[2] ? `#${headingAnchor(m[2])}` : ''}`,
  },
  { pattern: /`ledgerlink listen[^`]*`/g, target: to('sandbox.md#listen') },
  { pattern: /`ledgerlink (?:sandbox|trigger)[^`]*`/g, target: to('sandbox.md#cli') },
  { pattern: /`ledgerlink [^`]+`/g, target: to('../README.md#cli') },
  { pattern: /`\/sandbox\/v1[^`]*`/g, target: to('sandbox.md#http-api') },
  { pattern: /\bLEDGERLINK_[A-Z_]+\b(?:=\w+)?/g, target: to('../README.md#configuration') },
  { pattern: /\/dashboard\/api\b/g, target: to('dashboard.md#the-api-behind-the-pages') },
  { pattern: /\bConnect Fix\b/g, target: to('connect.md#generating-links') },
  { pattern: /\bRefresh Customer Accounts\b/g, target: to('aggregation.md#refreshing') },
  { pattern: /\bAdd Customer\b/g, target: to('customers.md#testing-and-active-customers') },
  { pattern: /\bGet Customers\b/g, target: to('customers.md#get-customers') },
  { pattern: /\bSend Connect E-mail\b/g, target: to('connect.md#e-mail') },
  { pattern: /\bSubscribe to TxPUSH\b/g, target: to('txpush.md#subscribing') },
  { pattern: /\bCreate TxPUSH Test Transaction\b/g, target: to('txpush.md#test-transactions') },
  { pattern: /\bPut Institution Login Error\b/g, target: to('sandbox.md#error-states') },
  { pattern: /\bFire Connect Webhook\b/g, target: to('sandbox.md#connect-webhooks-on-demand') },
  { pattern: /\bFire TxPUSH Event\b/g, target: to('sandbox.md#txpush-events-on-demand') },
  { pattern: /\bUpload Statement File\b/g, target: to('connectors.md#uploading') },
  { pattern: /\boutbound target policy\b/g, target: to('delivery.md#the-outbound-target-policy') },
  { pattern: /\block-out\b/g, target: to('authentication.md#lock-out') },
];

/** The text with each reference made a Markdown link. */
export function linkReferences(text: string): string {
  const found: Array<{ start: number; end: number; label: string; target: string }> = [];
  for (const { pattern, target } of REFERENCES) {
    for (const m of text.matchAll(pattern)) {
      const start = m.index;
      const end = start + m[0].length;
      if (found.some((f) => start < f.end && end > f.start)) continue;
      found.push({ start, end, label: m[0], target: target(m as RegExpExecArray) });
    }
  }
  let out = '';
  let at = 0;
  for (const f of found.sort((a, b) => a.start - b.start)) {
    out += `${text.slice(at, f.start)}[${f.label}](${f.target})`;
    at = f.end;
  }
  return out + text.slice(at);
}
