/**
 * Third-party access keys (docs/app-registration.md): a partner grants another partner (the third party) reads of one
 * customer's accounts, product by product (ACH details, available balance, live available balance, account owner),
 * each in a time frame and up to a number of calls. The key is the proof's signature, an HMAC of the receipt with a
 * key derived from the master key, shown once and stored only as its SHA-256 hash (like app keys). The third party
 * sends it as Service-Access-Key with its own credentials on those product calls, naming the granting partner's
 * customer and account; an update issues a new key (the old one stops working), a revocation ends it.
 */
import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { ThirdPartyAccessKeyData, ThirdPartyAccessKeyReceipt } from '../../contract/schemas/apps.js';
import { THIRD_PARTY_PRODUCTS, type ThirdPartyProduct } from '../../contract/schemas/apps.js';
import { epochSeconds } from '../../platform/clock.js';
import type { Executor } from '../../platform/db/database.js';
import type { Runtime } from '../../platform/dependencies.js';
import { encryptValue, hmacBase64Url, randomString, sha256Hex } from '../../platform/secrets.js';
import { getAccountRow, parseId } from '../aggregation/accounts.service.js';
import { getCustomerForPartner } from '../customers/service.js';
import * as repo from './repository.js';
import type { ThirdPartyAccessKeyTable, ThirdPartyAccessProductTable } from './table.js';
import type { Insertable } from 'kysely';

export type AccessKeyInput = Static<typeof ThirdPartyAccessKeyData>;
type Receipt = Static<typeof ThirdPartyAccessKeyReceipt>;

/** The reference's kind of consent receipt for these keys. */
const RECEIPT_PROFILE = 3;
const RECEIPT_VERSION = '1';
const KEY_ID = 'ledgerlink-access-1';
const SIGNING_PURPOSE = 'third-party-access';
const PROVENANCE_PURPOSE = 'third-party-access-provenance';
const PARTNER_ID = /^\d{13}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

type Deps = Pick<Runtime, 'database' | 'clock' | 'keys'>;

function db(deps: Pick<Runtime, 'database'>): Executor {
  return deps.database.kysely;
}

/** The provenance as stored: sealed, since it names a client's address and cookie. */
function sealedProvenance(deps: Deps, provenance: AccessKeyInput['provenance']): string | null {
  return provenance ? encryptValue(deps.keys.derive(PROVENANCE_PURPOSE), JSON.stringify(provenance)) : null;
}

