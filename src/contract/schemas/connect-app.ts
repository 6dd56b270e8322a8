/**
 * What the hosted Connect app's JSON API (/connect/api) answers and takes, and the events Connect posts to the web
 * SDK. The browser apps' types are generated from these (npm run web:types writes web/shared/contract.ts).
 */
import Type from 'typebox';
import { ErrorDetails } from './error.js';
import { STATEMENT_FORMAT_NAMES, STATEMENT_FORMATS, StatementMappingUsed, StatementPreview, StatementUploadQuery } from './statements.js';

const O = <T extends Type.TSchema>(schema: T) => Type.Optional(schema);
const Nullable = <T extends Type.TSchema>(schema: T, options: Type.TSchemaOptions = {}) => Type.Union([schema, Type.Null()], options);

/** The look of a Connect session: application name, logo and brand colour (the dashboard edits them). */
export const Experience = Type.Object({
  name: Type.String({ description: '`default`, or the name a link chooses with `experience`' }),
  appName: Type.String({ description: 'The application name Connect shows' }),
  logoUrl: Nullable(Type.String({ description: 'Logo shown at the top of Connect; null for the initial' })),
  primaryColor: Type.String({ description: 'Hex brand colour, e.g. #1f5fbf' }),
});

/** An institution as Connect lists it. */
export const ConnectInstitution = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  url: Type.String({ description: 'Home page' }),
  logo: Type.String({ description: 'Icon URL' }),
  color: Type.String({ description: 'Primary brand colour, hex' }),
  oauth: Type.Boolean({ description: 'Signs in on its own site (OAuth) rather than with a form' }),
  available: Type.Boolean({ description: 'Whether this customer can link here' }),
  statementUpload: Type.Boolean({
    description: 'Whether this customer can upload statement files for this institution (where it may link, whether or not a connector exists)',
  }),
});

/** An institution by id and name. */
export const InstitutionRef = Type.Object({ id: Type.Integer(), name: Type.String() });

/** The micro entry verification page's account and where its entries stand. */
export const ConnectMicroEntry = Type.Object({
  accountId: Type.String(),
  accountNumberLast4: Type.String(),
  status: Type.String({ description: 'Pending, Completed (waiting for the amounts), Verified, Failed, Expired' }),
  attemptsLeft: Type.Integer(),
});

/** POST /connect/api/microentry/amounts: the two amounts the customer found on the account. */
export const ConnectMicroEntryAmounts = Type.Object({ amounts: Type.Array(Type.Number(), { maxItems: 10 }) });

/** POST /connect/api/session: what the app shows for its link. */
/** A borrower of a joint borrower link. */
export const ConnectBorrower = Type.Object({
  type: Type.Union([Type.Literal('primary'), Type.Literal('jointBorrower')]),
  customerId: Type.String(),
  name: Type.String({ description: "The borrower's consumer's name" }),
});

export const ConnectSession = Type.Object({
  mode: Type.Union([Type.Literal('full'), Type.Literal('lite'), Type.Literal('fix'), Type.Literal('microentry')]),
  customerId: Type.String(),
  experience: Experience,
  language: Type.String(),
  redirectUri: Nullable(Type.String()),
  institution: Nullable(ConnectInstitution, { description: 'The institution a Lite or Fix link signs in at; null for Full' }),
  institutionLoginId: Nullable(Type.String({ description: 'The login a Fix link repairs' })),
  microEntry: Nullable(ConnectMicroEntry, { description: 'The micro entries a verification link asks the amounts of; null for other links' }),
  borrowers: Nullable(Type.Array(ConnectBorrower), {
    description:
      'A joint borrower link: its two borrowers, whose accounts are linked in turn (the Connect-Borrower header of each call names whose); null for other links',
  }),
});

/** GET /connect/api/institutions: a page of the institution search. */
export const ConnectInstitutionPage = Type.Object({
  found: Type.Integer(),
  displaying: Type.Integer(),
  moreAvailable: Type.Boolean(),
  institutions: Type.Array(ConnectInstitution),
});

