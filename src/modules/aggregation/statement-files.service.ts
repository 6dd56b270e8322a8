/**
 * Statement files kept as uploaded (docs/statements.md, "Uploaded files"): the upload that stores a file's records
 * keeps the file too, with the period it gave each of its accounts (from the day of its first transaction to the day
 * of its last), so that the account's statements include that period and Get Asset by Customer and ID offers the
 * original file again. Its pieces are written before the upload's last transaction, each in a short transaction of its
 * own (writeStatementFile); the last transaction marks it stored and notes its periods (keepStatementFile).
 */
import { createHash, randomUUID } from 'node:crypto';
import { STATEMENT_FORMATS, type StatementFormatName } from '../../contract/schemas/statements.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { longWork, readInPieces, writeInPieces } from '../../platform/turns.js';
import {
  countStatementFileChunks,
  insertStatementFile,
  insertStatementFileChunk,
  insertStatementPeriods,
  markStatementFileStored,
  selectStatementFileChunk,
  selectStatementFileChunkSeqs,
} from './statement-files.repository.js';

const DAY = 86_400;

/**
 * The size of the pieces a kept file is written and read in, one per turn of the event loop: a 10 MB file in one
 * statement held the loop for a tenth of a second or more on both databases (docs/benchmarks.md, "Uploads").
 */
export const STATEMENT_FILE_CHUNK = 256 * 1024;

/** The SHA-256 of a file's content in hex, hashed a piece per turn of the event loop. */
export async function contentDigest(content: Uint8Array): Promise<string> {
  const hash = createHash('sha256');
  for (let start = 0; start < content.byteLength; start += 4 * STATEMENT_FILE_CHUNK) {
    if (start > 0) await longWork.turn();
    hash.update(content.subarray(start, start + 4 * STATEMENT_FILE_CHUNK));
  }
  return hash.digest('hex');
}

/** The file an upload writes. */
export interface StatementFileContent {
  partnerId: string;
  customerId: number;
  format: StatementFormatName;
  content: Uint8Array;
  /** Of the content (contentDigest). */
  sha256: string;
  now: number;
}

/**
 * Writes the file's pieces (once per customer and content), each in a transaction of its own taken after everyone
 * else waiting for the database, so that no request waits behind more than one piece and its commit; its asset id,
 * for keepStatementFile. Pieces already there are not written again: an upload of the same file that ended before
 * its last transaction (a process that died) left them, and this one completes the file.
 */
export async function writeStatementFile(database: Pick<Database, 'kysely' | 'yielding'>, file: StatementFileContent): Promise<string> {
  const { id, stored } = await database.kysely.transaction().execute((tx) =>
    insertStatementFile(tx, {
      id: `file-${randomUUID()}`,
      partner_id: file.partnerId,
      customer_id: file.customerId,
      format: file.format,
      media_type: Object.keys(STATEMENT_FORMATS[file.format].media)[0]!,
      sha256: file.sha256,
      size: file.content.byteLength,
      content: new Uint8Array(0),
      created_at: file.now,
      stored_at: null,
    }),
  );
  if (stored) return id;
  const present = await selectStatementFileChunkSeqs(database.kysely, id);
  await writeInPieces(file.content, STATEMENT_FILE_CHUNK, async (seq, content) => {
    if (!present.has(seq)) await insertStatementFileChunk(database.yielding, { file_id: id, seq, content });
  });
  return id;
}

/** What the upload's last transaction notes of its file. */
export interface KeptStatementFile {
  /** From writeStatementFile. */
  fileId: string;
  /** Per stored account, the days of its first and last transaction in the file (epoch seconds); none without transactions. */
  periods: { accountId: number; first: number; latest: number }[];
  now: number;
}

/** Marks the written file stored and notes the periods it gave, in the upload's last transaction. */
export async function keepStatementFile(tx: Executor, file: KeptStatementFile): Promise<void> {
  await markStatementFileStored(tx, file.fileId, file.now);
  await insertStatementPeriods(
    tx,
    file.periods.map((p) => ({
      account_id: p.accountId,
      period_start: Math.floor(p.first / DAY) * DAY,
      period_end: Math.floor(p.latest / DAY) * DAY + DAY - 1,
      file_id: file.fileId,
      created_at: file.now,
    })),
  );
}

/** A kept file's content, read a piece per turn of the event loop. */
export async function statementFileContent(db: Executor, fileId: string): Promise<Buffer> {
  return readInPieces(await countStatementFileChunks(db, fileId), (seq) => selectStatementFileChunk(db, fileId, seq));
}
