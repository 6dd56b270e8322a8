import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIsStale, inputsFingerprint, STAMP } from '../../scripts/build-if-stale.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A checkout-like tree: sources, a built CLI, and the stamp of the sources it was built from. */
function builtTree(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-build-'));
  dirs.push(root);
  fs.mkdirSync(path.join(root, 'src', 'main'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'main', 'a.ts'), 'export const a = 1;\n');
  fs.writeFileSync(path.join(root, 'package.json'), '{}\n');
  fs.mkdirSync(path.join(root, 'dist', 'bundle'), { recursive: true });
  fs.writeFileSync(path.join(root, 'dist', 'bundle', 'ledgerlink.js'), '');
  fs.writeFileSync(path.join(root, STAMP), `${inputsFingerprint(root)}\n`);
  return root;
}

describe('npm start builds only when the sources changed', () => {
  it('is fresh right after a build of the same sources', () => {
    expect(buildIsStale(builtTree())).toBe(false);
  });

  it('is stale without a build, or without the record of what it was built from', () => {
    const root = builtTree();
    fs.rmSync(path.join(root, STAMP));
    expect(buildIsStale(root)).toBe(true);
    const other = builtTree();
    fs.rmSync(path.join(other, 'dist', 'bundle', 'ledgerlink.js'));
    expect(buildIsStale(other)).toBe(true);
  });

  it('is stale when a source is touched, changed, added or removed', () => {
    const touched = builtTree();
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(touched, 'src', 'main', 'a.ts'), later, later);
    expect(buildIsStale(touched)).toBe(true);

    const changed = builtTree();
    const file = path.join(changed, 'src', 'main', 'a.ts');
    const { mtime } = fs.statSync(file);
    fs.writeFileSync(file, 'export const a = 22;\n');
    fs.utimesSync(file, mtime, mtime);
    expect(buildIsStale(changed), 'same time, other size').toBe(true);

    const added = builtTree();
    fs.writeFileSync(path.join(added, 'src', 'main', 'b.ts'), '');
    expect(buildIsStale(added)).toBe(true);

    const removed = builtTree();
    fs.rmSync(path.join(removed, 'src', 'main', 'a.ts'));
    expect(buildIsStale(removed)).toBe(true);

    const config = builtTree();
    fs.writeFileSync(path.join(config, 'package.json'), '{"name":"x"}\n');
    expect(buildIsStale(config)).toBe(true);
  });

  it('ignores what the build writes (dist) and files outside its inputs', () => {
    const root = builtTree();
    fs.writeFileSync(path.join(root, 'dist', 'bundle', 'ledgerlink.js'), 'rebuilt');
    fs.writeFileSync(path.join(root, 'notes.txt'), 'not an input');
    expect(buildIsStale(root)).toBe(false);
  });
});