/** One field of an institution's sign-in form. */
export const ConnectLoginField = Type.Object({
  id: Type.String({ description: '<institutionId>001 for the user id, <institutionId>002 for the password, and so on' }),
  name: Type.String(),
  label: Type.String(),
  kind: Type.Union([Type.Literal('text'), Type.Literal('password'), Type.Literal('token')], {
    description: 'token: a secret pasted from elsewhere (a setup token), masked and not offered to password managers',
  }),
  displayOrder: Type.Integer({ description: 'From 1' }),
  hint: O(Type.String({ description: 'Help shown with the field: what to enter and where to find it' })),
});

/** Sandbox mode, test institutions only: test user names that sign in at the institution, shown under the form. */
export const ConnectTestCredentials = Type.Object({
  note: Type.String({ description: 'One sentence on how test sign-ins work here (the password rule, MFA or errors at this institution)' }),
  users: Type.Array(
    Type.Object({
      username: Type.String({ description: 'A test profile, e.g. profile_01' }),
      password: Type.String(),
      description: Type.String({ description: 'What signing in as this user does' }),
    }),
  ),
});

/** POST /connect/api/institutions/{institutionId}: the chosen institution's sign-in form. */
export const SelectedInstitution = Type.Object({
  institution: ConnectInstitution,
  loginForm: Type.Array(ConnectLoginField, { description: 'Empty for OAuth institutions' }),
  oauth: Type.Boolean(),
  live: Type.Boolean({
    description: 'Signs in at the institution; false when only statement files can be uploaded (no connector, or a Fix link of a statement-file login)',
  }),
  testCredentials: O(ConnectTestCredentials),
});

export const MfaOption = Type.Object({ value: Type.String(), label: Type.String() });

/** An MFA question: text, a choice among options, or an image with options or a text answer. */
export const MfaChallenge = Type.Object({
  id: Type.String({ description: 'Send it back with the answer' }),
  kind: Type.Union([Type.Literal('text'), Type.Literal('choice'), Type.Literal('image')]),
  prompt: Type.String(),
  image: O(Type.String({ description: 'image: a data URL' })),
  options: O(Type.Array(MfaOption, { description: 'choice, and image questions answered by picking' })),
});

/** An account the institution shows for a sign-in, before the user chooses. */
export const DiscoveredAccount = Type.Object({
  ref: Type.String({ description: "Send it back to choose the account: a handle for this customer's account at the institution, never its number" }),
  name: Type.String(),
  type: Type.String(),
  accountNumberDisplay: Type.String(),
  balance: Type.Number(),
  currency: Type.String(),
  alreadyLinked: Type.Boolean({ description: 'Already linked under this customer at this institution' }),
  marketSegment: Type.Union([Type.Literal('personal'), Type.Literal('business')], {
    description: 'How the institution classes the account (what a Connect Components configuration filters on)',
  }),
});

/** Where a sign-in is: MFA asked, an OAuth window open, accounts to choose, failed, or finished. */
export const SignInStep = Type.Union([
  Type.Object({ step: Type.Literal('mfa'), sessionId: Type.String(), challenges: Type.Array(MfaChallenge) }),
  Type.Object({
    step: Type.Literal('oauth'),
    sessionId: Type.String(),
    authorizeUrl: O(Type.String({ description: "The institution's sign-in page; absent when the step is asked again" })),
  }),
  Type.Object({ step: Type.Literal('accounts'), sessionId: Type.String(), accounts: Type.Array(DiscoveredAccount) }),
  Type.Object({
    step: Type.Literal('failed'),
    sessionId: Type.String(),
    code: Type.Integer({ description: 'Aggregation status code' }),
    message: Type.String(),
  }),
  Type.Object({ step: Type.Literal('finished'), sessionId: Type.String() }),
]);

/** A linked account as Connect shows it. */
export const ConnectAccount = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  accountNumberDisplay: Type.String(),
  balance: Type.Number(),
  currency: Type.String(),
});

/** POST /connect/api/signin/{sessionId}/accounts: the accounts saved under the institution login. */
export const AddedAccounts = Type.Object({
  institutionLoginId: Type.String(),
  institution: InstitutionRef,
  accounts: Type.Array(ConnectAccount),
});

