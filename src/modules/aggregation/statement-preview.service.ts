/**
 * A statement file's preview: the file read as an upload reads it (the same checks, the same worker read with the same
 * options and the partner's saved mappings, the same refusals), and nothing stored, so a user can see the first rows
 * as they will be stored (their signs, dates and currency) before importing the file.
 */
import type { Static } from 'typebox';
import { STATEMENT_PREVIEW_TRANSACTIONS, type StatementPreview } from '../../contract/schemas/statements.js';
import type { Engine } from './engine.js';
import { readStatementUpload, type StatementUploadInput } from './statements.service.js';

export type StatementPreviewResult = Static<typeof StatementPreview>;

/** What an upload of the file would store: its accounts, how many transactions, the first ones, the problems. */
export async function previewStatementFile(engine: Engine, input: StatementUploadInput): Promise<StatementPreviewResult> {
  const { read } = await readStatementUpload(engine, input);
  const transactions: StatementPreviewResult['transactions'] = [];
  let transactionsRead = 0;
  read.accounts.forEach((account, index) => {
    // As an upload counts them: a reference the file lists twice is stored once.
    transactionsRead += read.dates.get(account.ref)?.distinct ?? 0;
    if (transactions.length === STATEMENT_PREVIEW_TRANSACTIONS) return;
    const seen = new Set<string>();
    // Chunks become records only as they are reached: the first one or two of a file are all a preview needs.
    for (const chunk of read.transactionsOf(account.ref)) {
      for (const t of chunk) {
        if (transactions.length === STATEMENT_PREVIEW_TRANSACTIONS) return;
        if (seen.has(t.ref)) continue;
        seen.add(t.ref);
        transactions.push({
          account: index,
          transactionDate: t.transactionDate,
          postedDate: t.postedDate ?? t.transactionDate,
          description: t.description,
          amount: t.amount,
          currency: account.currency,
        });
      }
    }
  });
  return {
    preview: true,
    format: read.format,
    accounts: read.accounts.map((a) => ({ name: a.name, type: a.type, currency: a.currency })),
    currencyFrom: read.currencyFrom ?? 'file',
    transactionsRead,
    transactions,
    problems: read.problems,
  };
}