function iso(epoch: number): string {
  return new Date(epoch * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function isoTime(field: string, value: string): number {
  const t = value.trim();
  const ms = ISO_TIME.test(t) ? Date.parse(t) : Number.NaN;
  if (Number.isNaN(ms))
    throw new ServiceError('ThirdPartyAccessPeriodInvalid', `Invalid parameter (${field}): an ISO 8601 date and time such as 2026-03-10T06:06:20Z.`);
  return Math.floor(ms / 1000);
}

interface CleanGrant {
  customerId: number;
  thirdPartyPartnerId: string;
  provenance: AccessKeyInput['provenance'];
  products: Omit<Insertable<ThirdPartyAccessProductTable>, 'receipt_id'>[];
}

/** The request checked against the caller: its own customer and accounts, another partner, known products and times. */
async function cleanGrant(deps: Deps, partnerId: string, input: AccessKeyInput): Promise<CleanGrant> {
  if (input.partnerId.trim() !== partnerId)
    throw new ServiceError('ThirdPartyPartnerInvalid', 'Invalid parameter (partnerId): the partner granting access is the caller itself.');
  const thirdParty = input.thirdPartyPartnerId.trim();
  if (!PARTNER_ID.test(thirdParty)) throw new ServiceError('ThirdPartyPartnerInvalid', 'Invalid parameter (thirdPartyPartnerId): a partner id of 13 digits.');
  if (thirdParty === partnerId) throw new ServiceError('ThirdPartyPartnerInvalid', 'Invalid parameter (thirdPartyPartnerId): another partner than the caller.');
  const customer = await getCustomerForPartner(db(deps), partnerId, input.customerId);
  const now = epochSeconds(deps.clock);
  const products: CleanGrant['products'] = [];
  for (const [i, p] of input.products.entries()) {
    const product = p.product.trim();
    if (!(THIRD_PARTY_PRODUCTS as readonly string[]).includes(product))
      throw new ServiceError('ThirdPartyAccessProductUnsupported', `Invalid parameter (products[${i}].product): one of ${THIRD_PARTY_PRODUCTS.join(', ')}.`);
    const account = await getAccountRow(db(deps), customer, p.accountId);
    if (p.accessPeriod.type.trim() !== 'timeframe')
      throw new ServiceError('ThirdPartyAccessPeriodInvalid', `Invalid parameter (products[${i}].accessPeriod.type): timeframe.`);
    const start = isoTime(`products[${i}].accessPeriod.startTime`, p.accessPeriod.startTime);
    const end = isoTime(`products[${i}].accessPeriod.endTime`, p.accessPeriod.endTime);
    if (end <= start || end <= now)
      throw new ServiceError('ThirdPartyAccessPeriodInvalid', `Invalid parameter (products[${i}].accessPeriod): it must end after it starts, and after now.`);
    products.push({
      position: i,
      product,
      account_id: Number(account.id),
      payor_id: p.payorId?.trim() || null,
      max_calls: p.maxCalls ?? null,
      start_at: start,
      end_at: end,
    });
  }
  return { customerId: Number(customer.id), thirdPartyPartnerId: thirdParty, provenance: input.provenance, products };
}

/** The receipt and its proof; the signature is the key, made here and never again. */
function issue(deps: Deps, partnerId: string, receiptId: string, grant: CleanGrant, now: number): { receipt: Receipt; keyHash: string } {
  const receipt = {
    profile: RECEIPT_PROFILE,
    version: RECEIPT_VERSION,
    receiptId,
    customerId: String(grant.customerId),
    partnerId,
    products: grant.products.map((p) => ({
      product: p.product,
      ...(p.payor_id ? { payorId: p.payor_id } : {}),
      ...(p.max_calls !== null && p.max_calls !== undefined ? { maxCalls: p.max_calls } : {}),
      accountId: String(p.account_id),
      accessPeriod: { type: 'timeframe', startTime: iso(p.start_at), endTime: iso(p.end_at) },
    })),
    ...(grant.provenance ? { provenance: grant.provenance } : {}),
    timestamp: iso(now),
  };
  // A fresh nonce in what is signed, so the same receipt issued twice gives two keys.
  const signature = hmacBase64Url(deps.keys.derive(SIGNING_PURPOSE), `${randomBytes(16).toString('hex')}.${JSON.stringify(receipt)}`);
  return { receipt: { data: [{ receipt, proof: { signature, keyId: KEY_ID, timestamp: iso(now) } }] }, keyHash: sha256Hex(signature) };
}

export async function generateAccessKey(deps: Deps, partnerId: string, input: AccessKeyInput): Promise<Receipt> {
  const grant = await cleanGrant(deps, partnerId, input);
  const now = epochSeconds(deps.clock);
  const receiptId = `cr_${randomString(30)}`;
  const { receipt, keyHash } = issue(deps, partnerId, receiptId, grant, now);
  const row: Insertable<ThirdPartyAccessKeyTable> = {
    receipt_id: receiptId,
    partner_id: partnerId,
    customer_id: grant.customerId,
    third_party_partner_id: grant.thirdPartyPartnerId,
    key_hash: keyHash,
    provenance_encrypted: sealedProvenance(deps, grant.provenance),
    created_at: now,
    issued_at: now,
    revoked_at: null,
  };
  await db(deps)
    .transaction()
    .execute(async (tx) => {
      await repo.insertAccessKey(tx, row);
      await repo.replaceAccessProducts(
        tx,
        receiptId,
        grant.products.map((p) => ({ ...p, receipt_id: receiptId })),
      );
    });
  return receipt;
}

async function partnerKey(deps: Deps, partnerId: string, receiptId: string) {
  const row = await repo.findPartnerAccessKey(db(deps), partnerId, receiptId.trim());
  if (!row) throw new ServiceError('ThirdPartyAccessKeyNotFound', `Third party access key ${receiptId.trim()} not found.`);
  return row;
}

/** Replaces what the key grants and issues a new key for it: the old key stops working, the calls count afresh. */
export async function updateAccessKey(deps: Deps, partnerId: string, receiptId: string, input: AccessKeyInput): Promise<Receipt> {
  const key = await partnerKey(deps, partnerId, receiptId);
  const grant = await cleanGrant(deps, partnerId, input);
  const now = epochSeconds(deps.clock);
  const { receipt, keyHash } = issue(deps, partnerId, key.receipt_id, grant, now);
  await db(deps)
    .transaction()
    .execute(async (tx) => {
      await repo.updateAccessKey(tx, key.receipt_id, {
        customer_id: grant.customerId,
        third_party_partner_id: grant.thirdPartyPartnerId,
        key_hash: keyHash,
        provenance_encrypted: sealedProvenance(deps, grant.provenance),
        issued_at: now,
      });
      await repo.replaceAccessProducts(
        tx,
        key.receipt_id,
        grant.products.map((p) => ({ ...p, receipt_id: key.receipt_id })),
      );
    });
  return receipt;
}

export async function revokeAccessKey(deps: Deps, partnerId: string, receiptId: string): Promise<void> {
  const key = await partnerKey(deps, partnerId, receiptId);
  await repo.updateAccessKey(db(deps), key.receipt_id, { revoked_at: epochSeconds(deps.clock) });
}

/**
 * A product call made with a Service-Access-Key: the granting partner the call is served as, once the key is found
 * to be the caller's, to name this customer and account for this product now, and a call is counted against it.
 */
export async function useAccessKey(
  deps: Deps,
  callerPartnerId: string,
  key: string,
  product: ThirdPartyProduct,
  customerId: string,
  accountId: string,
): Promise<string> {
  const row = await repo.findAccessKeyByHash(db(deps), sha256Hex(key.trim()));
  if (!row || row.third_party_partner_id !== callerPartnerId) throw new ServiceError('ThirdPartyAccessKeyInvalid');
  const customer = parseId(customerId);
  const account = parseId(accountId);
  const denied = () =>
    new ServiceError('ThirdPartyAccessNotGranted', `The access key does not grant ${product} on account ${accountId} of customer ${customerId} now.`);
  if (customer === undefined || account === undefined || customer !== Number(row.customer_id)) throw denied();
  if (!(await repo.countGrantedCall(db(deps), row.receipt_id, product, account, epochSeconds(deps.clock)))) throw denied();
  return row.partner_id;
}
