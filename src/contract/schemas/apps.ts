import Type from 'typebox';
import { RequiredString } from './common.js';

/**
 * App registration, third-party access keys and customer authorization details (docs/app-registration.md). Query
 * values of the lists are strings here: the service checks them and answers the operations' own codes.
 */

/** The statuses a registration has: pending, approved, rejected (the reference's D and S are never given). */
export const APP_STATUSES = ['P', 'A', 'R'] as const;
/** Every status letter the reference names, accepted by the filters. */
export const APP_STATUS_FILTERS = ['P', 'A', 'R', 'D', 'S'] as const;
/** The products a third-party access key can grant: the Payments and Identity reads of one account. */
export const THIRD_PARTY_PRODUCTS = ['moneyTransferDetails', 'availableBalance', 'availableBalanceLive', 'accountOwner'] as const;
export type ThirdPartyProduct = (typeof THIRD_PARTY_PRODUCTS)[number];

const StatusLetter = Type.String({
  description: 'P: pending (submitted or modified, awaiting approval); A: approved; R: rejected (the note says why)',
  examples: ['P'],
});

export const AppRegistrationInput = Type.Object(
  {
    appDescription: RequiredString({ description: 'A short description of the app, shown to end users at the institution', examples: ['Budgeting made easy'] }),
    appName: RequiredString({ description: 'The name of the app, at most 255 characters', examples: ['Awesome Budget App'] }),
    appUrl: RequiredString({ description: 'The http or https URL of the app', examples: ['https://www.example.com/'] }),
    ownerAddressLine1: RequiredString({ description: 'Address of the business that owns the app', examples: ['434 W Ascension Way'] }),
    ownerAddressLine2: Type.String({ description: 'Second address line; may be empty', examples: ['Suite #200'] }),
    ownerCity: RequiredString({ examples: ['Murray'] }),
    ownerCountry: RequiredString({ examples: ['USA'] }),
    ownerName: RequiredString({ description: 'Business name of the owner', examples: ['Example Inc.'] }),
    ownerPostalCode: RequiredString({ examples: ['84123'] }),
    ownerState: RequiredString({ examples: ['UT'] }),
    image: RequiredString({
      description: 'The app logo: a Base64-encoded SVG of less than 50 KB',
      examples: ['PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4='],
    }),
  },
  { xml: { name: 'application' } },
);

export const RegisteredApplication = Type.Object(
  {
    preAppId: Type.Integer({ description: 'Tracks the registration in the status calls', examples: [2581] }),
    status: StatusLetter,
  },
  { xml: { name: 'application' } },
);

export const PreAppIdParams = Type.Object({ preAppId: Type.String({ description: 'The registration tracking id', examples: ['2581'] }) });

export const AppStatus = Type.Object({
  partnerId: Type.String({ examples: ['1234583871234'] }),
  preAppId: Type.String({ examples: ['2581'] }),
  note: Type.Optional(Type.String({ description: 'Why the registration has its status', examples: ['Approved'] })),
  applicationId: Type.Optional(Type.String({ description: 'Given at the first approval', examples: ['00278431-b712-4f30-a044-b611f25e533d'] })),
  appName: Type.String({ examples: ['Awesome Budget App'] }),
  submittedDate: Type.Integer({ description: 'Epoch seconds of the latest submission' }),
  modifiedDate: Type.Integer({ description: 'Epoch seconds of the latest change, the status included' }),
  status: StatusLetter,
  scopes: Type.Optional(Type.String({ description: 'What the app reaches', examples: ['Account Info'] })),
});

export const AppStatuses = Type.Object(
  {
    totalRecords: Type.Integer(),
    totalPages: Type.Integer(),
    pageNumber: Type.Integer(),
    numberOfRecordsPerPage: Type.Integer(),
    applications: Type.Array(AppStatus),
  },
  { xml: { name: 'root' } },
);

export const AppStatusQuery = Type.Object({
  preAppId: Type.Optional(Type.String({ description: 'One registration by its tracking id' })),
  applicationId: Type.Optional(Type.String({ description: 'One registration by its application id' })),
  status: Type.Optional(Type.String({ description: 'A, P, R (D and S match nothing here)' })),
  appName: Type.Optional(Type.String({ description: 'Registrations of this app name' })),
  submittedDate: Type.Optional(Type.String({ description: 'Registrations submitted at or after this time (epoch seconds)' })),
  modifiedDate: Type.Optional(Type.String({ description: 'Registrations changed at or after this time (epoch seconds)' })),
  page: Type.Optional(Type.String({ description: 'Page number from 1 (default 1)' })),
  pageSize: Type.Optional(Type.String({ description: 'Registrations per page, 1 to 100 (default 1)' })),
});

