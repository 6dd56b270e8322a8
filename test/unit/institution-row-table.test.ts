import { describe, expect, it } from 'vitest';
import { generateCatalog } from '../../src/modules/institutions/catalog/generate.js';
import { RowTableBuilder } from '../../src/modules/institutions/row-table.js';
import type { InstitutionRow } from '../../src/modules/institutions/table.js';

describe('compact institution rows', () => {
  const rows = generateCatalog() as InstitutionRow[];
  const builder = new RowTableBuilder();
  rows.forEach((row) => builder.add(row));
  // Reversed, so positions and the order of `add` differ.
  const order = Int32Array.from(rows, (_r, i) => rows.length - 1 - i);
  const table = builder.finish(order);

  it('gives back every row as it was added: same properties, same order, same values', () => {
    expect(table.size).toBe(rows.length);
    for (let p = 0; p < table.size; p++) {
      const original = rows[order[p]!]!;
      const row = table.row(p);
      expect(Object.keys(row)).toEqual(Object.keys(original));
      expect(row).toEqual(original);
    }
  });

  it('makes a new object each time, so a caller changing one changes nothing else', () => {
    const first = table.row(0);
    first.name = 'changed';
    expect(table.row(0).name).toBe(rows[order[0]!]!.name);
  });

  it('reads single columns without making rows, also columns with more distinct values than a dictionary keeps', () => {
    const phone = table.reader('phone');
    const postal = table.reader('postal_code');
    const newId = table.reader('new_institution_id');
    for (let p = 0; p < table.size; p++) {
      const original = rows[order[p]!]!;
      expect([phone(p), postal(p), newId(p)]).toEqual([original.phone, original.postal_code, original.new_institution_id]);
    }
    expect(() => table.reader('nope' as 'id')).toThrow(/nope/);
  });

  it('reads collected values before finishing', () => {
    expect(builder.value(5, 'name')).toBe(rows[5]!.name);
    expect(builder.value(5, 'search_rank')).toBe(rows[5]!.search_rank);
  });
});
