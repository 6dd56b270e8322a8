import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { ensurePrivateDir, ensurePrivateFile, PRIVATE_FILE_MODE } from './data-dir.js';

/**
 * The worker's lock on a SQLite data directory: one process per directory runs the worker (docs/operations.md), so a
 * second `serve` or `worker` on the same directory is refused instead of starting silently beside the first.
 *
 * The lock is SQLite's own: an exclusive transaction, never committed, on a database file of its own
 * (`worker.lock`, empty). The operating system holds that lock for the process (fcntl on POSIX, LockFileEx on
 * Windows) and drops it when the process ends, however it ends: a process killed with kill -9 leaves nothing that
 * blocks the next start, and nothing has to refresh the lock while it is held. A pid file with a liveness check can be
 * fooled by a reused pid, and lock files judged stale by their age (proper-lockfile) refuse a restart until they
 * are old enough; better-sqlite3 is the database driver already.
 *
 * Who holds it is written beside it (`worker.lock.json`: pid, command, address), only to name the holder to a process
 * that is refused: the lock itself never depends on that file. Nothing in the holding process may open the lock file
 * itself, since closing any descriptor of a file drops the process's POSIX locks on it (SQLite's own connections
 * are safe from this).
 */
export const LOCK_FILE = 'worker.lock';
export const HOLDER_FILE = 'worker.lock.json';

/** What a process holding the lock says about itself. */
export interface LockHolder {
  pid: number;
  /** e.g. `ledgerlink serve`. */
  command: string;
  /** Where it listens, once it does. */
  url?: string;
}

/** Another process holds the lock on the data directory. */
export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    /** Undefined when the holder did not say (it is starting, or its file was removed). */
    readonly holder: LockHolder | undefined,
  ) {
    super(`the data directory ${dataDir} is in use by another Ledgerlink process${holder ? ` (${describeHolder(holder)})` : ''}`);
  }
}

/** A holder in words: `pid 1234, ledgerlink serve, listening on http://127.0.0.1:8080`. */
export function describeHolder(holder: LockHolder): string {
  return [`pid ${holder.pid}`, holder.command, ...(holder.url ? [`listening on ${holder.url}`] : [])].join(', ');
}

export interface DataDirLock {
  /** Adds what the holder tells refused processes (its address once it listens). */
  describe(update: Pick<LockHolder, 'url'>): void;
  /** Drops the lock (ending the process does too). */
  release(): void;
}

/** Connections holding a lock: referenced here so that no garbage collection closes one (which would drop its lock). */
const held = new Set<SQLite.Database>();

/** Takes the lock on `dataDir` (created 0700 if missing) for this process, or throws DataDirInUse at once. */
export function lockDataDir(dataDir: string, command: string): DataDirLock {
  ensurePrivateDir(dataDir);
  const lockFile = path.join(dataDir, LOCK_FILE);
  ensurePrivateFile(lockFile);
  const connection = new SQLite(lockFile, { timeout: 0 });
  try {
    // No journal file: nothing is ever written, the transaction is only there for its lock.
    connection.pragma('journal_mode = MEMORY');
    connection.exec('begin exclusive');
  } catch (e) {
    connection.close();
    if ((e as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirInUse(dataDir, readHolder(dataDir));
    throw e;
  }
  held.add(connection);
  const holderFile = path.join(dataDir, HOLDER_FILE);
  let holder: LockHolder = { pid: process.pid, command };
  writeHolder(holderFile, holder);
  let released = false;
  return {
    describe(update) {
      if (released) return;
      holder = { ...holder, ...update };
      writeHolder(holderFile, holder);
    },
    release() {
      if (released) return;
      released = true;
      // Before the lock goes: afterwards the file may already be the next holder's.
      fs.rmSync(holderFile, { force: true });
      connection.close();
      held.delete(connection);
    },
  };
}

/**
 * Replaces the holder file in one step (a reader never sees half of it), mode 0600. Best effort: the file only names
 * the holder, so failing to write it (a full disk) must not stop a process that holds the lock.
 */
function writeHolder(file: string, holder: LockHolder): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, `${JSON.stringify(holder)}\n`, { mode: PRIVATE_FILE_MODE });
    fs.renameSync(temporary, file);
  } catch {
    fs.rmSync(temporary, { force: true });
  }
}

/** The holder as its file says, if it says (anything unreadable is no answer). */
function readHolder(dataDir: string): LockHolder | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(path.join(dataDir, HOLDER_FILE), 'utf8')) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || typeof value.command !== 'string') return undefined;
    return { pid: value.pid, command: value.command, ...(typeof value.url === 'string' ? { url: value.url } : {}) };
  } catch {
    return undefined;
  }
}
