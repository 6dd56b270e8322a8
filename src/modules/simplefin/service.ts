/**
 * Ledgerlink as a SimpleFIN server (docs/simplefin-server.md). A partner mints a setup token for one customer (and,
 * if it likes, some of the customer's accounts); the token is the base64 of a claim URL which a SimpleFIN client
 * POSTs to once, getting an access URL whose Basic credentials read those accounts at `{access}/accounts`. Every
 * secret is random, URL-safe and kept only as its SHA-256 hash: a copy of the database hands out no access.
 */
import { amountText } from '../../platform/amount-text.js';
import type { SimplefinAccessRecord, SimplefinAccountSetRecord, SimplefinTokenRecord, SimplefinWireAccountRecord } from '../../contract/schemas/simplefin.js';
import { SIMPLEFIN_LIMITS } from '../../contract/schemas/simplefin.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { epochSeconds } from '../../platform/clock.js';
import { inTransaction } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import { randomString, safeEqual, sha256Hex } from '../../platform/secrets.js';
import { selectCustomerAccounts } from '../aggregation/accounts.repository.js';
import type { AccountRow, TransactionRow } from '../aggregation/table.js';
import { getCustomerForPartner, parseCustomerId } from '../customers/service.js';
import { findInstitution } from '../institutions/service.js';
import * as repo from './repository.js';
import type { SimplefinAccessRow } from './table.js';

type Deps = Pick<Runtime, 'database' | 'clock' | 'config'>;

/** The path under the public URL the SimpleFIN scope serves: the access URL's path, and the claim URLs' parent. */
export const SIMPLEFIN_PATH = '/simplefin';
export const CLAIM_PATH = `${SIMPLEFIN_PATH}/claim`;
/** The protocol versions `/info` names. */
export const SIMPLEFIN_VERSIONS = ['1.0', '2.0'];
/** Without `start-date`, `/accounts` answers the transactions of this many days back (docs/simplefin-server.md). */
export const DEFAULT_WINDOW_DAYS = 90;
/** How many of the day's last budgeted requests carry a warning in `errors`. */
const BUDGET_WARNING_AT = 2;
const DAY = 86_400;

/** Lengths of the random secrets (letters and digits: URL-safe as they are, no escaping anywhere). */
const TOKEN_LENGTH = 43;
const USERNAME_LENGTH = 24;
const PASSWORD_LENGTH = 43;

/** The secret part of a claim URL: what the scope's claim route takes from its path. */
export const CLAIM_TOKEN_PATTERN = `^[A-Za-z0-9]{${TOKEN_LENGTH}}$`;

function parseAccountIds(stored: string | null): string[] | undefined {
  return stored === null ? undefined : (JSON.parse(stored) as string[]);
}

/**
 * A setup token for the partner's customer (201 answer of Create SimpleFIN Setup Token): single use, claimable for
 * SIMPLEFIN_LIMITS.tokenTtlSeconds. Refused (409) when the public URL was not set: the claim and access URLs are made
 * from it, and the address the service listens on (127.0.0.1, 0.0.0.0 in a container) is rarely one clients reach.
 */
export async function mintSetupToken(deps: Deps, partnerId: string, customerId: string, accountIds?: readonly string[]): Promise<SimplefinTokenRecord> {
  const db = deps.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  if (accountIds !== undefined) {
    const owned = new Set((await selectCustomerAccounts(db, customer, {})).map((a) => String(a.id)));
    const unknown = accountIds.find((id) => !owned.has(String(Number(id))));
    if (unknown !== undefined) throw new ServiceError('SimplefinUnknownAccount', `Account ${unknown} is not one of customer ${customerId}'s accounts.`);
  }
  if (!deps.config.publicUrlSet) {
    throw new ServiceError(
      'SimplefinPublicUrlUnset',
      'Set LEDGERLINK_PUBLIC_URL (or --public-url) to the address SimpleFIN clients reach this service at (e.g. https://ledgerlink.example.org) and restart it: the claim and access URLs are made from it.',
    );
  }
  const now = epochSeconds(deps.clock);
  const secret = randomString(TOKEN_LENGTH);
  const expiresAt = now + SIMPLEFIN_LIMITS.tokenTtlSeconds;
  await repo.deleteSpentSetupTokens(db, now);
  await repo.insertSetupToken(db, {
    token_hash: sha256Hex(secret),
    partner_id: partnerId,
    customer_id: customer.id,
    account_ids: accountIds === undefined ? null : JSON.stringify([...new Set(accountIds.map((id) => String(Number(id))))]),
    created_at: now,
    expires_at: expiresAt,
    used_at: null,
  });
  const claimUrl = `${deps.config.publicUrl}${CLAIM_PATH}/${secret}`;
  return { setupToken: Buffer.from(claimUrl, 'utf8').toString('base64'), claimUrl, expiresAt };
}

