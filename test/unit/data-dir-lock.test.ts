import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommandFailed } from '../../src/main/cli/args.js';
import { lockForWorker } from '../../src/main/cli/worker-lock.js';
import { DataDirInUse, HOLDER_FILE, LOCK_FILE, lockDataDir, type DataDirLock } from '../../src/platform/data-dir-lock.js';

describe('the lock on a data directory', () => {
  let root: string;
  let dir: string;
  const locks: DataDirLock[] = [];
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerlink-lock-'));
    dir = path.join(root, 'data');
  });
  afterEach(() => {
    for (const lock of locks.splice(0)) lock.release();
    fs.rmSync(root, { recursive: true, force: true });
  });
  const lock = (command = 'ledgerlink serve') => {
    const l = lockDataDir(dir, command);
    locks.push(l);
    return l;
  };
  const refusal = (command = 'ledgerlink worker'): DataDirInUse => {
    try {
      lock(command);
    } catch (e) {
      if (e instanceof DataDirInUse) return e;
      throw e;
    }
    throw new Error('the second lock was granted');
  };

  it('is refused while held, naming the holder and its address; granted again once released', () => {
    const held = lock();
    expect(refusal().holder).toEqual({ pid: process.pid, command: 'ledgerlink serve' });
    held.describe({ url: 'http://127.0.0.1:8080' });
    const refused = refusal();
    expect(refused.holder).toEqual({ pid: process.pid, command: 'ledgerlink serve', url: 'http://127.0.0.1:8080' });
    expect(refused.message).toBe(
      `the data directory ${dir} is in use by another Ledgerlink process (pid ${process.pid}, ledgerlink serve, listening on http://127.0.0.1:8080)`,
    );
    held.release();
    expect(fs.existsSync(path.join(dir, HOLDER_FILE))).toBe(false);
    lock('ledgerlink worker');
    expect(JSON.parse(fs.readFileSync(path.join(dir, HOLDER_FILE), 'utf8'))).toEqual({ pid: process.pid, command: 'ledgerlink worker' });
  });

  it('does not depend on the holder file: without it the refusal names no one', () => {
    lock();
    fs.rmSync(path.join(dir, HOLDER_FILE));
    const refused = refusal();
    expect(refused.holder).toBeUndefined();
    expect(refused.message).toBe(`the data directory ${dir} is in use by another Ledgerlink process`);
  });

  it.skipIf(process.platform === 'win32')('makes the directory 0700 and its files 0600, and no journal beside them', () => {
    lock();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(dir).sort()).toEqual([LOCK_FILE, HOLDER_FILE].sort());
    for (const name of [LOCK_FILE, HOLDER_FILE]) expect(fs.statSync(path.join(dir, name)).mode & 0o777, name).toBe(0o600);
  });

  it('is taken for a worker on SQLite only, and refused there as a command failure with a hint', () => {
    expect(lockForWorker({ databaseUrl: 'postgres://127.0.0.1/none', dataDir: dir }, 'serve')).toBeUndefined();
    expect(fs.existsSync(dir)).toBe(false);
    const held = lockForWorker({ databaseUrl: undefined, dataDir: dir }, 'serve')!;
    locks.push(held);
    let failure: unknown;
    try {
      lockForWorker({ databaseUrl: undefined, dataDir: dir }, 'worker');
    } catch (e) {
      failure = e;
    }
    expect(failure).toBeInstanceOf(CommandFailed);
    expect((failure as CommandFailed).message).toContain('on SQLite one process per data directory runs the worker');
    expect((failure as CommandFailed).hint).toContain('ledgerlink serve --no-worker');
  });
});
