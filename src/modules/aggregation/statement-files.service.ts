/**
 * Statement files kept as uploaded (docs/statements.md, "Uploaded files"): the upload that stores a file's records
 * keeps the file too, in the transaction that ends it, with the period it gave each of its accounts (from the day
 * of its first transaction to the day of its last), so that the account's statements include that period and Get
 * Asset by Customer and ID offers the original file again.
 */
import { createHash, randomUUID } from 'node:crypto';
import { STATEMENT_FORMATS, type StatementFormatName } from '../../contract/schemas/statements.js';
import type { Executor } from '../../platform/db/database.js';
import { insertStatementFile, insertStatementPeriods } from './statement-files.repository.js';

const DAY = 86_400;

/** What an upload keeps of its file. */
export interface KeptStatementFile {
  partnerId: string;
  customerId: number;
  format: StatementFormatName;
  content: Uint8Array;
  /** Per stored account, the days of its first and last transaction in the file (epoch seconds); none without transactions. */
  periods: { accountId: number; first: number; latest: number }[];
  now: number;
}

/** Keeps the file (once per customer and content) and the periods it gave, in the upload's last transaction; its asset id. */
export async function keepStatementFile(tx: Executor, file: KeptStatementFile): Promise<string> {
  const id = await insertStatementFile(tx, {
    id: `file-${randomUUID()}`,
    partner_id: file.partnerId,
    customer_id: file.customerId,
    format: file.format,
    media_type: Object.keys(STATEMENT_FORMATS[file.format].media)[0]!,
    sha256: createHash('sha256').update(file.content).digest('hex'),
    size: file.content.byteLength,
    content: file.content,
    created_at: file.now,
  });
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
