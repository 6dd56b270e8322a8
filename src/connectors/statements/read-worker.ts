/**
 * The worker-thread side of reading a statement file (read-off-thread.ts): reads the file and turns its
 * transactions into the connector contract's records (categorising each, which costs as much as reading), then
 * posts them to the port it was given in chunks, so that the service's thread takes in a large file a chunk per turn
 * of its event loop instead of one long deserialisation.
 */
import type { MessagePort } from 'node:worker_threads';
import type { ConnectorTransaction } from '../connector.js';
import { StatementFileError } from './csv.js';
import { readStatementFile, type StatementFileOptions } from './file.js';
import { statementTransactionRecord } from './records.js';
import type { StatementImport } from './types.js';

export interface ReadTask {
  bytes: Uint8Array;
  options: StatementFileOptions;
  /** Where the chunks go (ReadMessage, in order; `done` last). */
  port: MessagePort;
  chunkSize: number;
}

export type ReadMessage =
  | { kind: 'head'; read: Omit<StatementImport, 'transactions'>; transactions: number }
  | { kind: 'transactions'; transactions: ConnectorTransaction[] }
  | { kind: 'refused'; code: StatementFileError['code']; message: string; details?: unknown }
  | { kind: 'done' };

/** Reads the file and posts it in chunks; a refusal is posted as such, anything else rejects the task. */
export default function readStatementTask(task: ReadTask): void {
  const { port } = task;
  try {
    let read: StatementImport;
    try {
      read = readStatementFile(task.bytes, task.options);
    } catch (error) {
      if (!(error instanceof StatementFileError)) throw error;
      port.postMessage({ kind: 'refused', code: error.code, message: error.message, details: error.details } satisfies ReadMessage);
      return;
    }
    const { transactions, ...head } = read;
    port.postMessage({ kind: 'head', read: head, transactions: transactions.length } satisfies ReadMessage);
    const currencies = new Map(read.accounts.map((a) => [a.ref, a.currency]));
    for (let i = 0; i < transactions.length; i += task.chunkSize) {
      const chunk = transactions.slice(i, i + task.chunkSize).map((t) => statementTransactionRecord(t, currencies.get(t.accountRef) ?? 'USD'));
      port.postMessage({ kind: 'transactions', transactions: chunk } satisfies ReadMessage);
    }
  } finally {
    port.postMessage({ kind: 'done' } satisfies ReadMessage);
    port.close();
  }
}
