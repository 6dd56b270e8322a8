import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ensurePrivateDir } from './data-dir.js';
import { deriveKey } from './secrets.js';

/** The master key and the purpose-specific keys derived from it. */
export interface Keys {
  derive(purpose: string): Buffer;
}

export function keysFrom(master: Buffer): Keys {
  const cache = new Map<string, Buffer>();
  return {
    derive(purpose) {
      let key = cache.get(purpose);
      if (!key) cache.set(purpose, (key = deriveKey(master, purpose)));
      return key;
    },
  };
}

/** Decodes a configured master key given as 64 hex digits or base64 of 32 bytes. */
export function decodeMasterKey(value: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('LEDGERLINK_MASTER_KEY must be 32 bytes, as 64 hex digits or base64');
  return key;
}

/**
 * The master key: from configuration when given, otherwise from `master.key` in the data directory,
 * created (mode 0600) on first start. Several processes sharing a PostgreSQL database must share the key.
 */
export function loadMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return decodeMasterKey(configured);
  const file = path.join(dataDir, 'master.key');
  ensurePrivateDir(dataDir);
  try {
    fs.writeFileSync(file, randomBytes(32).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  // Another process may have created the file a moment ago and still be writing it.
  for (let attempt = 0; ; attempt++) {
    const text = fs.readFileSync(file, 'utf8').trim();
    if (text || attempt >= 50) return decodeMasterKey(text);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
}