/** POST /connect/api/institutions/{institutionId}/statements: what the uploaded file brought, under the statement-file login. */
export const StatementUploaded = Type.Object({
  institutionLoginId: Type.String(),
  institution: InstitutionRef,
  accounts: Type.Array(ConnectAccount),
  transactionsAdded: Type.Integer({ description: 'Transactions not seen before' }),
  transactionsAlreadyPresent: Type.Integer({ description: 'Transactions an earlier upload already brought' }),
  transactionsMatched: Type.Integer({
    description: 'Transactions another source of the same account (a live connection, another file) already stored: not stored twice',
  }),
  problems: Type.Array(Type.Object({ line: O(Type.Integer()), message: Type.String() }), { description: 'Rows that could not be read' }),
  mapping: O(StatementMappingUsed),
});

/** POST /connect/api/institutions/{institutionId}/statements?preview=true: what the file would store (the API's preview). */
export { StatementPreview };

/** The query string of a statement upload (the file is the body): the API's options. */
export const ConnectStatementQuery = StatementUploadQuery;

/** What the upload screen's file picker offers: every format's file names and documented media types. */
export const STATEMENT_FILE_ACCEPT: readonly string[] = STATEMENT_FORMAT_NAMES.flatMap((f) => [
  ...STATEMENT_FORMATS[f].extensions,
  ...Object.keys(STATEMENT_FORMATS[f].media),
]);

/** The formats as the user knows them, for the upload screen's words. */
export const STATEMENT_FORMAT_LABELS: readonly string[] = STATEMENT_FORMAT_NAMES.map((f) => STATEMENT_FORMATS[f].label);

/** The `details` of an error answer: a CSV file's headers and sample rows (14112), a mapping's problems (14113). */
export { ErrorDetails };

/** A linked institution login with its accounts (account management). */
export const ConnectLogin = Type.Object({
  institutionLoginId: Type.String(),
  institution: InstitutionRef,
  aggregationStatusCode: Type.Integer({ description: '0, or what the last aggregation failed with' }),
  accounts: Type.Array(ConnectAccount),
});

/** GET /connect/api/logins. */
export const ConnectLogins = Type.Object({ logins: Type.Array(ConnectLogin) });

/** POST /connect/api/done and /cancel: where to send the browser (outside an iframe). */
export const ConnectRedirect = Type.Object({ redirectUri: Nullable(Type.String()) });

// ---------- request bodies ----------

/** POST /connect/api/done and /cancel. */
export const ConnectEndBody = Type.Object({ reason: Type.String({ maxLength: 200, default: '' }) });

/** POST /connect/api/signin: the institution's form filled in (empty for OAuth institutions). */
export const ConnectSignInBody = Type.Object({
  institutionId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  credentials: Type.Array(Type.Object({ id: Type.String({ maxLength: 64 }), value: Type.String({ maxLength: 1024 }) }), { maxItems: 10, default: [] }),
});

/** POST /connect/api/signin/{sessionId}/mfa. */
export const ConnectMfaBody = Type.Object({
  answers: Type.Array(Type.Object({ id: Type.String({ maxLength: 512 }), value: Type.String({ maxLength: 1024 }) }), { minItems: 1, maxItems: 10 }),
});

/** POST /connect/api/signin/{sessionId}/accounts: the chosen accounts (Fix sends none: the login's accounts stay). */
export const ConnectAccountsBody = Type.Object({
  accountRefs: O(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 200 })),
  /** The answer to AccountMatchUncertain (409, 14115): per account `ref` of the step, the account it is or `new`. */
  sameAs: O(Type.Record(Type.String({ maxLength: 256 }), Type.String({ maxLength: 32 }), { maxProperties: 200 })),
});

// ---------- the web SDK protocol ----------

/** The data of the `done`, `cancel` and `error` events Connect posts to the SDK. */
export const ConnectSdkEvent = Type.Object({ code: Type.Integer(), reason: Type.String() }, { additionalProperties: true });

/** The data of the `route` event: the screen Connect shows now. */
export const ConnectSdkRouteEvent = Type.Object({ screen: Type.String(), params: Type.Unknown() });
