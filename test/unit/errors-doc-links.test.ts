import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headingAnchor, linkReferences } from '../../src/contract/errors/doc-links.js';

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));
const ERRORS_MD = path.join(DOCS, 'errors.md');

/** The anchors GitHub gives a Markdown file's headings (code blocks skipped, repeats numbered). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = headingAnchor(heading[1]!);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n += 1) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Why a link from a Markdown file does not resolve, or undefined when its file (and anchor) exist. */
function brokenLink(from: string, target: string): string | undefined {
  const [file = '', anchor] = target.split('#');
  const resolved = path.resolve(path.dirname(from), file);
  if (!fs.existsSync(resolved)) return `${target}: no file ${path.relative(DOCS, resolved)}`;
  if (anchor !== undefined && !anchorsOf(resolved).has(anchor)) return `${target}: no heading with anchor #${anchor}`;
  return undefined;
}

const links = (markdown: string) => [...markdown.matchAll(/\[([^\]]+)\]\(([^)\s]+)\)/g)].map((m) => ({ label: m[1]!, target: m[2]! }));

describe('references in docs/errors.md', () => {
  const doc = fs.readFileSync(ERRORS_MD, 'utf8');

  it('are links whose files and sections exist', () => {
    const found = links(doc);
    expect(found.length).toBeGreaterThan(20);
    expect(found.map((l) => brokenLink(ERRORS_MD, l.target)).filter(Boolean)).toEqual([]);
  });

  it('leave no other document, CLI command or setting named without a link', () => {
    const unlinked = doc.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '');
    expect(unlinked.match(/docs\/[a-z-]+\.md/g) ?? []).toEqual([]);
    expect(unlinked.match(/`ledgerlink [^`]+`/g) ?? []).toEqual([]);
    expect(unlinked.match(/LEDGERLINK_[A-Z_]+/g) ?? []).toEqual([]);
  });

  it('link a document at the section the text names, or the document alone', () => {
    expect(linkReferences('See docs/connectors.md, "Statement files", and docs/security.md.')).toBe(
      'See [docs/connectors.md, "Statement files"](connectors.md#statement-files), and [docs/security.md](security.md).',
    );
    expect(linkReferences('Run `ledgerlink partner unlock` or set LEDGERLINK_MODE=production.')).toBe(
      'Run [`ledgerlink partner unlock`](../README.md#cli) or set [LEDGERLINK_MODE=production](../README.md#configuration).',
    );
    expect(linkReferences('Nothing to link here.')).toBe('Nothing to link here.');
  });

  it('are checked against the files: a missing file or section is reported', () => {
    expect(brokenLink(ERRORS_MD, 'txpush.md#subscribing')).toBeUndefined();
    expect(brokenLink(ERRORS_MD, 'txpush.md#no-such-section')).toMatch(/no heading/);
    expect(brokenLink(ERRORS_MD, 'no-such-file.md')).toMatch(/no file/);
  });

  it('use the anchors GitHub gives headings', () => {
    expect(headingAnchor('Ledgerlink extension: who am I')).toBe('ledgerlink-extension-who-am-i');
    expect(headingAnchor('`profile_01`')).toBe('profile_01');
    expect(headingAnchor('In-memory caches, and why they are never stale')).toBe('in-memory-caches-and-why-they-are-never-stale');
    expect(headingAnchor('The contract with Connect (`linking.service.ts`)')).toBe('the-contract-with-connect-linkingservicets');
  });
});
