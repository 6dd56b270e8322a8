import type { InstitutionRow } from './table.js';

type Column = keyof InstitutionRow;
type Value = InstitutionRow[Column];
type Materialise = (values: readonly Value[], cells: Uint32Array, base: number) => InstitutionRow;

/**
 * Institution rows held compactly: the values (strings, numbers, nulls) in one shared table, each repeated value
 * once, and each row as a run of 32-bit references into it. The catalogue's 11,631 rows of 52 columns then cost
 * about half of what as many row objects do: the low-variety columns (statuses, flags, classes, time zones,
 * states) share a handful of values, and a column that repeats another (the display name) shares its strings.
 *
 * Row objects are made only when asked for (the page a search answers, one institution by id), each a new object
 * equal to the one the database returned: the same properties in the same order with the same values.
 */
export class RowTable {
  private constructor(
    readonly columns: readonly Column[],
    readonly size: number,
    private readonly values: readonly Value[],
    /** Row-major: the cells of row r are cells[r * columns.length ...], each an index into values. */
    private readonly cells: Uint32Array,
    private readonly materialise: Materialise,
  ) {}

  /** Made by RowTableBuilder.finish. */
  static of(columns: readonly Column[], values: readonly Value[], cells: Uint32Array): RowTable {
    return new RowTable(columns, cells.length / Math.max(1, columns.length), values, cells, compileMaterialiser(columns));
  }

  /** The row at this position, as a new object. */
  row(position: number): InstitutionRow {
    return this.materialise(this.values, this.cells, position * this.columns.length);
  }

  /** A reader of one column, for scanning many rows without making row objects (filters, sort keys). */
  reader<K extends Column>(column: K): (position: number) => InstitutionRow[K] {
    const c = this.columns.indexOf(column);
    if (c < 0) throw new Error(`No institution column ${column}`);
    const { values, cells } = this;
    const width = this.columns.length;
    return (position) => values[cells[position * width + c]!] as InstitutionRow[K];
  }
}

/**
 * A function that builds a row from its cells as one object literal, compiled once per column list: several
 * times faster than setting 52 properties by name in a loop, whose keyed stores cannot be specialised.
 */
function compileMaterialiser(columns: readonly Column[]): Materialise {
  if (columns.some((c) => (c as string) === '__proto__')) {
    return (values, cells, base) => Object.fromEntries(columns.map((c, k) => [c, values[cells[base + k]!]])) as InstitutionRow;
  }
  const properties = columns.map((c, k) => `${JSON.stringify(c)}: v[c[b + ${k}]]`).join(', ');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- column names are quoted with JSON.stringify
  return new Function('v', 'c', 'b', `return {${properties}};`) as Materialise;
}

/**
 * A column keeps a dictionary of its distinct values until it has this many; beyond that its values are mostly
 * unique (names, web addresses, phone numbers), and a map of them would only cost memory while loading.
 */
const DICTIONARY_LIMIT = 4096;

/**
 * Collects rows (from the database, a page at a time, or from an older table) and makes a RowTable of them in a
 * chosen order. Values are shared while collecting, so the rows given can be dropped right after `add`: a value
 * seen before in the same column is stored once, and so is a value equal to another mostly-unique column of the
 * same row (the display name that repeats the name).
 */
export class RowTableBuilder {
  private columns: Column[] | undefined;
  /** Per column, its distinct values so far, or undefined once it has too many. */
  private dictionaries: Array<Map<Value, number> | undefined> = [];
  /** The columns without a dictionary, ascending. */
  private readonly unique: number[] = [];
  private readonly values: Value[] = [];
  private cells = new Uint32Array(1024);
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(row: InstitutionRow): void {
    if (!this.columns) {
      this.columns = Object.keys(row) as Column[];
      this.dictionaries = this.columns.map(() => new Map());
    }
    const width = this.columns.length;
    this.reserve((this.count + 1) * width);
    const base = this.count * width;
    for (let k = 0; k < width; k++) this.cells[base + k] = this.intern(k, row[this.columns[k]!], base);
    this.count++;
  }

  /** The value of a collected row (by the order of `add`), e.g. to compute the order to finish in. */
  value<K extends Column>(added: number, column: K): InstitutionRow[K] {
    const c = this.columns!.indexOf(column);
    return this.values[this.cells[added * this.columns!.length + c]!] as InstitutionRow[K];
  }

  /** The table of the collected rows, `order[i]` (an index in the order of `add`) at position i. */
  finish(order: ArrayLike<number>): RowTable {
    const columns = this.columns ?? [];
    const width = columns.length;
    const cells = new Uint32Array(order.length * width);
    for (let i = 0; i < order.length; i++) cells.set(this.cells.subarray(order[i]! * width, (order[i]! + 1) * width), i * width);
    return RowTable.of(columns, this.values.slice(), cells);
  }

  /** The index in `values` of column k's value in the row whose cells start at `base`. */
  private intern(k: number, value: Value, base: number): number {
    const dictionary = this.dictionaries[k];
    if (dictionary) return this.fromDictionary(k, dictionary, value);
    for (const j of this.unique) {
      if (j >= k) break;
      if (this.values[this.cells[base + j]!] === value) return this.cells[base + j]!;
    }
    return this.values.push(value) - 1;
  }

  private fromDictionary(k: number, dictionary: Map<Value, number>, value: Value): number {
    const known = dictionary.get(value);
    if (known !== undefined) return known;
    const id = this.values.push(value) - 1;
    if (dictionary.size < DICTIONARY_LIMIT) {
      dictionary.set(value, id);
    } else {
      this.dictionaries[k] = undefined;
      this.unique.push(k);
      this.unique.sort((a, b) => a - b);
    }
    return id;
  }

  private reserve(length: number): void {
    if (length <= this.cells.length) return;
    const grown = new Uint32Array(Math.max(length, this.cells.length * 2));
    grown.set(this.cells);
    this.cells = grown;
  }
}