export const AppDetails = Type.Object({
  preAppId: Type.Integer({ examples: [13] }),
  applicationId: Type.Optional(Type.String({ examples: ['00278431-b712-4f30-a044-b611f25e533d'] })),
  status: StatusLetter,
  name: Type.String({ examples: ['Awesome Budget App'] }),
  scopes: Type.String({ examples: ['Account Info'] }),
  note: Type.Optional(Type.String({ examples: ['Approved'] })),
  createdDate: Type.String({ description: 'ISO 8601, UTC', examples: ['2020-07-30 16:11:23+00:00'] }),
  modifiedDate: Type.String({ description: 'ISO 8601, UTC', examples: ['2020-07-30 16:11:23+00:00'] }),
  submittedDate: Type.String({ description: 'ISO 8601, UTC', examples: ['2020-07-30 16:11:23+00:00'] }),
});

export const AppDetailsList = Type.Object(
  {
    found: Type.Integer({ description: 'Registrations matching the filters' }),
    displaying: Type.Integer({ description: 'Registrations in this answer' }),
    moreAvailable: Type.Boolean({ description: 'true when more follow: ask again with start increased by one' }),
    applications: Type.Array(AppDetails),
  },
  { xml: { name: 'root' } },
);

export const AppDetailsQuery = Type.Object({
  start: Type.Optional(Type.String({ description: 'Page number from 1 (default 1)' })),
  limit: Type.Optional(Type.String({ description: 'Registrations per page, 1 to 100 (default 50)' })),
  pre_app_id: Type.Optional(Type.String({ description: 'One registration by its tracking id' })),
  application_id: Type.Optional(Type.String({ description: 'One registration by its application id' })),
  name: Type.Optional(Type.String({ description: 'Registrations of this app name' })),
  status: Type.Optional(Type.String({ description: 'A, P, R, D or S' })),
});

export const ApplicationIdParams = Type.Object({
  application_id: Type.String({ description: 'An approved app', examples: ['00278431-b712-4f30-a044-b611f25e533d'] }),
});

export const AppInstitutionsQuery = Type.Object({
  start: Type.Optional(Type.String({ description: 'Page number from 1 (default 1)' })),
  limit: Type.Optional(Type.String({ description: 'Institutions per page, 1 to 1000 (default 25)' })),
  institution_id: Type.Optional(Type.String({ description: 'Only this institution (404 when the app does not cover it)' })),
});

export const AppInstitution = Type.Object({
  institutionId: Type.Integer({ examples: [102168] }),
  institutionName: Type.String({ examples: ['FinBank OAuth'] }),
  status: Type.Boolean({ description: 'true: the app is registered at the institution (approved)' }),
  createdDate: Type.String({ description: 'When the app was registered there (its approval), ISO 8601, UTC' }),
  modifiedDate: Type.String({ description: 'ISO 8601, UTC' }),
});

export const AppInstitutionList = Type.Object(
  {
    found: Type.Integer(),
    displaying: Type.Integer(),
    moreAvailable: Type.Boolean(),
    institutions: Type.Array(AppInstitution),
  },
  { xml: { name: 'root' } },
);

export const CustomerApplicationParams = Type.Object({
  customerId: Type.String({ description: 'Customer id', examples: ['1005061234'] }),
  applicationId: Type.String({ description: "One of the partner's approved apps", examples: ['00278431-b712-4f30-a044-b611f25e533d'] }),
});

/** Set Customer App ID's answer: no body at all, as the reference's. */
export const CustomerAssigned = Type.Null({ description: 'No body: the customer is assigned to the app', examples: [null] });

export const MigrationParams = Type.Object({
  customerId: Type.String({ description: 'Customer id', examples: ['1005061234'] }),
  institutionLoginId: Type.String({ description: 'An institution login of the customer', examples: ['6000000001'] }),
});

