import fs from 'node:fs';
import path from 'node:path';

/**
 * The data directory holds the database, the request log and the master key: nobody but the service's own user
 * should read it. So the directory is 0700 and every file in it 0600; SQLite makes its -wal and -shm files with
 * the mode of their database file, so creating the database files 0600 before SQLite opens them covers those too.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the directory (and missing parents) 0700; an existing one is left as it is (see looseDataPermissions). */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Creates an empty file 0600 unless it exists, so whatever fills it later (SQLite) keeps that mode. */
export function ensurePrivateFile(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

/** The directory and the files in it that group or others may use, with their modes (e.g. "0755"); none on Windows. */
export function looseDataPermissions(dir: string): Array<{ path: string; mode: string }> {
  if (process.platform === 'win32' || !fs.existsSync(dir)) return [];
  const loose: Array<{ path: string; mode: string }> = [];
  const check = (p: string, stat: fs.Stats) => {
    if ((stat.mode & 0o077) !== 0) loose.push({ path: p, mode: `0${(stat.mode & 0o777).toString(8)}` });
  };
  check(dir, fs.statSync(dir));
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    // A file removed meanwhile (SQLite's -journal, say) is simply not checked.
    try {
      if (entry.isFile() || entry.isDirectory()) check(p, fs.statSync(p));
    } catch {}
  }
  return loose;
}

/** Logs one warning naming what others may read in the data directory, and how to close it; answers whether it did. */
export function warnAboutDataPermissions(dir: string, logger: { warn(obj: object, msg: string): void }): boolean {
  const loose = looseDataPermissions(dir);
  if (loose.length === 0) return false;
  logger.warn(
    { dataDir: dir, loose },
    `the data directory is readable by other users of this machine (${loose.map((l) => `${path.basename(l.path)} ${l.mode}`).join(', ')}); ` +
      `it holds the database and the master key: chmod 700 '${dir}' && chmod 600 '${dir}'/*`,
  );
  return true;
}
