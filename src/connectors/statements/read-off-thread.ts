/**
 * Reading a statement file off the service's thread: a 10 MB file takes seconds to parse, and the service's thread
 * answers every other request meanwhile. A small pool of worker threads (piscina) reads the files, one each at a
 * time, queueing the rest; the result comes back in chunks (read-worker.ts) so that taking it in never holds the
 * event loop for long either.
 */
import os from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { StatementFileError } from './csv.js';
import type { StatementFileOptions } from './file.js';
import type { ConnectorTransaction } from '../connector.js';
import type { ReadMessage, ReadTask } from './read-worker.js';
import type { StatementImport } from './types.js';

/** A statement file as read: its accounts, and its transactions as the connector contract's records (categorised). */
export interface ReadStatement extends Omit<StatementImport, 'transactions'> {
  transactions: ConnectorTransaction[];
}

/** Transactions per message from the reader: each is taken in within one short turn of the event loop. */
const CHUNK = 2_000;

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
    // A file the readers accept needs far less; a hostile one fails its reader, not the service.
    resourceLimits: { maxOldGenerationSizeMb: 768 },
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
 * Refusals are the same StatementFileErrors;
 * a reader that runs out of memory refuses the file as too large.
 */
export async function readStatementFileOffThread(bytes: Uint8Array, options: StatementFileOptions = {}): Promise<ReadStatement> {
  const { port1, port2 } = new MessageChannel();
  let head: Extract<ReadMessage, { kind: 'head' }> | undefined;
  let refused: Extract<ReadMessage, { kind: 'refused' }> | undefined;
  const transactions: ConnectorTransaction[] = [];
  const received = new Promise<void>((resolve) => {
    port1.on('message', (m: ReadMessage) => {
      if (m.kind === 'head') head = m;
      else if (m.kind === 'refused') refused = m;
      else if (m.kind === 'transactions') for (const t of m.transactions) transactions.push(t);
      else resolve();
    });
  });
  const task: ReadTask = { bytes, options, port: port2, chunkSize: CHUNK };
  try {
    await Promise.all([readers().run(task, { transferList: [port2] }), received]);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw new StatementFileError('too_large', 'The file needs more memory to read than a statement file may; upload a shorter period.');
    }
    throw error;
  } finally {
    port1.close();
  }
  if (refused) throw new StatementFileError(refused.code, refused.message, refused.details);
  if (!head) throw new Error('the statement reader answered nothing');
  return { ...head.read, transactions };
}
