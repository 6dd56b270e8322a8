/**
 * What the test bank knows of who owns an account and how it is paid: the profile's holders with their address,
 * e-mails and phones (the identity products), and the manual payment instructions of loans (loan payment details).
 * Pure functions of the profile and the institution, like the rest of its data.
 */
import type { AccountHolder, AccountOwnership, LoanPaymentInstructions } from '../connector.js';
import type { HolderSpec, LoanSpec, OwnerSpec } from './profile-spec.js';
import { seedOf } from './random.js';

/** `SAN FRANCISCO` as an address writes it: `San Francisco`. */
function titleCase(upper: string): string {
  return upper.toLowerCase().replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

function holderName(h: HolderSpec): string {
  return 'business' in h ? h.business : [h.first, h.middle, h.last, h.suffix].filter(Boolean).join(' ');
}

function holderRecord(owner: OwnerSpec, h: HolderSpec): AccountHolder {
  const business = 'business' in h;
  // A business's address is its place of business, for the people on its accounts too.
  const atBusiness = owner.holders.some((o) => 'business' in o);
  const phones: AccountHolder['phones'] = [{ number: h.phone, type: h.phoneType, country: '1' }];
  if (h.otherPhone) phones.push({ number: h.otherPhone.number, type: h.otherPhone.type, country: '1' });
  const record: AccountHolder = {
    name: holderName(h),
    relationship: h.relationship,
    classification: business ? 'business' : 'person',
    addresses: [
      {
        line1: owner.street,
        ...(owner.unit ? { line2: owner.unit } : {}),
        city: titleCase(owner.city),
        state: owner.state,
        postalCode: owner.postalCode,
        country: 'US',
        type: atBusiness ? 'Business' : 'Home',
      },
    ],
    emails: [{ address: h.email, primary: true, type: business ? 'Business' : 'Personal' }],
    phones,
  };
  if (!business) {
    record.firstName = h.first;
    if (h.middle) record.middleName = h.middle;
    record.lastName = h.last;
    if (h.suffix) record.suffix = h.suffix;
  }
  return record;
}

/** The owners of every account of a profile. */
export function ownershipOf(owner: OwnerSpec): AccountOwnership {
  return { name: owner.name, holders: owner.holders.map((h) => holderRecord(owner, h)) };
}

/**
 * Where a loan's manual payments go: the lender's post office box in Salt Lake City (a box number of its own, the
 * same at every institution), quoting the loan number followed by its Luhn check digit, as payment coupons print it.
 */
export function loanPaymentOf(spec: LoanSpec, loanNumber: string, checkDigit: (digits: string) => string): LoanPaymentInstructions {
  const box = 20_000 + (seedOf('ledgerlink-testbank', 'payment-box', spec.lender) % 9_000);
  return { paymentNumber: `${loanNumber}${checkDigit(loanNumber)}`, paymentAddress: `${spec.lender}, PO Box ${box}, Salt Lake City, UT 84130` };
}
