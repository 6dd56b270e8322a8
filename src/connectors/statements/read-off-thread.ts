/**
 * Reading a statement file off the service's thread: a 10 MB file takes seconds to parse, and the service's thread
 * answers every other request meanwhile. A small pool of worker threads (piscina) reads the files, one each at a
 * time, queueing the rest; the result comes back as one block of bytes (read-worker.ts) whose chunks are made into
 * records one at a time, when they are stored, so that neither taking it in nor keeping it until then ever holds
 * the event loop for long.
 */
import os from 'node:os';
import { Piscina } from 'piscina';
import type { ConnectorTransaction } from '../connector.js';
import { StatementFileError } from './csv.js';
import type { StatementFileOptions } from './file.js';
import type { AccountDates, ReadIndex, ReadTask, Refusal } from './read-worker.js';
import type { StatementImport } from './types.js';

export type { AccountDates } from './read-worker.js';

/** A statement file as read: its accounts and problems, and each account's transactions as connector records. */
export interface ReadStatement extends Omit<StatementImport, 'transactions'> {
  /** How many transactions each account has in the file, and their first and last date. */
  dates: ReadonlyMap<string, AccountDates>;
  /** An account's transactions in file order, a chunk at a time (each made into records when it is reached). */
  transactionsOf(accountRef: string): Iterable<ConnectorTransaction[]>;
}

/** Transactions per chunk: each is made into records within one short turn of the event loop. */
const CHUNK = 200;

// From the sources (tests, `npm run dev`) the worker loads TypeScript through tsx, as its parent does.
const FROM_SOURCES = import.meta.url.endsWith('.ts');

let pool: Piscina | undefined;

function readers(): Piscina {
  pool ??= new Piscina({
    filename: new URL(FROM_SOURCES ? './read-worker.ts' : './read-worker.js', import.meta.url).href,
    ...(FROM_SOURCES ? { execArgv: ['--import', 'tsx'] } : {}),
    minThreads: 0,
    // One core stays with the service's thread.
    maxThreads: Math.max(1, Math.min(2, os.availableParallelism() - 1)),
    // A reader costs memory while it lives; files are rare.
    idleTimeout: 30_000,
    // A file the readers accept needs far less; a hostile one fails its reader, not the service. Not lower: V8 lets
    // the old generation grow less between full collections under a lower limit, and 768 MB cost uploads CPU
    // (docs/benchmarks.md, "Worker threads' heaps and the bundle's strings").
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  });
  return pool;
}

/** Stops the reader threads (a closing service; tests). Reads in progress fail. */
export async function closeStatementReaders(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.destroy();
}

/**
 * Reads an uploaded file as readStatementFile does, in a worker thread, with its transactions as connector records.
 * Refusals are the same StatementFileErrors; a reader that runs out of memory refuses the file as too large. With
 * `transfer`, the bytes' whole buffer is handed to the reader and unusable here afterwards.
 */
export async function readStatementFileOffThread(
  bytes: Uint8Array,
  options: StatementFileOptions = {},
  handOver: { transfer?: boolean } = {},
): Promise<ReadStatement> {
  let answer: Refusal | ArrayBuffer;
  // Moved rather than copied when the caller gives its buffer away (copying 10 MB holds the event loop).
  const transferList = handOver.transfer && bytes.byteLength > 0 ? [bytes.buffer as ArrayBuffer] : [];
  try {
    answer = (await readers().run({ bytes, options, chunkSize: CHUNK } satisfies ReadTask, { transferList })) as Refusal | ArrayBuffer;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw new StatementFileError('too_large', 'The file needs more memory to read than a statement file may; upload a shorter period.');
    }
    throw error;
  }
  if (!(answer instanceof ArrayBuffer)) throw new StatementFileError(answer.refused, answer.message, answer.details);
  const data = new Uint8Array(answer);
  const indexLength = new DataView(answer).getUint32(0);
  const decoder = new TextDecoder();
  const index = JSON.parse(decoder.decode(data.subarray(4, 4 + indexLength))) as ReadIndex;
  const base = 4 + indexLength;
  return {
    ...index.read,
    dates: new Map(Object.entries(index.dates)),
    *transactionsOf(accountRef) {
      for (const c of index.chunks) {
        if (c.accountRef === accountRef) yield JSON.parse(decoder.decode(data.subarray(base + c.start, base + c.end))) as ConnectorTransaction[];
      }
    },
  };
}