/** The partner a claim token was minted by, for the request log; undefined for a token never minted. */
export async function setupTokenOwner(deps: Pick<Runtime, 'database'>, secret: string): Promise<string | undefined> {
  return (await repo.findSetupToken(deps.database.kysely, sha256Hex(secret)))?.partner_id;
}

/**
 * Claims a setup token: the access URL (`scheme://user:password@host/path/simplefin`, no trailing `/`), once. A used,
 * expired or unknown token is refused with 403, as the protocol says.
 */
export async function claimSetupToken(deps: Deps, secret: string): Promise<string> {
  const now = epochSeconds(deps.clock);
  const tokenHash = sha256Hex(secret);
  const username = randomString(USERNAME_LENGTH);
  const password = randomString(PASSWORD_LENGTH);
  await inTransaction(deps.database.kysely, async (tx) => {
    const token = await repo.findSetupToken(tx, tokenHash);
    if (!token || token.used_at !== null || token.expires_at <= now) throw new ServiceError('SimplefinClaimRefused');
    // Two claims at once: only the one that marks it used makes an access.
    if (!(await repo.markSetupTokenUsed(tx, tokenHash, now))) throw new ServiceError('SimplefinClaimRefused');
    await repo.insertAccess(tx, {
      username_hash: sha256Hex(username),
      password_hash: sha256Hex(password),
      partner_id: token.partner_id,
      customer_id: Number(token.customer_id),
      account_ids: token.account_ids,
      created_at: now,
    });
  });
  const url = new URL(`${deps.config.publicUrl}${SIMPLEFIN_PATH}`);
  url.username = username;
  url.password = password;
  return url.href.replace(/\/+$/, '');
}

