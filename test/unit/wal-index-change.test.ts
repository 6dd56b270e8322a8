import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, walIndexChange, type Database } from '../../src/platform/db/database.js';

// The change stamp of a SQLite file database reads the WAL index's change counter instead of asking SQLite.
describe('the WAL index change mark', () => {
  let dir: string;
  let file: string;
  let first: Database;
  let second: Database;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-walindex-'));
    file = path.join(dir, 'db.sqlite');
    first = openDatabase({ sqliteFile: file });
    second = openDatabase({ sqliteFile: file });
    await sql`create table items (n integer)`.execute(first.kysely);
  });
  afterEach(async () => {
    await first.close();
    await second.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is what the change stamp reads on a file database, and moves with every commit of any connection, never with reads', async () => {
    const mark = walIndexChange(`${file}-shm`)!;
    expect(mark).toBeDefined();
    try {
      expect(first.changeStamp!()).toMatch(/^\d+:w\d+\.\d+\.\d+$/);
      let before = mark.read();
      let stamp = first.changeStamp!();
      await sql`select * from items`.execute(second.kysely);
      await sql`select * from items`.execute(first.kysely);
      expect(mark.read()).toBe(before);
      expect(first.changeStamp!()).toBe(stamp);
      // Another connection (another process) commits: the first connection's stamp moves without its own write.
      await sql`insert into items values (1)`.execute(second.kysely);
      expect(mark.read()).not.toBe(before);
      expect(first.changeStamp!()).not.toBe(stamp);
      before = mark.read();
      stamp = first.changeStamp!();
      // A checkpoint that restarts the WAL, then a commit: the mark must still differ from every earlier one.
      const seen = new Set([before]);
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(second.kysely);
      seen.add(mark.read());
      await sql`insert into items values (2)`.execute(second.kysely);
      expect(seen.has(mark.read())).toBe(false);
      expect(first.changeStamp!()).not.toBe(stamp);
    } finally {
      mark.close();
    }
  });

  it('gives nothing for a header being written (its two copies differ), an unknown version, or no file', () => {
    const header = Buffer.alloc(96);
    header.writeUInt32LE(3007000, 0);
    header.writeUInt32LE(41, 8);
    header[12] = 1;
    header.copy(header, 48, 0, 48);
    const shm = path.join(dir, 'fake.sqlite-shm');
    fs.writeFileSync(shm, header);
    const mark = walIndexChange(shm)!;
    try {
      expect(mark.read()).toBe('41.0.0');
      // A writer has written the second copy and not yet the first.
      header.writeUInt32LE(42, 56);
      fs.writeFileSync(shm, header);
      expect(mark.read()).toBeUndefined();
      header.writeUInt32LE(42, 8);
      fs.writeFileSync(shm, header);
      expect(mark.read()).toBe('42.0.0');
      // Not initialised.
      header[12] = 0;
      header[60] = 0;
      fs.writeFileSync(shm, header);
      expect(mark.read()).toBeUndefined();
    } finally {
      mark.close();
    }
    header[12] = 1;
    header.writeUInt32LE(3007001, 0);
    header.copy(header, 48, 0, 48);
    fs.writeFileSync(shm, header);
    expect(walIndexChange(shm)).toBeUndefined();
    expect(walIndexChange(path.join(dir, 'none.sqlite-shm'))).toBeUndefined();
  });
});
