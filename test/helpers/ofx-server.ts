/**
 * A local OFX Direct Connect server for tests: node:http on 127.0.0.1 (a free port), speaking the wire formats real
 * institutions use, 1.x SGML (leaf elements unclosed, or closed with `closeLeaves`) or 2.x XML, per instance.
 *
 * It has users (id and password), each with accounts (checking, savings, money market, credit line, credit card,
 * brokerage with positions and securities) and transactions that tests can replace between requests; it answers
 * ACCTINFORQ, STMTRQ, CCSTMTRQ and INVSTMTRQ, filters statements by DTSTART (inclusive) and DTEND (exclusive) on
 * DTPOSTED or DTTRADE, and can fail per user: any status code on sign-on, on account info or on statements (all, or
 * some accounts), HTTP 500, a garbage body, a delay, or CLIENTUID approval (15510 until the client is approved).
 * Every request is recorded, parsed, so tests can check what the client sent. A user's requests can also be held
 * unanswered until the test releases them (hold, release, whenHeld), so a test decides when a slow institution answers
 * instead of racing a delay.
 *
 *   const server = await startOfxServer({ format: 'sgml', users: [{ userId: 'jane', password: 'pw', accounts: [...] }] });
 *   ... connect to server.url ...
 *   await server.close();
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseOfxDate } from '../../src/connectors/ofx/dates.js';
import { childOf, type OfxElement, parseOfxDocument, leafValue } from '../../src/connectors/ofx/markup.js';

export interface OfxServerTransaction {
  fitId: string;
  /** TRNTYPE, e.g. DEBIT, CREDIT, POS, CHECK. */
  type: string;
  /** DTPOSTED, epoch seconds. */
  posted: number;
  /** DTUSER, epoch seconds. */
  user?: number;
  amount: number;
  name?: string;
  memo?: string;
  checkNum?: string;
}

export interface OfxServerPosition {
  kind: 'STOCK' | 'MF' | 'DEBT' | 'OPT' | 'OTHER';
  uniqueId: string;
  units: number;
  unitPrice: number;
  heldIn?: 'CASH' | 'MARGIN' | 'SHORT' | 'OTHER';
}

export interface OfxServerSecurity {
  kind: 'STOCK' | 'MF' | 'DEBT' | 'OPT' | 'OTHER';
  uniqueId: string;
  name: string;
  ticker?: string;
  unitPrice?: number;
}

export interface OfxServerInvestmentTransaction {
  kind: 'BUYSTOCK' | 'SELLSTOCK' | 'BUYMF' | 'SELLMF' | 'INCOME' | 'REINVEST';
  fitId: string;
  /** DTTRADE, epoch seconds. */
  trade: number;
  uniqueId: string;
  units?: number;
  unitPrice?: number;
  total: number;
  incomeType?: 'DIV' | 'INTEREST' | 'CGLONG' | 'CGSHORT' | 'MISC';
  memo?: string;
}

interface AccountBase {
  acctId: string;
  description?: string;
  /** SVCSTATUS in the account list; ACTIVE unless given. */
  serviceStatus?: 'ACTIVE' | 'PEND' | 'AVAIL';
  /** CURDEF of its statements, sent as given; USD unless given. */
  currency?: string;
}

export type OfxServerAccount =
  | (AccountBase & {
      kind: 'bank';
      bankId: string;
      acctType: 'CHECKING' | 'SAVINGS' | 'MONEYMRKT' | 'CREDITLINE' | 'CD';
      balance: number;
      available?: number;
      transactions?: OfxServerTransaction[];
    })
  | (AccountBase & { kind: 'creditCard'; balance: number; available?: number; transactions?: OfxServerTransaction[] })
  | (AccountBase & {
      kind: 'investment';
      brokerId: string;
      /** USPRODUCTTYPE, e.g. 401K, IRA, NORMAL. */
      productType?: string;
      cash: number;
      positions?: OfxServerPosition[];
      transactions?: OfxServerInvestmentTransaction[];
    });

