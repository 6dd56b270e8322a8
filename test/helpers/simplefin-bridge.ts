/**
 * A local SimpleFIN bridge (node:http on 127.0.0.1, a free port) speaking the real wire format: one-time claims of
 * setup tokens, `/accounts` with HTTP Basic auth, start-date / end-date / pending / account / balances-only, v1
 * answers (`org`, `errors`) and v2 ones (`version=2`: `connections`, `conn_id`, `errlist`), and its own maximum date
 * range. Tests set each access's accounts and transactions, inject errors and faults, and read the log of every
 * request (with the identity it authenticated as) to count requests against the quota.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { applyCommonFault, type CommonFault, isCommonFault } from './fake-faults.js';

const DAY = 86_400;

export interface BridgeTransaction {
  id: string;
  posted: number;
  amount: string;
  description: string;
  pending?: boolean;
  transacted_at?: number;
  payee?: string;
  memo?: string;
  extra?: Record<string, unknown>;
}

export interface BridgeAccount {
  id: string;
  name: string;
  currency?: string;
  balance: string;
  'available-balance'?: string;
  'balance-date'?: number;
  /** v1 organisation; the v2 connection is made from it unless `connection` is given. */
  org?: { name?: string; domain?: string; id?: string };
  connection?: { id: string; name: string; orgName?: string };
  transactions?: BridgeTransaction[];
}

/** A v2 errlist entry; v1 answers carry its message as a string. */
export interface BridgeError {
  code: string;
  msg: string;
  conn_id?: string;
  account_id?: string;
}

export type BridgeFault =
  | { status: number; body?: string }
  | CommonFault
  /** A 200 answer of about this many bytes; chunked unless `declared`, which sends Content-Length. */
  | { bytes: number; declared?: boolean };

export interface BridgeRequest {
  method: string;
  path: string;
  query: Record<string, string[]>;
  /** The access identity the request authenticated as (claims: the identity the token was made for). */
  user?: string;
  status: number;
  contentLength?: string;
  hasAuthorization: boolean;
}

export interface SimplefinBridgeOptions {
  /** The longest start-date..end-date range served; longer ones are refused with 400. */
  maxRangeDays?: number;
  /** The bridge's clock (epoch seconds), for requests without end-date. */
  now?: () => number;
}

interface Access {
  user: string;
  password?: string;
  claimCode: string;
  claimed: boolean;
  revoked: boolean;
  accounts: BridgeAccount[];
  errlist: BridgeError[];
  errors?: string[];
}

interface Fault {
  user?: string;
  on: 'claim' | 'accounts';
  fault: BridgeFault;
  times: number;
}

export interface SimplefinBridge {
  /** The bridge's root URL, e.g. http://127.0.0.1:PORT/simplefin. */
  url: string;
  requests: BridgeRequest[];
  /** A setup token (base64 of its one-time claim URL) for a new identity; `user` names it (default user-N). */
  createSetupToken(options?: { user?: string; accounts?: BridgeAccount[]; encoding?: 'base64' | 'base64url' }): string;
  /** The identity a token was made for. */
  userOf(token: string): string;
  /** The access URL of a claimed identity. */
  accessUrlOf(user: string): string;
  setAccounts(user: string, accounts: BridgeAccount[]): void;
  addTransactions(user: string, accountId: string, transactions: BridgeTransaction[]): void;
  /** The errors every `/accounts` answer of the identity carries (v2 errlist; v1 strings default to their messages). */
  setErrors(user: string, errlist: BridgeError[], v1Strings?: string[]): void;
  revoke(user: string): void;
  /** Makes requests fail (or stall) until cleared with `fault(undefined)`, or `times` requests. */
  fault(fault: BridgeFault | undefined, options?: { user?: string; on?: 'claim' | 'accounts'; times?: number }): void;
  /** The `/accounts` requests, of one identity or all. */
  accountRequests(user?: string): BridgeRequest[];
  close(): Promise<void>;
}

function queryOf(url: URL): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, value] of url.searchParams) (out[key] ??= []).push(value);
  return out;
}

