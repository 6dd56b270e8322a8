/**
 * An uploaded OFX or QFX statement file as a StatementImport. The file is read like a server's answer (QFX is OFX
 * with Intuit's extra INTU.* elements, which are skipped); every statement it holds becomes an account with its
 * transactions, and an investment statement its positions (INVPOSLIST). What cannot be read is named in `problems`,
 * and the rest is still imported.
 */
import type { ConnectorTransaction } from '../connector.js';
import { routingNumberOf } from '../routing-number.js';
import { noteClosingBalance } from './closing-balances.js';
import { MAX_STATEMENT_POSITIONS, type StatementAccount, type StatementImport } from './types.js';
import { accountNameOf, accountRefOf, accountTypeOf, bankTransactionsOf, investmentTransactionsOf, positionRecordOf } from '../ofx/map.js';
import { decodeOfxBytes, type OfxAccountInfo, type OfxResponse, OfxParseError, readOfxResponse } from '../ofx/parse.js';

function describeStatus(code: number, message: string | undefined): string {
  return message ? `status ${code}: ${message}` : `status ${code}`;
}

/** A file's transaction has posted: it is in the statement (its posting date, when the file gives none, its date). */
function posted(t: ConnectorTransaction): ConnectorTransaction {
  return { ...t, status: 'active', postedDate: t.postedDate ?? t.transactionDate };
}

/** Widens the account's stated period by a statement's DTSTART and DTEND (either may be absent). */
function noteStatedPeriod(account: StatementAccount, start: number | undefined, end: number | undefined): void {
  if (start === undefined && end === undefined) return;
  const period = (account.statedPeriod ??= {});
  if (start !== undefined) period.start = period.start === undefined ? start : Math.min(period.start, start);
  if (end !== undefined) period.end = period.end === undefined ? end : Math.max(period.end, end);
}

/** Reads an OFX/QFX file (its text, or its bytes decoded by the character set its header names). */
export function ofxFileToStatementImport(input: string | Uint8Array): StatementImport {
  const result: StatementImport = { format: 'ofx', accounts: [], transactions: [], problems: [] };
  let response: OfxResponse;
  try {
    response = readOfxResponse(typeof input === 'string' ? input : decodeOfxBytes(input));
  } catch (error) {
    if (!(error instanceof OfxParseError)) throw error;
    result.problems.push({ message: `The file is not a readable OFX file: ${error.message}` });
    return result;
  }
  for (const message of response.problems) result.problems.push({ message });
  const signon = response.signon?.status;
  if (signon && signon.code !== 0 && signon.severity === 'ERROR') {
    result.problems.push({ message: `The file holds a refused sign-on (${describeStatus(signon.code, signon.message)}) and no statement` });
    return result;
  }

  const securityById = new Map(response.securities.map((s) => [`${s.id.uniqueIdType}:${s.id.uniqueId}`, s]));
  const infoByRef = new Map<string, OfxAccountInfo>();
  for (const info of response.accountInfo?.accounts ?? []) infoByRef.set(accountRefOf(info.account), info);

  const statements = response.statements.flatMap((s) => {
    if (s.status.severity === 'ERROR' || !s.statement) {
      const which = s.statement ? `account ${s.statement.account.acctId}` : s.trnuid ? `transaction ${s.trnuid}` : 'one account';
      result.problems.push({ message: `The statement of ${which} could not be read (${describeStatus(s.status.code, s.status.message)})` });
      return [];
    }
    return [s.statement];
  });
  if (statements.length === 0 && result.problems.length === 0) result.problems.push({ message: 'The file holds no statement' });

  // The account id is the ref (as the statement-file contract asks), unless two accounts of the file share it.
  const idCount = new Map<string, Set<string>>();
  for (const s of statements) idCount.set(s.account.acctId, (idCount.get(s.account.acctId) ?? new Set()).add(accountRefOf(s.account)));
  const refOf = (s: (typeof statements)[number]) => ((idCount.get(s.account.acctId)?.size ?? 0) > 1 ? accountRefOf(s.account) : s.account.acctId);

  const accounts = new Map<string, StatementAccount>();
  const seenTransactions = new Set<string>();
  for (const s of statements) {
    const ref = refOf(s);
    const info = infoByRef.get(accountRefOf(s.account));
    let account = accounts.get(ref);
    if (!account) {
      account = { ref, type: accountTypeOf(s.account, info), number: s.account.acctId, name: accountNameOf(s.account, info), currency: s.currency };
      const routingNumber = s.account.kind === 'bank' ? routingNumberOf(s.account.bankId) : undefined;
      if (routingNumber) account.routingNumber = routingNumber;
      accounts.set(ref, account);
      result.accounts.push(account);
    }
    noteStatedPeriod(account, s.start, s.end);
    // A file with several statements of one account: the latest balance wins.
    if (s.kind === 'investment') {
      const cash = s.balance?.availableCash ?? 0;
      const balance = Math.round((cash + s.positions.reduce((sum, p) => sum + p.marketValue, 0)) * 100) / 100;
      if (s.balance || s.positions.length > 0) {
        if (account.balanceDate === undefined || (s.asOf ?? 0) >= account.balanceDate) {
          account.balance = balance;
          account.availableBalance = cash;
          if (s.asOf !== undefined) account.balanceDate = s.asOf;
          // The holdings go with the balance they add up to, named from the file's security list as a live statement's.
          const held = s.positions.slice(0, MAX_STATEMENT_POSITIONS);
          account.positions = held.map((p) => positionRecordOf(ref, p, securityById.get(`${p.security.uniqueIdType}:${p.security.uniqueId}`)));
          const more = s.positions.length - held.length;
          if (more > 0)
            result.problems.push({
              message: `Account ${s.account.acctId} has ${more} more positions than the ${MAX_STATEMENT_POSITIONS} kept; they were left out.`,
            });
        }
      }
    } else if (s.ledgerBalance?.asOf !== undefined) noteClosingBalance(account, s.ledgerBalance.asOf, s.ledgerBalance.amount);
    if (s.kind !== 'investment' && s.ledgerBalance && (account.balanceDate === undefined || (s.ledgerBalance.asOf ?? 0) >= account.balanceDate)) {
      account.balance = s.ledgerBalance.amount;
      if (s.ledgerBalance.asOf !== undefined) account.balanceDate = s.ledgerBalance.asOf;
      if (s.availableBalance) account.availableBalance = s.availableBalance.amount;
    }
    const records =
      s.kind === 'investment' ? investmentTransactionsOf(ref, s, response.securities, (fitId) => fitId) : bankTransactionsOf(ref, s, (fitId) => fitId);
    for (const t of records) {
      // The same transaction in two overlapping statements of one account is imported once.
      const key = `${ref}\u0000${t.ref}`;
      if (seenTransactions.has(key)) continue;
      seenTransactions.add(key);
      result.transactions.push(posted(t));
    }
  }
  return result;
}