export interface OfxServerFailure {
  /** A status code for SONRS (15500, 15510, 15502, 3000, ...). */
  signon?: number;
  signonMessage?: string;
  /** A status code for ACCTINFOTRNRS. */
  accountInfo?: number;
  /** A status code for statement transactions; with `statementAccounts`, only for those ACCTIDs. */
  statement?: number;
  statementMessage?: string;
  statementAccounts?: string[];
  /** Answer every request with this HTTP status and an HTML body. */
  http?: number;
  /** Answer every request with a body that is not OFX. */
  garbage?: boolean;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface OfxServerUser {
  userId: string;
  password: string;
  accounts: OfxServerAccount[];
  securities?: OfxServerSecurity[];
  failure?: OfxServerFailure;
  /** Refuse sign-on with 15510 unless the CLIENTUID sent has been approved (approveClientUid). */
  requireClientUid?: boolean;
}

export interface OfxServerOptions {
  format: 'sgml' | 'xml';
  /** The version the answers declare; 102 for SGML and 211 for XML unless given. */
  version?: number;
  users: OfxServerUser[];
  org?: string;
  fid?: string;
  /** SGML only: close leaf elements too, as some servers do. */
  closeLeaves?: boolean;
}

export interface RecordedOfxTransaction {
  kind: 'accountInfo' | 'bank' | 'creditCard' | 'investment' | 'other';
  trnuid?: string;
  acctId?: string;
  bankId?: string;
  acctType?: string;
  brokerId?: string;
  dtAcctUp?: string;
  dtStart?: string;
  dtEnd?: string;
  includeTransactions?: boolean;
  includePositions?: boolean;
  includeBalance?: boolean;
  includeOpenOrders?: boolean;
}

export interface RecordedOfxRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Why the body could not be read as OFX, when it could not. */
  parseError?: string;
  syntax?: 'sgml' | 'xml';
  headerFields?: Record<string, string>;
  version?: number;
  signon?: {
    dtClient?: string;
    userId?: string;
    password?: string;
    language?: string;
    org?: string;
    fid?: string;
    appId?: string;
    appVer?: string;
    clientUid?: string;
  };
  transactions: RecordedOfxTransaction[];
}

export interface OfxServer {
  url: string;
  /** Every request received, oldest first. */
  requests: RecordedOfxRequest[];
  close(): Promise<void>;
  /** Replaces an account's transactions (bank, credit card or investment ones, by the account's kind). */
  setTransactions(userId: string, acctId: string, transactions: OfxServerTransaction[] | OfxServerInvestmentTransaction[]): void;
  setAccounts(userId: string, accounts: OfxServerAccount[]): void;
  setFailure(userId: string, failure: OfxServerFailure | undefined): void;
  /** Lets this CLIENTUID sign on as the user (as approving a new device at the institution does). */
  approveClientUid(userId: string, clientUid: string): void;
  /** From now on the user's requests wait unanswered (recorded as they arrive) until release(userId). */
  hold(userId: string): void;
  /** Stops holding the user's requests and answers those waiting. */
  release(userId: string): void;
  /** Requests waiting now: the user's, or everyone's. */
  heldCount(userId?: string): number;
  /** The most requests that waited at one time since the server started. */
  peakHeld(): number;
  /** Resolves once at least `count` requests wait: the user's, or everyone's. */
  whenHeld(count: number, userId?: string): Promise<void>;
}

type Node = readonly [name: string, content: string | readonly (Node | undefined)[]];

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function ofxDate(epochSeconds: number, xml: boolean): string {
  const d = new Date(epochSeconds * 1000);
  const text = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  // XML answers carry a zone, SGML ones rely on the GMT default: both forms are common.
  return xml ? `${text}.000[0:GMT]` : text;
}

