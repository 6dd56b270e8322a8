/**
 * Statement files built for tests from the formats' rules (OFX 1.x SGML, CSV), of any size: large hostile ones
 * for the cost tests, small ones with planted values for the rest.
 */

export interface OfxStatementTransaction {
  fitId: string;
  /** YYYYMMDD. */
  date: string;
  amount: number;
  name: string;
}

export interface OfxStatementAccount {
  acctId: string;
  transactions: OfxStatementTransaction[];
  balance?: number;
  currency?: string;
}

const OFX_HEADER = `OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

`;

/** An OFX 1.02 bank statement file with one statement per account. */
export function ofxStatementFile(accounts: OfxStatementAccount[], asOf = '20260331'): string {
  const statements = accounts.map((a, i) => {
    const list = a.transactions
      .map(
        (t) =>
          `<STMTTRN><TRNTYPE>${t.amount < 0 ? 'DEBIT' : 'CREDIT'}<DTPOSTED>${t.date}<TRNAMT>${t.amount.toFixed(2)}<FITID>${t.fitId}<NAME>${t.name}</STMTTRN>`,
      )
      .join('\n');
    return `<STMTTRNRS><TRNUID>${i + 1}<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>${a.currency ?? 'USD'}
<BANKACCTFROM><BANKID>121000248<ACCTID>${a.acctId}<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20260101<DTEND>${asOf}
${list}
</BANKTRANLIST><LEDGERBAL><BALAMT>${(a.balance ?? 100).toFixed(2)}<DTASOF>${asOf}</LEDGERBAL></STMTRS></STMTTRNRS>`;
  });
  return `${OFX_HEADER}<OFX>
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>${asOf}<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1>
${statements.join('\n')}
</BANKMSGSRSV1>
</OFX>
`;
}

/** A day of 2026 as YYYYMMDD (day 0 is January 1st). */
export function ofxDay(day: number): string {
  return new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10).replace(/-/g, '');
}

/** A CSV export (Date,Description,Amount) of `rows` rows, each description padded to make rows of about `rowBytes`. */
export function csvStatementFile(rows: number, rowBytes = 32): string {
  const lines = ['Date,Description,Amount'];
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.UTC(2026, 0, 1 + (i % 360)));
    const date = `${String(day.getUTCMonth() + 1).padStart(2, '0')}/${String(day.getUTCDate()).padStart(2, '0')}/2026`;
    const head = `${date},SHOP ${i} `;
    const amount = `,-${(1 + (i % 500)).toFixed(2)}`;
    lines.push(`${head}${'X'.repeat(Math.max(0, rowBytes - head.length - amount.length))}${amount}`);
  }
  return `${lines.join('\n')}\n`;
}