/** The Basic credentials of an Authorization header, or undefined when it holds none. */
function basicCredentials(header: string | undefined): { username: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const text = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

/**
 * The access an Authorization header's Basic credentials name, and whether they are right: missing, wrong or revoked
 * credentials are all the same 403 (the protocol's answer, never 401), so nothing tells which part was wrong. The
 * access a right user name names is returned either way, so that its partner's request log shows the attempt.
 */
export async function identifyAccess(
  deps: Pick<Runtime, 'database'>,
  authorization: string | undefined,
): Promise<{ access: SimplefinAccessRow | undefined; valid: boolean }> {
  const credentials = basicCredentials(authorization);
  const access = credentials ? await repo.findAccessByUsername(deps.database.kysely, sha256Hex(credentials.username)) : undefined;
  const valid =
    access !== undefined && credentials !== undefined && safeEqual(access.password_hash, sha256Hex(credentials.password)) && access.revoked_at === null;
  return { access, valid };
}

/** Counts a request that takes no budget (`/info`). */
export async function countFreeRequest(deps: Pick<Runtime, 'database' | 'clock'>, access: SimplefinAccessRow): Promise<void> {
  await repo.touchAccess(deps.database.kysely, access.id, epochSeconds(deps.clock));
}

export interface AccountSetQuery {
  startDate?: number;
  endDate?: number;
  pending?: boolean;
  balancesOnly?: boolean;
  accountIds?: readonly string[];
}

function availableBalanceOf(row: AccountRow): number {
  if (row.detail === null) return row.balance;
  const detail = JSON.parse(row.detail) as { availableBalanceAmount?: unknown };
  return typeof detail.availableBalanceAmount === 'number' ? detail.availableBalanceAmount : row.balance;
}

function domainOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`;
  return URL.canParse(withScheme) ? new URL(withScheme).hostname || undefined : undefined;
}

/**
 * The Account Set an access reads (`GET {access}/accounts`), counted against its daily budget: the v1 shape (`errors`
 * always present) with the v2 `errlist` beside it; every account with `transactions` (empty with balances-only);
 * transactions dated in [start-date, end-date), by default the last DEFAULT_WINDOW_DAYS days with no end.
 */
export async function readAccountSet(deps: Deps, access: SimplefinAccessRow, query: AccountSetQuery): Promise<SimplefinAccountSetRecord> {
  const db = deps.database.kysely;
  const now = epochSeconds(deps.clock);
  const budget = deps.config.simplefinDailyRequests;
  const used = await repo.countBudgetedRequest(db, access.id, Math.floor(now / DAY), budget, now);
  if (used === undefined) {
    throw new ServiceError('SimplefinBudgetSpent', `This SimpleFIN access has made all ${budget} of today's requests; it may read again after 00:00 UTC.`);
  }
  const errors: string[] = [];
  const errlist: { code: string; msg: string }[] = [];
  if (budget - used < BUDGET_WARNING_AT) {
    const msg = `This SimpleFIN access has ${budget - used} of its ${budget} daily requests left today; further ones are refused until 00:00 UTC.`;
    errors.push(msg);
    errlist.push({ code: 'gen.budget', msg });
  }
  let customer: Awaited<ReturnType<typeof getCustomerForPartner>>;
  try {
    customer = await getCustomerForPartner(db, access.partner_id, access.customer_id);
  } catch {
    // The customer went between authentication and now: as if the access had gone with it.
    throw new ServiceError('SimplefinAccessRefused');
  }
  const allowed = parseAccountIds(access.account_ids);
  const asked = query.accountIds?.length ? new Set(query.accountIds) : undefined;
  const rows = (await selectCustomerAccounts(db, customer, {})).filter(
    (a) => (allowed === undefined || allowed.includes(String(a.id))) && (asked === undefined || asked.has(String(a.id))),
  );
  const sfinUrl = `${deps.config.publicUrl}${SIMPLEFIN_PATH}`;
  const transactions = query.balancesOnly
    ? []
    : await repo.selectWindowTransactions(
        db,
        rows.map((a) => a.id),
        query.startDate ?? now - DEFAULT_WINDOW_DAYS * DAY,
        query.endDate,
        query.pending === true,
      );
  const byAccount = new Map<number, TransactionRow[]>();
  for (const t of transactions) {
    const list = byAccount.get(Number(t.account_id));
    if (list) list.push(t);
    else byAccount.set(Number(t.account_id), [t]);
  }
  const accounts: SimplefinWireAccountRecord[] = [];
  for (const row of rows) {
    const institution = await findInstitution(deps.database, Number(row.institution_id));
    const name = institution?.name ?? 'Ledgerlink';
    accounts.push({
      org: {
        domain: domainOf(institution?.url_home_app) ?? new URL(deps.config.publicUrl).hostname,
        name,
        'sfin-url': sfinUrl,
        ...(institution?.url_home_app ? { url: institution.url_home_app } : {}),
      },
      id: String(row.id),
      name: row.name,
      currency: row.currency,
      balance: amountText(row.balance),
      'available-balance': amountText(availableBalanceOf(row)),
      'balance-date': Number(row.balance_date),
      transactions: (byAccount.get(row.id) ?? []).map((t) => {
        const posted = Number(t.posted_date ?? t.effective_date);
        return {
          id: String(t.id),
          posted,
          amount: amountText(t.amount),
          description: t.description,
          payee: t.normalized_payee_name ?? t.description,
          memo: t.memo ?? '',
          transacted_at: Number(t.transaction_date ?? posted),
          ...(query.pending ? { pending: t.status === 'pending' } : {}),
        };
      }),
    });
  }
  return { errors, errlist, accounts };
}

function toAccessRecord(row: SimplefinAccessRow, budget: number, now: number): SimplefinAccessRecord {
  const accountIds = parseAccountIds(row.account_ids);
  return {
    id: String(row.id),
    customerId: String(row.customer_id),
    ...(accountIds ? { accountIds } : {}),
    createdDate: Number(row.created_at),
    ...(row.last_used_at !== null ? { lastUsedDate: Number(row.last_used_at) } : {}),
    ...(row.revoked_at !== null ? { revokedDate: Number(row.revoked_at) } : {}),
    requests: Number(row.requests),
    requestsToday: Number(row.budget_day) === Math.floor(now / DAY) ? Number(row.budget_used) : 0,
    dailyBudget: budget,
  };
}

/** The customer's accesses, revoked ones included, oldest first. */
export async function listAccesses(deps: Deps, partnerId: string, customerId: string): Promise<SimplefinAccessRecord[]> {
  const db = deps.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const now = epochSeconds(deps.clock);
  return (await repo.selectAccesses(db, partnerId, customer.id)).map((row) => toAccessRecord(row, deps.config.simplefinDailyRequests, now));
}

/** Revokes an access (its credentials answer 403 from now on); 404 for an unknown one or another customer's. */
export async function revokeAccess(deps: Deps, partnerId: string, customerId: string, accessId: string): Promise<void> {
  const db = deps.database.kysely;
  const customer = await getCustomerForPartner(db, partnerId, customerId);
  const id = parseCustomerId(accessId);
  const access = id === undefined ? undefined : await repo.findAccess(db, partnerId, customer.id, id);
  if (!access) throw new ServiceError('ResourceNotFound', 'SimpleFIN access not found.');
  await repo.markAccessRevoked(db, access.id, epochSeconds(deps.clock));
}