function connectionOf(account: BridgeAccount): { conn_id: string; name: string; org_id: string; org_name?: string; org_url?: string; sfin_url: string } {
  if (account.connection) {
    return {
      conn_id: account.connection.id,
      name: account.connection.name,
      org_id: `ORG-${account.connection.id}`,
      ...(account.connection.orgName ? { org_name: account.connection.orgName } : {}),
      sfin_url: 'https://sfin.example.com',
    };
  }
  const org = account.org ?? { name: 'Example Bank', domain: 'example.com' };
  const key = org.id ?? org.domain ?? org.name ?? 'default';
  return {
    conn_id: `CON-${key}`,
    name: org.name ?? org.domain ?? key,
    org_id: `ORG-${key}`,
    ...(org.name ? { org_name: org.name } : {}),
    ...(org.domain ? { org_url: `https://${org.domain}` } : {}),
    sfin_url: 'https://sfin.example.com',
  };
}

export async function startSimplefinBridge(options: SimplefinBridgeOptions = {}): Promise<SimplefinBridge> {
  const maxRange = (options.maxRangeDays ?? 90) * DAY;
  const clock = options.now ?? (() => Math.floor(Date.now() / 1000));
  const byUser = new Map<string, Access>();
  const byClaim = new Map<string, Access>();
  const faults: Fault[] = [];
  const requests: BridgeRequest[] = [];
  let counter = 0;
  let root = '';

  const access = (user: string): Access => {
    const found = byUser.get(user);
    if (!found) throw new Error(`No bridge identity ${user}`);
    return found;
  };

  const faultFor = (on: 'claim' | 'accounts', user: string | undefined): BridgeFault | undefined => {
    const found = faults.find((f) => f.on === on && (f.user === undefined || f.user === user));
    if (!found) return undefined;
    if (--found.times <= 0) faults.splice(faults.indexOf(found), 1);
    return found.fault;
  };

  /** Answers with a fault; true when it answered. */
  const applyFault = async (fault: BridgeFault | undefined, req: IncomingMessage, res: ServerResponse, log: BridgeRequest): Promise<boolean> => {
    if (!fault) return false;
    if (isCommonFault(fault)) return applyCommonFault(fault, req, (status, body, type) => send(res, log, status, body, type));
    if ('bytes' in fault) {
      log.status = 200;
      const head = '{"errors":[],"accounts":[],"pad":"';
      const tail = '"}';
      const padding = Math.max(0, fault.bytes - head.length - tail.length);
      res.writeHead(200, { 'content-type': 'application/json', ...(fault.declared ? { 'content-length': String(head.length + padding + tail.length) } : {}) });
      res.write(head);
      for (let left = padding; left > 0; left -= 65_536) {
        if (!res.write('x'.repeat(Math.min(65_536, left)))) await new Promise((resolve) => res.once('drain', resolve));
        if (res.destroyed) return true;
      }
      res.end(tail);
      return true;
    }
    send(res, log, fault.status, fault.body ?? `HTTP ${fault.status}`, 'text/plain');
    return true;
  };

  const send = (res: ServerResponse, log: BridgeRequest, status: number, body: string, type: string) => {
    log.status = status;
    res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) });
    res.end(body);
  };

  const userOfAuthorization = (header: string | undefined): Access | undefined => {
    const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
    if (!match) return undefined;
    const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const found = byUser.get(decoded.slice(0, colon));
    return found?.claimed && found.password === decoded.slice(colon + 1) ? found : undefined;
  };

  const accountsBody = (who: Access, url: URL): { status: number; body: string } => {
    const q = url.searchParams;
    const start = q.has('start-date') ? Number(q.get('start-date')) : undefined;
    const end = q.has('end-date') ? Number(q.get('end-date')) : undefined;
    if ((start !== undefined && !Number.isFinite(start)) || (end !== undefined && !Number.isFinite(end))) return { status: 400, body: 'bad date' };
    if (start !== undefined && (end ?? clock()) - start > maxRange) return { status: 400, body: `date range exceeds ${maxRange / DAY} days` };
    const pending = q.get('pending') === '1';
    const only = q.getAll('account');
    const balancesOnly = q.get('balances-only') === '1';
    const v2 = q.get('version') === '2';
    const inRange = (t: number) => (start === undefined || t >= start) && (end === undefined || t < end);
    const accounts = who.accounts
      .filter((a) => only.length === 0 || only.includes(a.id))
      .map((a) => {
        const transactions = balancesOnly
          ? []
          : (a.transactions ?? [])
              .filter((t) => {
                const isPending = t.pending === true || t.posted === 0;
                if (!isPending) return inRange(t.posted);
                const date = t.transacted_at ?? t.posted;
                return pending && (date === 0 || inRange(date));
              })
              .sort((x, y) => x.posted - y.posted);
        const common = {
          id: a.id,
          name: a.name,
          currency: a.currency ?? 'USD',
          balance: a.balance,
          ...(a['available-balance'] !== undefined ? { 'available-balance': a['available-balance'] } : {}),
          'balance-date': a['balance-date'] ?? clock(),
          transactions,
          extra: { 'account-open-date': 978360153 },
        };
        if (v2) {
          const connection = connectionOf(a);
          return { ...common, conn_id: connection.conn_id, conn_name: connection.name };
        }
        const org = a.org ?? { name: 'Example Bank', domain: 'example.com' };
        return { org: { ...org, 'sfin-url': 'https://sfin.example.com' }, ...common };
      });
    if (v2) {
      const connections = [...new Map(who.accounts.map((a) => connectionOf(a)).map((c) => [c.conn_id, c])).values()];
      return { status: 200, body: JSON.stringify({ errlist: who.errlist, connections, accounts }) };
    }
    return { status: 200, body: JSON.stringify({ errors: who.errors ?? who.errlist.map((e) => e.msg), accounts }) };
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const log: BridgeRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: queryOf(url),
        status: 0,
        hasAuthorization: req.headers.authorization !== undefined,
        ...(req.headers['content-length'] !== undefined ? { contentLength: req.headers['content-length'] } : {}),
      };
      requests.push(log);
      for await (const _ of req) {
        // The claim has no body; whatever comes is read and dropped.
      }
      const claim = /^\/simplefin\/claim\/([^/]+)$/.exec(url.pathname);
      if (claim) {
        if (req.method !== 'POST') return send(res, log, 405, 'POST only', 'text/plain');
        const who = byClaim.get(claim[1] as string);
        if (who) log.user = who.user;
        if (await applyFault(faultFor('claim', who?.user), req, res, log)) return;
        if (!who || who.claimed) return send(res, log, 403, 'Forbidden', 'text/plain');
        who.claimed = true;
        who.password = randomBytes(12).toString('hex');
        return send(res, log, 200, accessUrl(who), 'text/plain');
      }
      if (url.pathname === '/simplefin/accounts') {
        const who = userOfAuthorization(req.headers.authorization);
        if (who) log.user = who.user;
        if (await applyFault(faultFor('accounts', who?.user), req, res, log)) return;
        if (!who || who.revoked) return send(res, log, 403, 'Forbidden', 'text/plain');
        const answer = accountsBody(who, url);
        return send(res, log, answer.status, answer.body, answer.status === 200 ? 'application/json' : 'text/plain');
      }
      if (url.pathname === '/simplefin/info') return send(res, log, 200, JSON.stringify({ versions: ['1.0', '2.0'] }), 'application/json');
      send(res, log, 404, 'Not found', 'text/plain');
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  root = `http://127.0.0.1:${port}/simplefin`;

  const accessUrl = (who: Access) => `http://${encodeURIComponent(who.user)}:${who.password}@127.0.0.1:${port}/simplefin`;

  return {
    url: root,
    requests,
    createSetupToken(tokenOptions = {}) {
      const user = tokenOptions.user ?? `user-${++counter}`;
      if (byUser.has(user)) throw new Error(`Bridge identity ${user} exists`);
      const created: Access = {
        user,
        claimCode: randomBytes(18).toString('hex'),
        claimed: false,
        revoked: false,
        accounts: structuredClone(tokenOptions.accounts ?? []),
        errlist: [],
      };
      byUser.set(user, created);
      byClaim.set(created.claimCode, created);
      return Buffer.from(`${root}/claim/${created.claimCode}`).toString(tokenOptions.encoding ?? 'base64');
    },
    userOf(token) {
      const claimUrl = Buffer.from(token.trim(), 'base64').toString('utf8');
      const code = claimUrl.slice(claimUrl.lastIndexOf('/') + 1);
      const who = byClaim.get(code);
      if (!who) throw new Error('Unknown token');
      return who.user;
    },
    accessUrlOf(user) {
      const who = access(user);
      if (!who.claimed) throw new Error(`${user} has not been claimed`);
      return accessUrl(who);
    },
    setAccounts(user, accounts) {
      access(user).accounts = structuredClone(accounts);
    },
    addTransactions(user, accountId, transactions) {
      const account = access(user).accounts.find((a) => a.id === accountId);
      if (!account) throw new Error(`No account ${accountId} for ${user}`);
      account.transactions = [...(account.transactions ?? []), ...structuredClone(transactions)];
    },
    setErrors(user, errlist, v1Strings) {
      const who = access(user);
      who.errlist = structuredClone(errlist);
      if (v1Strings) who.errors = [...v1Strings];
      else delete who.errors;
    },
    revoke(user) {
      access(user).revoked = true;
    },
    fault(fault, faultOptions = {}) {
      const on = faultOptions.on ?? 'accounts';
      for (let i = faults.length - 1; i >= 0; i--) if (faults[i]?.on === on && faults[i]?.user === faultOptions.user) faults.splice(i, 1);
      if (fault) faults.push({ user: faultOptions.user, on, fault, times: faultOptions.times ?? Number.POSITIVE_INFINITY });
    },
    accountRequests(user) {
      return requests.filter((r) => r.path === '/simplefin/accounts' && (user === undefined || r.user === user));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A typical identity's accounts at `now`: a checking account (with a pending transaction), a savings account and a
 * card at a second institution, with a few weeks of transactions.
 */
export function demoAccounts(now: number): BridgeAccount[] {
  return [
    {
      id: 'ACT-checking',
      name: 'Everyday Checking (1234)',
      balance: '1520.75',
      'available-balance': '1490.75',
      'balance-date': now - 3600,
      org: { name: 'First Example Bank', domain: 'first.example' },
      transactions: [
        { id: 'TRN-1', posted: now - 20 * DAY, amount: '2500.00', description: 'ACME CORP PAYROLL', transacted_at: now - 21 * DAY },
        { id: 'TRN-2', posted: now - 9 * DAY, amount: '-4.75', description: 'STARBUCKS #1234 SEATTLE', payee: 'Starbucks' },
        { id: 'TRN-3', posted: now - 2 * DAY, amount: '-82.10', description: 'KROGER 0042', memo: 'card 1234' },
        { id: 'TRN-4', posted: 0, amount: '-30.00', description: 'SHELL OIL 5521', pending: true, transacted_at: now - 7200 },
      ],
    },
    {
      id: 'ACT-savings',
      name: 'High Yield Savings',
      balance: '10000.00',
      'balance-date': now - 3600,
      org: { name: 'First Example Bank', domain: 'first.example' },
      transactions: [{ id: 'TRN-1', posted: now - 15 * DAY, amount: '12.50', description: 'INTEREST PAID' }],
    },
    {
      id: 'ACT-card',
      name: 'Platinum Card',
      balance: '-640.20',
      'balance-date': now - 3600,
      org: { name: 'Second Example Card Co', domain: 'second.example' },
      transactions: [
        { id: 'TRN-1', posted: now - 40 * DAY, amount: '-120.00', description: 'AMAZON MKTPLACE' },
        { id: 'TRN-2', posted: now - 5 * DAY, amount: '-520.20', description: 'DELTA AIR LINES' },
      ],
    },
  ];
}
