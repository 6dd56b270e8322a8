#!/usr/bin/env node
/**
 * Bundles the compiled CLI (dist/main/cli/main.js and everything it imports) into dist/bundle/: the entry
 * (ledgerlink.js, which `bin/ledgerlink.js` runs) and the chunks each command loads when it runs. Node spends most of
 * a process's start resolving, reading and compiling modules one by one (the service's own few hundred and the many
 * small files of Kysely and TypeBox); a bundle starts much sooner (docs/benchmarks.md, "Starting a process"), for
 * every command, `serve`, its workers and HTTP processes.
 *
 * Paths stay those of the files compiled to dist/: each module's `import.meta.url` becomes the URL of its own file
 * there, so assets, the browser apps, the request log's thread and the statement reader's worker are found as before.
 * Packages that read files beside their own code or start threads from them (`__dirname`), and native ones, stay
 * outside the bundle and are loaded from node_modules; the build fails if a bundled package needs its own directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as acorn from 'acorn';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist');
/** The bundle's directory: the entry (ledgerlink.js) and the chunks each command loads when it runs. */
export const BUNDLE_DIR = path.join(DIST, 'bundle');

/** Loaded from node_modules at run time: native code, files read from the package's directory, threads started from it. */
const EXTERNAL = ['better-sqlite3', 'pg-native', 'pdfkit', 'fontkit', 'piscina', 'pino', 'thread-stream', 'pino-pretty', 'geoip-country', '@fastify/swagger'];

const OWN_DIRECTORY = /\b__dirname\b|\b__filename\b|\bimport\.meta\.(?:dirname|filename)\b/;

/** Rewrites `import.meta.url` to the module's own file, and refuses bundled packages that look for their directory. */
const keepFileUrls = {
  name: 'keep-file-urls',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (args.path.includes(`${path.sep}node_modules${path.sep}`) && OWN_DIRECTORY.test(source)) {
        return { errors: [{ text: `${path.relative(ROOT, args.path)} uses its own directory: add its package to EXTERNAL in scripts/bundle.mjs` }] };
      }
      if (!source.includes('import.meta.url')) return undefined;
      const fromBundle = path.relative(BUNDLE_DIR, args.path).split(path.sep).join('/');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), loader: 'js' };
    });
  },
};

export async function bundle() {
  fs.rmSync(BUNDLE_DIR, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: { ledgerlink: path.join(DIST, 'main', 'cli', 'main.js') },
    outdir: BUNDLE_DIR,
    // A command's modules (and the packages only they use) load when it runs, as they do unbundled.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    // Bundled CommonJS packages call require() for Node's modules and the external packages.
    banner: { js: "import { createRequire as __ledgerlinkRequire } from 'node:module';\nconst require = __ledgerlinkRequire(import.meta.url);" },
    sourcemap: 'linked',
    legalComments: 'linked',
    logLevel: 'warning',
    plugins: [keepFileUrls],
  });
  for (const name of fs.readdirSync(BUNDLE_DIR)) {
    if (!name.endsWith('.js')) continue;
    const file = path.join(BUNDLE_DIR, name);
    const source = fs.readFileSync(file, 'utf8');
    const ascii = asciiOnly(source, name);
    if (ascii !== source) fs.writeFileSync(file, ascii);
  }
}

/**
 * The chunk with its remaining non-ASCII characters written as \u escapes. V8 keeps every loaded script's source as a
 * string, and one character above U+00FF makes it a two-byte string: a dash in a comment doubled a 2 MB chunk. esbuild
 * escapes strings, templates and names itself and leaves comments and regular expressions as written; in both an
 * escape means the same character. Anything else (a tagged template's raw text would change) stops the build.
 */
export function asciiOnly(source, name) {
  const at = [...source.matchAll(/[^\x00-\x7f]/g)].map((m) => m.index);
  if (at.length === 0) return source;
  const covered = new Set();
  const cover = (start, end) => {
    // The first position at or after start, by binary search: every token of the chunk asks.
    let k = 0;
    let hi = at.length;
    while (k < hi) {
      const mid = (k + hi) >> 1;
      if (at[mid] < start) k = mid + 1;
      else hi = mid;
    }
    for (; k < at.length && at[k] < end; k++) covered.add(at[k]);
  };
  const tokens = acorn.tokenizer(source, { ecmaVersion: 'latest', sourceType: 'module', onComment: (_block, _text, start, end) => cover(start, end) });
  const { regexp, string, name: identifier } = acorn.tokTypes;
  for (const token of tokens) if (token.type === regexp || token.type === string || token.type === identifier) cover(token.start, token.end);
  let out = '';
  let from = 0;
  for (const i of at) {
    if (!covered.has(i)) {
      const line = source.slice(0, i).split('\n').length;
      throw new Error(`${name}:${line}: a non-ASCII character outside a comment, string, name or regular expression; see asciiOnly in scripts/bundle.mjs`);
    }
    // An escaped character (`\’`) becomes its escape alone: `\\u2019` would be a backslash and four digits.
    let backslashes = 0;
    while (source[i - 1 - backslashes] === '\\') backslashes++;
    out += `${source.slice(from, i - (backslashes % 2))}\\u${source.charCodeAt(i).toString(16).padStart(4, '0')}`;
    from = i + 1;
  }
  return out + source.slice(from);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle();
