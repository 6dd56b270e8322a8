/**
 * Statement files kept as uploaded (docs/statements.md, "Uploaded files"): the upload that stores a file's records
 * keeps the file too, in the transaction that ends it, with the period it gave each of its accounts (from the day
 * of its first transaction to the day of its last), so that the account's statements include that period and Get
 * Asset by Customer and ID offers the original file again.
 */
import { createHash, randomUUID } from 'node:crypto';
import { STATEMENT_FORMATS, type StatementFormatName } from '../../contract/schemas/statements.js';
import type { Executor } from '../../platform/db/database.js';
import { longWork, readInPieces, writeInPieces } from '../../platform/turns.js';
import {
  countStatementFileChunks,
  insertStatementFile,
  insertStatementFileChunk,
  insertStatementPeriods,
  selectStatementFileChunk,
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

/** What an upload keeps of its file. */
export interface KeptStatementFile {
  partnerId: string;
  customerId: number;
  format: StatementFormatName;
  content: Uint8Array;
  /** Of the content (contentDigest). */
  sha256: string;
  /** Per stored account, the days of its first and last transaction in the file (epoch seconds); none without transactions. */
  periods: { accountId: number; first: number; latest: number }[];
  now: number;
}

/**
 * Keeps the file (once per customer and content) and the periods it gave, in the upload's last transaction; its asset
 * id. The content is written a piece per turn of the event loop.
 */
export async function keepStatementFile(tx: Executor, file: KeptStatementFile): Promise<string> {
  const newId = `file-${randomUUID()}`;
  const id = await insertStatementFile(tx, {
    id: newId,
    partner_id: file.partnerId,
    customer_id: file.customerId,
    format: file.format,
    media_type: Object.keys(STATEMENT_FORMATS[file.format].media)[0]!,
    sha256: file.sha256,
    size: file.content.byteLength,
    content: new Uint8Array(0),
    created_at: file.now,
  });
  if (id === newId) await writeInPieces(file.content, STATEMENT_FILE_CHUNK, (seq, content) => insertStatementFileChunk(tx, { file_id: id, seq, content }));
  await insertStatementPeriods(
    tx,
    file.periods.map((p) => ({
      account_id: p.accountId,
      period_start: Math.floor(p.first / DAY) * DAY,
      period_end: Math.floor(p.latest / DAY) * DAY + DAY - 1,
      file_id: id,
      created_at: file.now,
    })),
  );
  return id;
}

/** A kept file's content, read a piece per turn of the event loop. */
export async function statementFileContent(db: Executor, fileId: string): Promise<Buffer> {
  return readInPieces(await countStatementFileChunks(db, fileId), (seq) => selectStatementFileChunk(db, fileId, seq));
}