export const CustomerWithAppData = Type.Object(
  {
    id: Type.String({ examples: ['1005061234'] }),
    username: Type.String(),
    firstName: Type.String({ description: 'Empty when the customer has none' }),
    lastName: Type.String({ description: 'Empty when the customer has none' }),
    phone: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    type: Type.String({ description: 'testing or active' }),
    createdDate: Type.String({ description: 'Epoch seconds, as a string (as the reference gives it here)' }),
    lastModifiedDate: Type.String({ description: 'Epoch seconds, as a string' }),
    applicationId: Type.String(),
    applicationName: Type.String(),
  },
  { xml: { name: 'customer' } },
);

const DateTimeWithZone = Type.String({ description: 'ISO 8601 date and time, UTC', examples: ['2026-03-10T06:06:20Z'] });

const AccessPeriod = Type.Object({
  type: RequiredString({ description: 'timeframe', examples: ['timeframe'] }),
  startTime: RequiredString({ description: 'ISO 8601: when the access begins', examples: ['2026-03-10T06:06:20Z'] }),
  endTime: RequiredString({ description: 'ISO 8601: when it ends', examples: ['2027-03-10T06:06:20Z'] }),
});

const AccessProduct = Type.Object({
  product: RequiredString({ description: THIRD_PARTY_PRODUCTS.join(', '), examples: ['moneyTransferDetails'] }),
  payorId: Type.Optional(Type.String({ description: 'Recorded as given; Ledgerlink bills nobody' })),
  maxCalls: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'How many calls the grant allows; unlimited without it' })),
  accountId: RequiredString({ description: "One of the customer's accounts", examples: ['5011648377'] }),
  accessPeriod: AccessPeriod,
});

const Provenance = Type.Object({
  clientFingerprint: Type.Optional(Type.String()),
  ipAddress: Type.Optional(Type.String()),
  token: Type.Optional(Type.String()),
});

export const ThirdPartyAccessKeyData = Type.Object(
  {
    customerId: RequiredString({ description: "The granting partner's customer", examples: ['1005061234'] }),
    partnerId: RequiredString({ description: "The granting partner: the caller's own id", examples: ['1234583871234'] }),
    thirdPartyPartnerId: RequiredString({ description: 'The partner the access is granted to', examples: ['2445581559892'] }),
    provenance: Type.Optional(Provenance),
    products: Type.Array(AccessProduct, { minItems: 1 }),
  },
  { xml: { name: 'accessKey' } },
);

export const ConsentReceiptParams = Type.Object({
  consentReceiptId: Type.String({ description: 'The receipt id of a key the partner generated', examples: ['cr_4pfI3r1X8aOHrDDwrwC01NHFxOXlT1'] }),
});

export const ThirdPartyAccessReceipt = Type.Object({
  receipt: Type.Object({
    profile: Type.Integer({ description: 'The kind of consent receipt', examples: [3] }),
    version: Type.String({ examples: ['1'] }),
    receiptId: Type.String({ description: 'The consent receipt id (the access key id)' }),
    customerId: Type.String({ description: "The granting partner's customer, as the product calls take it" }),
    partnerId: Type.String({ description: 'The granting partner' }),
    products: Type.Array(AccessProduct),
    provenance: Type.Optional(Provenance),
    timestamp: DateTimeWithZone,
  }),
  proof: Type.Object({
    signature: Type.String({ description: 'The access key: send it as Service-Access-Key. Shown once, stored hashed' }),
    keyId: Type.String({ description: 'Names the key the signature was made with', examples: ['ledgerlink-access-1'] }),
    timestamp: DateTimeWithZone,
  }),
});

export const ThirdPartyAccessKeyReceipt = Type.Object({ data: Type.Array(ThirdPartyAccessReceipt) }, { xml: { name: 'accessKey' } });

export const AuthorizationDetailsParams = Type.Object({
  institution_login_id: Type.String({ description: "An institution login of one of the partner's customers", examples: ['6000000001'] }),
});

export const CustomerAuthorizationDetails = Type.Object(
  {
    institutionLoginId: Type.Integer({ examples: [6000000001] }),
    authorizationStartDate: Type.String({ description: 'When the customer gave the consent, ISO 8601, UTC', examples: ['2026-01-01 16:11:23.000000+00:00'] }),
    authorizationEndDate: Type.String({ description: 'When the consent ends, ISO 8601, UTC', examples: ['2026-06-30 16:11:23.000000+00:00'] }),
  },
  { xml: { name: 'authorizationDetails' } },
);
