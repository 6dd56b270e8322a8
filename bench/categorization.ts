/**
 * The categoriser on labelled statement descriptions: payee and category accuracy, and descriptions categorised per
 * second. `npm run bench -- --scenario categorization [--write]`, or alone: `npx tsx bench/categorization.ts [--write]`.
 *
 * Accuracy is over test/fixtures/categorization/labelled.json (the set the categoriser was tuned on, held to its
 * goal by test/unit/categorize-accuracy.test.ts) and held-out.json (written afterwards, never tuned on). Speed is
 * measured three ways: the labelled descriptions over and over (the best representation's memo answers repeats, as
 * it does for the same merchants month after month), every description made distinct (no memo), and hostile 64 KB
 * descriptions.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { categorize } from '../src/connectors/categorize.js';
import { type Accuracy, HELD_OUT, LABELLED, type LabelledDescription, measure, percent } from '../test/helpers/categorization-set.js';
import { machineLine, writeBenchSection } from './lib/report.js';

/** Descriptions per second over `rounds` passes of `texts`, the best of three runs. */
function perSecond(texts: readonly LabelledDescription[], rounds: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    for (let r = 0; r < rounds; r++) for (const t of texts) categorize(t.description, t.memo, t.sign < 0 ? 'debit' : 'credit', 'USA');
    best = Math.min(best, performance.now() - started);
  }
  return (texts.length * rounds) / (best / 1000);
}

function row(name: string, a: Accuracy): string {
  const languages = Object.entries(a.byLanguage)
    .map(([l, v]) => `${l} ${v.count}: ${percent(v.payee, v.count)} / ${percent(v.category, v.count)}`)
    .join('; ');
  return `| ${name} | ${a.count} | ${percent(a.payee, a.count)} (${percent(a.payeeExact, a.count)}) | ${percent(a.category, a.count)} | ${percent(a.categoryWrong, a.count)} | ${languages} |`;
}

export function runCategorization(options: { write: boolean }): void {
  const labelled = measure(LABELLED);
  const heldOut = measure(HELD_OUT);
  // Warm the code paths before timing.
  perSecond(LABELLED, 5);
  const repeated = perSecond(LABELLED, 40);
  let n = 0;
  const distinct = Array.from({ length: 40 }, () => LABELLED.map((t) => ({ ...t, description: `${t.description} ${++n}` }))).flat();
  const fresh = perSecond(distinct, 1);
  const word = (i: number) => `W${i.toString(36).toUpperCase().replace(/\d/g, 'Q')}`;
  const hostileText = Array.from({ length: 9_000 }, (_, i) => word(i)).join(' ');
  // Decoded from bytes, as a file's cell is: a flat string, not a concatenation the first slice would have to copy.
  const cell = (i: number) => Buffer.from(`${hostileText.slice(0, 65_536 - 8)} ${word(i)}`).toString('utf8');
  const hostile = Array.from({ length: 50 }, (_, i): LabelledDescription => ({ ...LABELLED[0]!, description: cell(i) }));
  const hostileRate = perSecond(hostile, 4);
  const table = [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench -- --scenario categorization\` on ${machineLine()}. Payee: the name equals the expected one, letter case aside (in brackets: letter case too). Category: the expected category. Wrong: a category other than the expected one and not \`Uncategorized\` (a guess that looks certain). Per language: payee / category.`,
    '',
    '| set | descriptions | payee | category | wrong category | per language |',
    '|---|---|---|---|---|---|',
    row('labelled (tuned on; goal payee ≥ 90 %, category ≥ 85 %)', labelled),
    row('held out (never tuned on)', heldOut),
    '',
    '| speed | descriptions per second |',
    '|---|---|',
    `| the labelled set, repeated (memo answers the best representation) | ${Math.round(repeated).toLocaleString('en-US')} |`,
    `| every description distinct (no memo) | ${Math.round(fresh).toLocaleString('en-US')} |`,
    `| 64 KB descriptions of distinct words | ${Math.round(hostileRate).toLocaleString('en-US')} |`,
  ].join('\n');
  process.stdout.write(`${table}\n`);
  if (options.write) writeBenchSection('categorization', 'Categorisation: payees and categories', table);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) runCategorization({ write: process.argv.includes('--write') });
