/**
 * The worker-thread side of reading a statement file (read-off-thread.ts): reads the file (categorising each
 * transaction, which costs as much as reading), then hands the result back as one block of bytes, moved rather than copied: the accounts and problems as JSON, then
 * each account's transactions as JSON text in chunks. One message, because the service's thread takes in all the
 * messages waiting on a port in one go (fifty chunks held it for a tenth of a second); bytes, because objects would
 * be copied and then walked by its garbage collector for as long as they wait to be stored. Each chunk becomes
 * objects only when its turn to be stored comes.
 */
import fs from 'node:fs';
import os from 'node:os';
import { move } from 'piscina';
import type { ConnectorTransaction } from '../connector.js';
import { StatementFileError } from './csv.js';
import { readStatementFile, type StatementFileOptions } from './file.js';
import type { StatementImport } from './types.js';

// The reader runs at a lower priority than the service's thread, so that on a busy machine the requests being
// answered get the processor first (Linux names a thread's id through /proc; elsewhere the thread keeps its priority).
try {
  os.setPriority(Number(fs.readlinkSync('/proc/thread-self').split('/').pop()), 10);
} catch {}

export interface ReadTask {
  bytes: Uint8Array;
  options: StatementFileOptions;
  chunkSize: number;
}

/** What the file holds of one account's transactions: how many (and with distinct refs), the first and last date (epoch seconds). */
export interface AccountDates {
  count: number;
  distinct: number;
  first: number;
  latest: number;
}

/** Where things are in the bytes handed back: after a 4-byte length, this as JSON, then the chunks. */
export interface ReadIndex {
  read: Omit<StatementImport, 'transactions'>;
  dates: Record<string, AccountDates>;
  /** Byte ranges of the chunks (JSON of ConnectorTransaction[]), an account's in file order. */
  chunks: { accountRef: string; start: number; end: number }[];
}

export type Refusal = { refused: StatementFileError['code']; message: string; details?: unknown };

/** Reads the file: its bytes as described above (moved), or the refusal. */
export default function readStatementTask(task: ReadTask): Refusal | ReturnType<typeof move> {
  let read: StatementImport;
  try {
    read = readStatementFile(task.bytes, task.options);
  } catch (error) {
    if (!(error instanceof StatementFileError)) throw error;
    return { refused: error.code, message: error.message, details: error.details };
  }
  const { transactions, ...head } = read;
  const byAccount = new Map<string, ConnectorTransaction[]>(read.accounts.map((a) => [a.ref, []]));
  for (const t of transactions) byAccount.get(t.accountRef)?.push(t);

  const encoder = new TextEncoder();
  const dates: Record<string, AccountDates> = Object.create(null) as Record<string, AccountDates>;
  const pieces: { accountRef: string; bytes: Uint8Array }[] = [];
  for (const [ref, list] of byAccount) {
    let first = Number.POSITIVE_INFINITY;
    let latest = 0;
    for (const t of list) {
      first = Math.min(first, t.transactionDate);
      latest = Math.max(latest, t.transactionDate);
    }
    dates[ref] = { count: list.length, distinct: new Set(list.map((t) => t.ref)).size, first, latest };
    for (let i = 0; i < list.length; i += task.chunkSize)
      pieces.push({ accountRef: ref, bytes: encoder.encode(JSON.stringify(list.slice(i, i + task.chunkSize))) });
  }
  const chunks: ReadIndex['chunks'] = [];
  let offset = 0;
  for (const p of pieces) {
    chunks.push({ accountRef: p.accountRef, start: offset, end: offset + p.bytes.byteLength });
    offset += p.bytes.byteLength;
  }
  const index = encoder.encode(JSON.stringify({ read: head, dates, chunks } satisfies ReadIndex));
  const out = new Uint8Array(4 + index.byteLength + offset);
  new DataView(out.buffer).setUint32(0, index.byteLength);
  out.set(index, 4);
  const base = 4 + index.byteLength;
  for (let i = 0; i < pieces.length; i++) out.set(pieces[i]!.bytes, base + chunks[i]!.start);
  return move(out.buffer);
}