/** A request date: a date alone is the start of that day (GMT), as the specification reads it. */
function requestDate(value: string | undefined): number | undefined {
  const at = parseOfxDate(value);
  if (at === undefined || value === undefined) return undefined;
  return /^\d{8}$/.test(value.trim()) ? at - 12 * 3600 : at;
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function render(node: Node, xml: boolean, closeLeaves: boolean, out: string[]): void {
  const [name, content] = node;
  if (typeof content === 'string') {
    out.push(xml || closeLeaves ? `<${name}>${escapeText(content)}</${name}>` : `<${name}>${escapeText(content)}`);
    return;
  }
  out.push(`<${name}>`);
  for (const child of content) if (child) render(child, xml, closeLeaves, out);
  out.push(`</${name}>`);
}

function status(code: number, message?: string): Node {
  const severity = code === 0 ? 'INFO' : 'ERROR';
  return ['STATUS', [['CODE', String(code)], ['SEVERITY', severity], message ? ['MESSAGE', message] : undefined]];
}

const money = (n: number) => n.toFixed(2);

function recordTransaction(wrapper: OfxElement): RecordedOfxTransaction {
  const trnuid = leafValue(wrapper, 'TRNUID');
  const base = (kind: RecordedOfxTransaction['kind']): RecordedOfxTransaction => (trnuid === undefined ? { kind } : { kind, trnuid });
  const withWindow = (t: RecordedOfxTransaction, rq: OfxElement | undefined) => {
    const inctran = childOf(rq, 'INCTRAN');
    const start = leafValue(inctran, 'DTSTART');
    const end = leafValue(inctran, 'DTEND');
    if (start !== undefined) t.dtStart = start;
    if (end !== undefined) t.dtEnd = end;
    if (inctran) t.includeTransactions = (leafValue(inctran, 'INCLUDE') ?? 'Y').toUpperCase() === 'Y';
    return t;
  };
  switch (wrapper.name) {
    case 'ACCTINFOTRNRQ': {
      const t = base('accountInfo');
      const up = leafValue(wrapper, 'ACCTINFORQ', 'DTACCTUP');
      if (up !== undefined) t.dtAcctUp = up;
      return t;
    }
    case 'STMTTRNRQ': {
      const rq = childOf(wrapper, 'STMTRQ');
      const from = childOf(rq, 'BANKACCTFROM');
      return withWindow(
        { ...base('bank'), acctId: leafValue(from, 'ACCTID') ?? '', bankId: leafValue(from, 'BANKID') ?? '', acctType: leafValue(from, 'ACCTTYPE') ?? '' },
        rq,
      );
    }
    case 'CCSTMTTRNRQ': {
      const rq = childOf(wrapper, 'CCSTMTRQ');
      return withWindow({ ...base('creditCard'), acctId: leafValue(rq, 'CCACCTFROM', 'ACCTID') ?? '' }, rq);
    }
    case 'INVSTMTTRNRQ': {
      const rq = childOf(wrapper, 'INVSTMTRQ');
      const t = withWindow(
        { ...base('investment'), acctId: leafValue(rq, 'INVACCTFROM', 'ACCTID') ?? '', brokerId: leafValue(rq, 'INVACCTFROM', 'BROKERID') ?? '' },
        rq,
      );
      t.includePositions = (leafValue(rq, 'INCPOS', 'INCLUDE') ?? 'N').toUpperCase() === 'Y';
      t.includeBalance = (leafValue(rq, 'INCBAL') ?? 'N').toUpperCase() === 'Y';
      t.includeOpenOrders = (leafValue(rq, 'INCOO') ?? 'N').toUpperCase() === 'Y';
      return t;
    }
    default:
      return base('other');
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1 << 20) {
        reject(new Error('request too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const SECURITY_INFO: Record<OfxServerSecurity['kind'], string> = { STOCK: 'STOCKINFO', MF: 'MFINFO', DEBT: 'DEBTINFO', OPT: 'OPTINFO', OTHER: 'OTHERINFO' };

/** Starts the server; close() stops it. */
export async function startOfxServer(options: OfxServerOptions): Promise<OfxServer> {
  const xml = options.format === 'xml';
  const version = options.version ?? (xml ? 211 : 102);
  const users = new Map(options.users.map((u) => [u.userId, { ...u, accounts: [...u.accounts] }]));
  const approved = new Map<string, Set<string>>();
  const requests: RecordedOfxRequest[] = [];
  const holding = new Set<string>();
  const held: Array<{ userId: string; answer: () => void }> = [];
  const heldWaiters: Array<{ count: number; userId: string | undefined; resolve: () => void }> = [];
  let peak = 0;
  const heldCount = (userId?: string) => held.filter((h) => userId === undefined || h.userId === userId).length;
  const answerHeld = (userId?: string) => {
    for (const h of held.filter((w) => userId === undefined || w.userId === userId)) {
      held.splice(held.indexOf(h), 1);
      h.answer();
    }
  };
  const wait = (userId: string) =>
    new Promise<void>((answer) => {
      held.push({ userId, answer });
      peak = Math.max(peak, held.length);
      for (const w of heldWaiters.filter((x) => heldCount(x.userId) >= x.count)) {
        heldWaiters.splice(heldWaiters.indexOf(w), 1);
        w.resolve();
      }
    });

  const header = xml
    ? `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\r\n<?OFX OFXHEADER="200" VERSION="${version}" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\r\n`
    : `OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:${version}\r\nSECURITY:NONE\r\nENCODING:USASCII\r\nCHARSET:1252\r\nCOMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n`;
  const document = (sets: Node[]): string => {
    const out: string[] = [];
    render(['OFX', sets], xml, options.closeLeaves ?? false, out);
    return header + out.join('\r\n') + '\r\n';
  };

  const accountFrom = (a: OfxServerAccount): Node => {
    if (a.kind === 'bank') {
      return [
        'BANKACCTFROM',
        [
          ['BANKID', a.bankId],
          ['ACCTID', a.acctId],
          ['ACCTTYPE', a.acctType],
        ],
      ];
    }
    if (a.kind === 'creditCard') return ['CCACCTFROM', [['ACCTID', a.acctId]]];
    return [
      'INVACCTFROM',
      [
        ['BROKERID', a.brokerId],
        ['ACCTID', a.acctId],
      ],
    ];
  };

  const accountInfo = (a: OfxServerAccount): Node => {
    const svc = a.serviceStatus ?? 'ACTIVE';
    const wrapper =
      a.kind === 'bank'
        ? (['BANKACCTINFO', [accountFrom(a), ['SUPTXDL', 'Y'], ['XFERSRC', 'Y'], ['XFERDEST', 'Y'], ['SVCSTATUS', svc]]] as Node)
        : a.kind === 'creditCard'
          ? (['CCACCTINFO', [accountFrom(a), ['SUPTXDL', 'Y'], ['XFERSRC', 'N'], ['XFERDEST', 'N'], ['SVCSTATUS', svc]]] as Node)
          : ([
              'INVACCTINFO',
              [
                accountFrom(a),
                ['USPRODUCTTYPE', a.productType ?? 'NORMAL'],
                ['CHECKING', 'N'],
                ['SVCSTATUS', svc],
                ['INVACCTTYPE', 'INDIVIDUAL'],
                ['OPTIONLEVEL', 'NONE'],
              ],
            ] as Node);
    return ['ACCTINFO', [a.description ? ['DESC', a.description] : undefined, wrapper]];
  };

  const inWindow = (at: number, t: RecordedOfxTransaction) => {
    const start = requestDate(t.dtStart);
    const end = requestDate(t.dtEnd);
    return (start === undefined || at >= start) && (end === undefined || at < end);
  };

  const bankTransaction = (t: OfxServerTransaction): Node => [
    'STMTTRN',
    [
      ['TRNTYPE', t.type],
      ['DTPOSTED', ofxDate(t.posted, xml)],
      t.user === undefined ? undefined : ['DTUSER', ofxDate(t.user, xml)],
      ['TRNAMT', money(t.amount)],
      ['FITID', t.fitId],
      t.checkNum === undefined ? undefined : ['CHECKNUM', t.checkNum],
      t.name === undefined ? undefined : ['NAME', t.name],
      t.memo === undefined ? undefined : ['MEMO', t.memo],
    ],
  ];

  const investmentTransaction = (t: OfxServerInvestmentTransaction): Node => {
    const invtran: Node = ['INVTRAN', [['FITID', t.fitId], ['DTTRADE', ofxDate(t.trade, xml)], t.memo === undefined ? undefined : ['MEMO', t.memo]]];
    const secid: Node = [
      'SECID',
      [
        ['UNIQUEID', t.uniqueId],
        ['UNIQUEIDTYPE', 'CUSIP'],
      ],
    ];
    const units = t.units === undefined ? undefined : (['UNITS', String(t.units)] as Node);
    const price = t.unitPrice === undefined ? undefined : (['UNITPRICE', String(t.unitPrice)] as Node);
    if (t.kind.startsWith('BUY')) {
      return [
        t.kind,
        [
          ['INVBUY', [invtran, secid, units, price, ['TOTAL', money(t.total)], ['SUBACCTSEC', 'CASH'], ['SUBACCTFUND', 'CASH']]],
          ['BUYTYPE', 'BUY'],
        ],
      ];
    }
    if (t.kind.startsWith('SELL')) {
      return [
        t.kind,
        [
          ['INVSELL', [invtran, secid, units, price, ['TOTAL', money(t.total)], ['SUBACCTSEC', 'CASH'], ['SUBACCTFUND', 'CASH']]],
          ['SELLTYPE', 'SELL'],
        ],
      ];
    }
    if (t.kind === 'INCOME') {
      return ['INCOME', [invtran, secid, ['INCOMETYPE', t.incomeType ?? 'DIV'], ['TOTAL', money(t.total)], ['SUBACCTSEC', 'CASH'], ['SUBACCTFUND', 'CASH']]];
    }
    return ['REINVEST', [invtran, secid, ['INCOMETYPE', t.incomeType ?? 'DIV'], ['TOTAL', money(t.total)], ['SUBACCTSEC', 'CASH'], units, price]];
  };

  const statement = (
    user: OfxServerUser,
    t: RecordedOfxTransaction,
    now: number,
    securitiesUsed: Set<string>,
  ): { set: 'BANKMSGSRSV1' | 'CREDITCARDMSGSRSV1' | 'INVSTMTMSGSRSV1'; node: Node } => {
    const kind = t.kind as 'bank' | 'creditCard' | 'investment';
    const set = kind === 'bank' ? 'BANKMSGSRSV1' : kind === 'creditCard' ? 'CREDITCARDMSGSRSV1' : 'INVSTMTMSGSRSV1';
    const trnrs = kind === 'bank' ? 'STMTTRNRS' : kind === 'creditCard' ? 'CCSTMTTRNRS' : 'INVSTMTTRNRS';
    const trnuid: Node = ['TRNUID', t.trnuid ?? '0'];
    const account = user.accounts.find(
      (a) => a.kind === kind && a.acctId === t.acctId && (a.kind !== 'bank' || (a.bankId === t.bankId && a.acctType === t.acctType)),
    );
    if (!account) return { set, node: [trnrs, [trnuid, status(2003, 'Account not found')]] };
    const f = user.failure;
    if (f?.statement !== undefined && (!f.statementAccounts || f.statementAccounts.includes(account.acctId))) {
      return { set, node: [trnrs, [trnuid, status(f.statement, f.statementMessage)]] };
    }
    const range: Node[] = [
      ['DTSTART', ofxDate(requestDate(t.dtStart) ?? now - 365 * 86400, xml)],
      ['DTEND', ofxDate(requestDate(t.dtEnd) ?? now, xml)],
    ];
    if (account.kind === 'investment') {
      const trades = t.includeTransactions === false ? [] : (account.transactions ?? []).filter((x) => inWindow(x.trade, t));
      for (const x of trades) securitiesUsed.add(x.uniqueId);
      const positions = t.includePositions ? (account.positions ?? []) : [];
      for (const p of positions) securitiesUsed.add(p.uniqueId);
      const rs: Node = [
        'INVSTMTRS',
        [
          ['DTASOF', ofxDate(now, xml)],
          ['CURDEF', account.currency ?? 'USD'],
          accountFrom(account),
          ['INVTRANLIST', [...range, ...trades.map(investmentTransaction)]],
          t.includePositions
            ? [
                'INVPOSLIST',
                positions.map(
                  (p): Node => [
                    `POS${p.kind}`,
                    [
                      [
                        'INVPOS',
                        [
                          [
                            'SECID',
                            [
                              ['UNIQUEID', p.uniqueId],
                              ['UNIQUEIDTYPE', 'CUSIP'],
                            ],
                          ],
                          ['HELDINACCT', p.heldIn ?? 'CASH'],
                          ['POSTYPE', 'LONG'],
                          ['UNITS', String(p.units)],
                          ['UNITPRICE', String(p.unitPrice)],
                          ['MKTVAL', money(p.units * p.unitPrice)],
                          ['DTPRICEASOF', ofxDate(now, xml)],
                        ],
                      ],
                    ],
                  ],
                ),
              ]
            : undefined,
          t.includeBalance
            ? [
                'INVBAL',
                [
                  ['AVAILCASH', money(account.cash)],
                  ['MARGINBALANCE', '0.00'],
                  ['SHORTBALANCE', '0.00'],
                ],
              ]
            : undefined,
        ],
      ];
      return { set, node: [trnrs, [trnuid, status(0), rs]] };
    }
    const transactions = t.includeTransactions === false ? [] : (account.transactions ?? []).filter((x) => inWindow(x.posted, t));
    const rs: Node = [
      kind === 'bank' ? 'STMTRS' : 'CCSTMTRS',
      [
        ['CURDEF', account.currency ?? 'USD'],
        accountFrom(account),
        ['BANKTRANLIST', [...range, ...transactions.map(bankTransaction)]],
        [
          'LEDGERBAL',
          [
            ['BALAMT', money(account.balance)],
            ['DTASOF', ofxDate(now, xml)],
          ],
        ],
        account.available === undefined
          ? undefined
          : [
              'AVAILBAL',
              [
                ['BALAMT', money(account.available)],
                ['DTASOF', ofxDate(now, xml)],
              ],
            ],
      ],
    ];
    return { set, node: [trnrs, [trnuid, status(0), rs]] };
  };

  const answer = (record: RecordedOfxRequest, root: OfxElement): string => {
    const sonrq = childOf(childOf(root, 'SIGNONMSGSRQV1'), 'SONRQ');
    const dtClient = leafValue(sonrq, 'DTCLIENT');
    const now = parseOfxDate(dtClient) ?? Math.floor(Date.now() / 1000);
    const sonrs = (code: number, message?: string): Node => [
      'SIGNONMSGSRSV1',
      [
        [
          'SONRS',
          [
            status(code, message),
            ['DTSERVER', ofxDate(now, xml)],
            ['LANGUAGE', 'ENG'],
            options.org === undefined
              ? undefined
              : [
                  'FI',
                  [
                    ['ORG', options.org],
                    ['FID', options.fid ?? ''],
                  ],
                ],
          ],
        ],
      ],
    ];
    const user = users.get(record.signon?.userId ?? '');
    if (!user || user.password !== record.signon?.password) return document([sonrs(15500, 'Invalid user ID or password')]);
    if (user.failure?.signon !== undefined) return document([sonrs(user.failure.signon, user.failure.signonMessage)]);
    const clientUid = record.signon?.clientUid;
    if (user.requireClientUid && (!clientUid || !approved.get(user.userId)?.has(clientUid))) {
      return document([sonrs(15510, 'Please verify this device: sign in to online banking and approve the new connection within 7 days')]);
    }
    const sets = new Map<string, Node[]>();
    const add = (set: string, node: Node) => sets.set(set, [...(sets.get(set) ?? []), node]);
    const securitiesUsed = new Set<string>();
    for (const t of record.transactions) {
      if (t.kind === 'accountInfo') {
        const code = user.failure?.accountInfo;
        add(
          'SIGNUPMSGSRSV1',
          code === undefined
            ? ['ACCTINFOTRNRS', [['TRNUID', t.trnuid ?? '0'], status(0), ['ACCTINFORS', [['DTACCTUP', ofxDate(now, xml)], ...user.accounts.map(accountInfo)]]]]
            : ['ACCTINFOTRNRS', [['TRNUID', t.trnuid ?? '0'], status(code)]],
        );
      } else if (t.kind !== 'other') {
        const { set, node } = statement(user, t, now, securitiesUsed);
        add(set, node);
      }
    }
    const securities = (user.securities ?? []).filter((s) => securitiesUsed.has(s.uniqueId));
    if (securities.length > 0) {
      add('SECLISTMSGSRSV1', [
        'SECLIST',
        securities.map(
          (s): Node => [
            SECURITY_INFO[s.kind],
            [
              [
                'SECINFO',
                [
                  [
                    'SECID',
                    [
                      ['UNIQUEID', s.uniqueId],
                      ['UNIQUEIDTYPE', 'CUSIP'],
                    ],
                  ],
                  ['SECNAME', s.name],
                  s.ticker === undefined ? undefined : ['TICKER', s.ticker],
                  s.unitPrice === undefined ? undefined : ['UNITPRICE', String(s.unitPrice)],
                ],
              ],
            ],
          ],
        ),
      ]);
    }
    const order = ['SIGNUPMSGSRSV1', 'BANKMSGSRSV1', 'CREDITCARDMSGSRSV1', 'INVSTMTMSGSRSV1', 'SECLISTMSGSRSV1'];
    return document([sonrs(0), ...order.filter((s) => sets.has(s)).map((s): Node => [s, sets.get(s) ?? []])]);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const record: RecordedOfxRequest = { method: req.method ?? '', path: req.url ?? '', headers: { ...req.headers }, body, transactions: [] };
    requests.push(record);
    let root: OfxElement | undefined;
    try {
      const doc = parseOfxDocument(body);
      root = doc.root;
      record.syntax = doc.header.syntax;
      record.headerFields = doc.header.fields;
      if (doc.header.version !== undefined) record.version = doc.header.version;
      const sonrq = childOf(childOf(root, 'SIGNONMSGSRQV1'), 'SONRQ');
      const signon: NonNullable<RecordedOfxRequest['signon']> = {};
      const fields = [
        ['dtClient', 'DTCLIENT'],
        ['userId', 'USERID'],
        ['password', 'USERPASS'],
        ['language', 'LANGUAGE'],
        ['appId', 'APPID'],
        ['appVer', 'APPVER'],
        ['clientUid', 'CLIENTUID'],
      ] as const;
      for (const [key, name] of fields) {
        const value = leafValue(sonrq, name);
        if (value !== undefined) signon[key] = value;
      }
      const org = leafValue(sonrq, 'FI', 'ORG');
      const fid = leafValue(sonrq, 'FI', 'FID');
      if (org !== undefined) signon.org = org;
      if (fid !== undefined) signon.fid = fid;
      record.signon = signon;
      for (const set of root.children) {
        if (set.name === 'SIGNONMSGSRQV1') continue;
        for (const wrapper of set.children) record.transactions.push(recordTransaction(wrapper));
      }
    } catch (error) {
      record.parseError = error instanceof Error ? error.message : String(error);
    }
    const userId = record.signon?.userId ?? '';
    if (holding.has(userId)) await wait(userId);
    const failure = users.get(userId)?.failure;
    if (failure?.delayMs) await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
    if (failure?.http !== undefined) {
      res.writeHead(failure.http, { 'Content-Type': 'text/html' });
      res.end('<html><body><h1>Internal Server Error</h1></body></html>');
      return;
    }
    if (failure?.garbage) {
      res.writeHead(200, { 'Content-Type': 'application/x-ofx' });
      res.end('<html><head><title>Maintenance</title></head><body>We are down for scheduled maintenance.</body></html>');
      return;
    }
    if (!root || req.method !== 'POST') {
      res.writeHead(400, { 'Content-Type': 'text/plain' });
      res.end('Bad request');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/x-ofx' });
    res.end(answer(record, root));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const userOf = (userId: string) => {
    const user = users.get(userId);
    if (!user) throw new Error(`No OFX test user ${userId}`);
    return user;
  };

  return {
    url: `http://127.0.0.1:${port}/ofx`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        holding.clear();
        answerHeld();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
    setTransactions(userId, acctId, transactions) {
      const user = userOf(userId);
      const account = user.accounts.find((a) => a.acctId === acctId);
      if (!account) throw new Error(`No account ${acctId} for ${userId}`);
      const index = user.accounts.indexOf(account);
      user.accounts[index] = { ...account, transactions } as OfxServerAccount;
    },
    setAccounts(userId, accounts) {
      userOf(userId).accounts = [...accounts];
    },
    setFailure(userId, failure) {
      const user = userOf(userId);
      if (failure === undefined) delete user.failure;
      else user.failure = failure;
    },
    approveClientUid(userId, clientUid) {
      userOf(userId);
      approved.set(userId, (approved.get(userId) ?? new Set()).add(clientUid));
    },
    hold(userId) {
      userOf(userId);
      holding.add(userId);
    },
    release(userId) {
      holding.delete(userId);
      answerHeld(userId);
    },
    heldCount,
    peakHeld: () => peak,
    whenHeld(count, userId) {
      if (heldCount(userId) >= count) return Promise.resolve();
      return new Promise<void>((resolve) => heldWaiters.push({ count, userId, resolve }));
    },
  };
}
