/**
 * The Identity operations: an account's owners as its source gave them (the last aggregation stored them), and owner
 * verification, which matches values from elsewhere against them (owner-match.rules.ts).
 */
import type { Static } from 'typebox';
import type { AccountHolder, HolderAddress } from '../../connectors/connector.js';
import type { AccountOwner, AccountOwnerHolders, OwnerMatchRequest, OwnerMatchResults } from '../../contract/schemas/identity.js';
import type { Runtime } from '../../platform/dependencies.js';
import { getCustomerAccountRow } from '../aggregation/accounts.service.js';
import {
  addressLineScore,
  countryScore,
  emailScore,
  nameScore,
  phoneScore,
  postalCodeScore,
  sameWordScore,
  stateScore,
  wholeAddress,
} from './owner-match.rules.js';
import { ownershipOf } from './products.rules.js';

export type AccountOwnerRecord = Static<typeof AccountOwner>;
export type AccountOwnerHoldersRecord = Static<typeof AccountOwnerHolders>;
export type OwnerMatchInput = Static<typeof OwnerMatchRequest>;
export type OwnerMatchResultsRecord = Static<typeof OwnerMatchResults>;
type HolderRecord = AccountOwnerHoldersRecord['holders'][number];
type AddressRecord = HolderRecord['addresses'][number];

const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

/** An address on one line, as the reference's ownerAddress: `782 Willow Creek Rd Columbus OH 43214`. */
function oneLine(a: HolderAddress): string {
  return [a.line1, a.line2, a.city, a.state, a.postalCode].filter((p) => p !== undefined && p !== '').join(' ');
}

function addressRecord(a: HolderAddress): AddressRecord {
  return {
    ownerAddress: oneLine(a),
    ...opt('type', a.type),
    line1: a.line1,
    ...opt('line2', a.line2),
    city: a.city,
    state: a.state,
    postalCode: a.postalCode,
    country: a.country,
  };
}

function holderRecord(h: AccountHolder): HolderRecord {
  return {
    ...opt('relationship', h.relationship),
    ownerName: h.name,
    ...opt('firstName', h.firstName),
    ...opt('middleName', h.middleName),
    ...opt('lastName', h.lastName),
    ...opt('suffix', h.suffix),
    nameClassification: h.classification,
    // The institution says whether it is a person or a business: nothing is guessed.
    nameClassificationconfidencescore: 1,
    nameClassificationConfidenceScore: 1,
    addresses: h.addresses.map(addressRecord),
    emails: h.emails.map((e) => ({ isPrimary: e.primary, email: e.address, ...opt('emailType', e.type) })),
    phones: h.phones.map((p) => ({ type: p.type, ...opt('country', p.country), phone: p.number })),
  };
}

async function holdersOf(runtime: Pick<Runtime, 'database'>, partnerId: string, customerId: string | number, accountId: string | number) {
  const row = await getCustomerAccountRow(runtime, partnerId, customerId, accountId);
  return { row, ownership: ownershipOf(row) };
}

/** Get Account Owner (v1): the owners' names as the institution writes them and the first holder's address; 404 (12017) without owners. */
export async function getAccountOwner(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
): Promise<AccountOwnerRecord> {
  const { row, ownership } = await holdersOf(runtime, partnerId, customerId, accountId);
  const address = ownership.holders.flatMap((h) => h.addresses)[0];
  const asOf = row.aggregation_success_at ?? row.created_at;
  return { ownerName: ownership.name, ownerAddress: address ? oneLine(address) : '', asOfDate: Number(asOf) };
}

/** Get Account Owner Details (v3): every holder with addresses, e-mails and phones; 404 (12017) without owners. */
export async function getAccountOwnerDetails(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
): Promise<AccountOwnerHoldersRecord> {
  const { ownership } = await holdersOf(runtime, partnerId, customerId, accountId);
  return { holders: ownership.holders.map(holderRecord) };
}

/** A value given for matching: absent when missing, empty or only white space. */
function given(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

type GivenAddress = NonNullable<OwnerMatchInput['address']>;
type AddressScores = NonNullable<OwnerMatchResultsRecord['holders'][number]['addresses'][number]['addressScores']>;

/** The scores of a given address against one of the holder's: one per part given, and the whole address. */
function addressScores(want: GivenAddress, a: HolderAddress): AddressScores | undefined {
  const parts = {
    line1: given(want.line1),
    line2: given(want.line2),
    line3: given(want.line3),
    city: given(want.city),
    state: given(want.state),
    postalCode: given(want.postalCode),
    country: given(want.country),
    type: given(want.type),
  };
  const scores: AddressScores = {};
  if (parts.line1) scores.line1 = addressLineScore(parts.line1, a.line1);
  if (parts.line2) scores.line2 = addressLineScore(parts.line2, a.line2);
  if (parts.line3) scores.line3 = addressLineScore(parts.line3, undefined);
  if (parts.city) scores.city = nameScore(parts.city, a.city);
  if (parts.state) scores.state = stateScore(parts.state, a.state);
  if (parts.postalCode) scores.postalCode = postalCodeScore(parts.postalCode, a.postalCode);
  if (parts.country) scores.country = countryScore(parts.country, a.country);
  if (parts.type) scores.type = sameWordScore(parts.type, a.type);
  const whole = wholeAddress(parts);
  if (whole === '') return Object.keys(scores).length > 0 ? scores : undefined;
  return { ownerAddress: addressLineScore(whole, wholeAddress(a)), ...scores };
}

/**
 * Account Owner Match: every holder with the scores of the values given (docs/payments.md, "How values are
 * matched"): the name always, the address, phone and e-mail when given; 404 (12017) without owners.
 */
export async function matchAccountOwner(
  runtime: Pick<Runtime, 'database'>,
  partnerId: string,
  customerId: string | number,
  accountId: string | number,
  want: OwnerMatchInput,
): Promise<OwnerMatchResultsRecord> {
  const { ownership } = await holdersOf(runtime, partnerId, customerId, accountId);
  const name = want.name;
  const fullName = [name.firstName, name.middleName, name.lastName, name.suffix].filter((p) => given(p) !== undefined).join(' ');
  const middle = given(name.middleName);
  const suffix = given(name.suffix);
  const phone = given(want.phone);
  const email = given(want.email);
  return {
    holders: ownership.holders.map((h) => {
      const record = holderRecord(h);
      return {
        ...record,
        nameScores: {
          ownerName: nameScore(fullName, h.name),
          // A business has no name parts: only its whole name is compared.
          ...(h.classification === 'person'
            ? {
                firstName: nameScore(name.firstName, h.firstName),
                ...(middle ? { middleName: nameScore(middle, h.middleName) } : {}),
                lastName: nameScore(name.lastName, h.lastName),
                ...(suffix ? { suffix: nameScore(suffix, h.suffix) } : {}),
              }
            : {}),
        },
        addresses: h.addresses.map((a, i) => {
          const scores = want.address ? addressScores(want.address, a) : undefined;
          return { ...record.addresses[i]!, ...(scores ? { addressScores: scores } : {}) };
        }),
        emails: h.emails.map((e, i) => ({ ...record.emails[i]!, ...(email ? { emailScores: { email: emailScore(email, e.address) } } : {}) })),
        phones: h.phones.map((p, i) => ({ ...record.phones[i]!, ...(phone ? { phoneScores: { phone: phoneScore(phone, p.number) } } : {}) })),
      };
    }),
  };
}
