/**
 * A CSV file's layout as a short key, so that a column mapping given for one file is found again for the next file
 * of the same layout (a partner's saved mappings, docs/connectors.md "Saved column mappings"). The key is made of what
 * stays the same from one export of a layout to the next: the header row's names (case, spacing and punctuation
 * aside) and the separator; for a file without a header, how many columns it has and what each holds in its first rows.
 * Rows above the header (a summary block whose lines vary) are not part of it.
 */
import { createHash } from 'node:crypto';
import type { StatementMappingSource } from '../../contract/schemas/statements.js';
import { type CsvDelimiter, type CsvRow, type CsvTable, isDateCell, usedWidth } from './csv.js';
import { type ColumnMapping, headerKey } from './mapping.js';
import { parseAmount } from './values.js';

/** A mapping saved for files whose layout has this fingerprint. */
export interface SavedMapping {
  fingerprint: string;
  mapping: ColumnMapping;
}

/** How a CSV file's columns were told apart, and the key of its layout (StatementImport.layout). */
export interface CsvLayoutUsed {
  fingerprint: string;
  source: StatementMappingSource;
  /** The built-in layout's name (`chase-card`, `generic`...), or `custom` for a given or saved mapping. */
  name: string;
  /** The mapping the file was read with, as checked against it, with the header row it was read from. */
  mapping: ColumnMapping;
}

/** Rows of a file without a header whose cells decide each column's kind. */
const KIND_ROWS = 50;
/** How far down a saved mapping's header row is looked for (as far as layout detection looks). */
const HEADER_SEARCH_ROWS = 50;

const SEPARATOR_NAMES: Record<CsvDelimiter, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab' };

type Shape = 'header' | 'headerless';

/** `header.7.semicolon.<hash>`: what the key is of stays readable, the names or kinds are hashed. */
function fingerprintOf(shape: Shape, width: number, delimiter: CsvDelimiter, parts: readonly string[]): string {
  const prefix = `${shape}.${width}.${SEPARATOR_NAMES[delimiter]}`;
  const hash = createHash('sha256')
    .update(`${prefix}\u0000${parts.join('\u0000')}`)
    .digest('hex')
    .slice(0, 32);
  return `${prefix}.${hash}`;
}

/** The header row's names as compared: headerKey of each cell, trailing empty cells dropped. */
function headerFingerprint(cells: readonly string[], delimiter: CsvDelimiter): string {
  const keys = cells.slice(0, usedWidth(cells as string[])).map(headerKey);
  return fingerprintOf('header', keys.length, delimiter, keys);
}

/** What a column holds in the first rows: dates, amounts, or anything else (text, or nothing). */
function columnKind(cells: readonly string[]): 'date' | 'amount' | 'text' {
  const filled = cells.map((c) => c.trim()).filter((c) => c !== '');
  if (filled.length === 0) return 'text';
  if (filled.every(isDateCell)) return 'date';
  if (filled.every((c) => c.length <= 64 && (parseAmount(c, '.') !== undefined || parseAmount(c, ',') !== undefined))) return 'amount';
  return 'text';
}

/** A file without a header: its width and each column's kind in its first rows. */
function headerlessFingerprint(rows: readonly CsvRow[], delimiter: CsvDelimiter): string {
  const head = rows.slice(0, KIND_ROWS);
  let width = 0;
  for (const row of head) width = Math.max(width, usedWidth(row.cells));
  const kinds = Array.from({ length: width }, (_, i) => columnKind(head.map((r) => r.cells[i] ?? '')));
  return fingerprintOf('headerless', width, delimiter, kinds);
}

/** The fingerprint of a file's layout, its header on `headerRow` (-1: no header). */
export function layoutFingerprint(table: CsvTable, headerRow: number): string {
  const header = headerRow === -1 ? undefined : table.rows[headerRow];
  return header ? headerFingerprint(header.cells, table.delimiter) : headerlessFingerprint(table.rows, table.delimiter);
}

/** The parts of a fingerprint that can be compared before hashing anything. */
function shapeOf(fingerprint: string): { shape: string; width: number; separator: string } | undefined {
  const m = /^(header|headerless)\.(\d+)\.([a-z]+)\./.exec(fingerprint);
  return m ? { shape: m[1]!, width: Number(m[2]), separator: m[3]! } : undefined;
}

/**
 * The saved mapping for this file's layout, with its headerRow set to where the header is in this file (the rows
 * above it may differ from the file it was saved for); undefined when none fits. A header row is looked for among
 * the first rows, only those as wide as a saved header being hashed; a file without a header matches a mapping saved
 * for one without a header.
 */
export function findSavedMapping(table: CsvTable, saved: readonly SavedMapping[] | undefined): SavedMapping | undefined {
  if (!saved || saved.length === 0) return undefined;
  const separator = SEPARATOR_NAMES[table.delimiter];
  const byFingerprint = new Map(saved.map((s) => [s.fingerprint, s]));
  const headerWidths = new Set<number>();
  let headerless = false;
  for (const s of saved) {
    const shape = shapeOf(s.fingerprint);
    if (shape?.separator !== separator) continue;
    if (shape.shape === 'header') headerWidths.add(shape.width);
    else headerless = true;
  }
  const limit = Math.min(table.rows.length, HEADER_SEARCH_ROWS);
  for (let index = 0; index < limit && headerWidths.size > 0; index++) {
    const cells = table.rows[index]!.cells;
    if (!headerWidths.has(usedWidth(cells))) continue;
    const found = byFingerprint.get(headerFingerprint(cells, table.delimiter));
    if (found) return { fingerprint: found.fingerprint, mapping: { ...found.mapping, headerRow: index } };
  }
  if (headerless) {
    const found = byFingerprint.get(headerlessFingerprint(table.rows, table.delimiter));
    if (found) return { fingerprint: found.fingerprint, mapping: { ...found.mapping, headerRow: -1 } };
  }
  return undefined;
}

/**
 * How the file was read: `given` (the upload's mapping), `saved` (one saved for its layout), else the layout detection
 * found: `detected` for the generic layouts (columns told by their names), `built-in` for a bank's known layout.
 */
export function csvLayoutUsed(table: CsvTable, headerRow: number, mapping: ColumnMapping, how: 'given' | 'saved' | string): CsvLayoutUsed {
  const source: StatementMappingSource = how === 'given' || how === 'saved' ? how : how.startsWith('generic') ? 'detected' : 'built-in';
  const name = source === 'given' || source === 'saved' ? 'custom' : how;
  return { fingerprint: layoutFingerprint(table, headerRow), source, name, mapping: { ...mapping, headerRow } };
}
