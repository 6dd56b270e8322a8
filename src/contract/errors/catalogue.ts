/**
 * Every error code Ledgerlink answers with. Codes shared with the real-world service keep its numbers;
 * the rest are ours. docs/errors.md is generated from this table (npm run docs:errors) and a test
 * checks the two agree.
 */
export interface ErrorDefinition {
  readonly code: string;
  readonly status: number;
  /** Default message; routes may give a more specific one. */
  readonly message: string;
  /** When a caller sees it, for the docs. */
  readonly when: string;
}

function define<const T extends Record<string, ErrorDefinition>>(defs: T): T {
  return defs;
}

export const ErrorCatalogue = define({
  // Authentication
  InvalidCredentials: {
    code: '10001',
    status: 401,
    message: 'Invalid credentials',
    when: 'Partner authentication or secret change with a wrong partnerId or partnerSecret: counts towards the lock-out. Dashboard sign-in with a wrong partner id or secret: counts towards its throttle only, with the same message for known and unknown partner ids.',
  },
  MissingParameter: {
    code: '10005',
    status: 400,
    message: 'Missing parameter',
    when: 'A required field or query parameter is absent, empty or only white space. The message names it.',
  },
  InvalidParameter: {
    code: '10010',
    status: 400,
    message: 'Invalid parameter',
    when: 'A field or parameter has the wrong type, format or range. The message names it and says what is expected.',
  },
  InvalidAppKey: {
    code: '10020',
    status: 401,
    message: 'Invalid (Service-App-Key)',
    when: 'The app key is not one Ledgerlink issued, or it was rotated away.',
  },
  NotAuthorized: { code: '10021', status: 401, message: 'You are not authorized.', when: 'The app key and the token belong to different partners.' },
  InvalidToken: { code: '10022', status: 401, message: 'Invalid (Service-App-Token)', when: 'The token is not one Ledgerlink issued.' },
  ExpiredToken: {
    code: '10023',
    status: 401,
    message: 'Expired (Service-App-Token)',
    when: 'The token is older than its two-hour lifetime. Authenticate again.',
  },
  MissingToken: {
    code: '10024',
    status: 401,
    message: 'Missing parameter (Service-App-Token)',
    when: 'A route that needs a token was called without the Service-App-Token header.',
  },
  NoDataToUpdate: { code: '10025', status: 400, message: 'No data to update.', when: 'A modify call carried none of the fields it can change.' },
  MissingAppKey: { code: '10026', status: 401, message: 'Missing parameter (Service-App-Key)', when: 'The Service-App-Key header is absent.' },
  PartnerLocked: {
    code: '10027',
    status: 401,
    message: 'Partner account is locked after too many failed authentications',
    when: "Five consecutive failed authentications with the partner's app key locked the partner. Every authentication is refused, the right secret as well, until `ledgerlink partner unlock` or the partner's own dashboard (after signing in with the secret) unlocks it; tokens issued before the lock keep working. Dashboard sign-in failures never lock.",
  },
  AuthenticationBusy: {
    code: '10028',
    status: 429,
    message: 'Other authentications of this partner are being checked; try again in a moment.',
    when: 'Authentication (API or dashboard) while as many attempts of the same partner as the lock-out allows (five) were being checked at once for more than about five seconds. No secret was checked; Retry-After says when to try again.',
  },
  PartnerSecretPolicy: {
    code: '24437',
    status: 400,
    message: 'New password is not as per policy',
    when: 'The new partner secret breaks the secret policy (docs/authentication.md).',
  },

  // Request format
  MalformedBody: { code: '10040', status: 400, message: 'Malformed request body', when: 'The body is not valid JSON or XML for its Content-Type.' },
  UnsupportedMediaType: {
    code: '10041',
    status: 415,
    message: 'Unsupported Content-Type',
    when: 'The body has a Content-Type other than application/json, application/xml or text/xml; for statement uploads, other than the OFX/QFX and CSV types (docs/connectors.md, "Statement files").',
  },
  PayloadTooLarge: { code: '10042', status: 413, message: 'Request body too large', when: 'The body is larger than the configured limit (1 MiB by default).' },
  NotAcceptable: {
    code: '10043',
    status: 406,
    message: 'Not acceptable: use Accept application/json or application/xml',
    when: 'The Accept header allows neither JSON nor XML. The error itself is rendered as JSON.',
  },
  XmlDoctypeRefused: {
    code: '10044',
    status: 400,
    message: 'XML document type declarations and entities are not accepted',
    when: 'An XML body contains a DOCTYPE or ENTITY declaration (entity expansion attacks are refused outright).',
  },
  XmlTooDeep: { code: '10045', status: 400, message: 'XML nested too deeply', when: 'An XML body nests elements deeper than 32 levels.' },
  PathTooLong: { code: '10046', status: 414, message: 'A path parameter is too long', when: 'A path segment (an id) is longer than 200 characters.' },
  MalformedUrl: { code: '10047', status: 400, message: 'Malformed URL', when: 'The URL path has invalid percent-encoding.' },
  JsonTooDeep: {
    code: '10048',
    status: 400,
    message: 'JSON nested too deeply',
    when: 'A JSON body nests objects and arrays deeper than 32 levels (the body itself is level 1). Checked before the body is parsed.',
  },
  MalformedHttpRequest: {
    code: '10400',
    status: 400,
    message: 'Malformed HTTP request',
    when: 'The request line or a header is not valid HTTP/1.1 (an invalid method, a space in a header name, a control character in a value, conflicting Content-Length and Transfer-Encoding...), so it was refused before it reached any route. Always JSON: there is no Accept to negotiate with. The connection is closed.',
  },
  RequestTimeout: {
    code: '10408',
    status: 408,
    message: 'The request did not arrive within 30 seconds',
    when: 'The request line, headers and body did not all arrive within the request timeout (30 seconds). Always JSON; the connection is closed.',
  },
  HeadersTooLarge: {
    code: '10431',
    status: 431,
    message: 'Request line and headers too large',
    when: 'The request line and headers together are larger than 16 KiB. Always JSON; the connection is closed.',
  },
  BadRequest: {
    code: '14020',
    status: 400,
    message: 'Bad request.',
    when: 'A request that is well-formed but cannot be carried out as asked; the message says why. The payment operations (ACH details, available balance, loan payment details) answer it for an account of a type they do not serve (`Bad request. (Account type not supported).`, as the real-world service does) and for one whose source does not give what they need: a routing number or full account number (SimpleFIN, CSV files), payment instructions, a balance stated by a statement file, a live source (docs/payments.md).',
  },
  StartIndexTooSmall: { code: '41003', status: 400, message: 'Start index cannot be less than one.', when: '`start` is below 1.' },
  LimitTooSmall: {
    code: '41004',
    status: 400,
    message: 'Limit cannot be less than one.',
    when: '`limit` is below 1 (or above the documented maximum, with a message that says so).',
  },

  // Transport and callers
  TlsRequired: {
    code: '10050',
    status: 403,
    message: 'TLS 1.2 or higher is required: use https://',
    when: 'A plain-HTTP request from an address that is neither loopback nor a trusted proxy reporting that it terminated TLS (see docs/security.md).',
  },
  RegionNotPermitted: {
    code: '10051',
    status: 403,
    message: 'Requests from this location are not permitted',
    when: "The caller's IP address is located outside the permitted countries (default US, CA, GB). A policy, not a security boundary: see docs/security.md.",
  },

  // Resources
  RouteNotFound: { code: '10404', status: 404, message: 'Route not found', when: 'No operation exists for this method and path.' },
  ResourceNotFound: {
    code: '14001',
    status: 404,
    message: 'Resource not found.',
    when: "A customer, account, transaction or other record does not exist for the calling partner. Another partner's ids look exactly like unknown ids.",
  },

  StatementNotFound: {
    code: '16201',
    status: 404,
    message: 'Statement not found.',
    when: 'Get Customer Account Statement for an index at which the account has no statement with transactions: past its oldest statement, or a month in which nothing posted (docs/statements.md). Get Customer Account Multiple Statement Details names it, with the message `statement not found.`, in the entry of such an index instead of answering it.',
  },
  AssetNotFound: {
    code: '16202',
    status: 404,
    message: 'Asset not found.',
    when: "Get Asset by Customer and ID with an id that names no statement or kept statement file of the customer: unknown, another customer's or partner's, or a statement of a period the account no longer lists (docs/statements.md).",
  },

  AccountOwnerNotFound: {
    code: '12017',
    status: 404,
    message: 'No Account Owners Details Found.',
    when: "Get Account Owner (v1, v3) and Account Owner Match for an account whose source gives no owners: OFX, SimpleFIN and statement files do not; the test bank's profiles do (docs/payments.md).",
  },

  // Customers
  UsernamePolicy: {
    code: '110039',
    status: 400,
    message: 'Username is not as per the policy.',
    when: 'A customer username is shorter than 6 or longer than 255 characters, or has a character other than ASCII letters, digits and ! @ . # $ % & * _ - +. The message names the problem.',
  },
  UsernameNotAvailable: {
    code: '110002',
    status: 409,
    message: 'Username is not available.',
    when: 'The calling partner already has a customer with this username.',
  },
  InvalidCustomerType: {
    code: '14016',
    status: 400,
    message: 'Invalid customer type.',
    when: '`type` on Get Customers is neither `testing`, `active` nor empty.',
  },
  InvalidNameCharacters: {
    code: '45003',
    status: 400,
    message: 'Invalid character in name fields.',
    when: "firstName or lastName has a character other than letters, digits, spaces and ' . , -, or is longer than 255 characters.",
  },
  ActiveCustomerNotAllowed: {
    code: '14060',
    status: 401,
    message: 'Active customers need a production plan; a partner on the Test Drive plan can add testing customers only.',
    when: 'A Test Drive partner called Add Customer (`/aggregation/v2/customers/active`).',
  },
  InstitutionNotAllowed: {
    code: '14061',
    status: 403,
    message: 'Testing customers can link accounts only at test institutions.',
    when: 'A testing customer tried to link accounts at an institution that is not a test institution (class testfi).',
  },

  // Consumers
  ConsumerFieldInvalid: {
    code: '10100',
    status: 400,
    message: 'Invalid format for field consumer.',
    when: 'Create or Modify Consumer with a field of the wrong format: an SSN that is not 9 digits (hyphens allowed), a phone of more than 15 characters or with other characters than digits, spaces and + ( ) - ., an e-mail that is not an address, a ZIP code other than 5 digits or ZIP+4, a state that is not a two-letter US code, a birthday that is incomplete, not a calendar day, before 1900 or in the future, or a text longer than its limit (docs/consumers.md). The message names the field (`consumer.ssn`) and the format.',
  },
  ConsumerExists: {
    code: '11000',
    status: 409,
    message: 'A consumer already exists for this customer.',
    when: 'Create Consumer for a customer that has one already (a customer has at most one). Modify it instead.',
  },

  // Institutions
  InstitutionNotFound: { code: '14006', status: 404, message: 'Institution not found.', when: 'No institution has this id.' },
  RoutingNumberNotFound: {
    code: '14007',
    status: 404,
    message: 'No institution found for this routing number.',
    when: "Get Institutions by Routing Number with a valid routing number that no test institution has and no account of the partner's customers stated (docs/payments.md).",
  },

  // Aggregation
  InstitutionNotSupported: {
    code: '14062',
    status: 400,
    message: 'Accounts cannot be linked at this institution yet.',
    when: 'The institution has no connector (today only the test institutions have one), so accounts cannot be linked or refreshed there.',
  },
  OAuthRequiresConnect: {
    code: '14063',
    status: 400,
    message: 'This institution signs in with OAuth: link its accounts through Connect.',
    when: "addall was called for an OAuth institution (such as 102168), where the user signs in on the institution's own page; generate a Connect link instead.",
  },
  InitialAggregationRequired: {
    code: '14064',
    status: 409,
    message: 'An initial aggregation is required before transactions can be read.',
    when: "Transactions of an account were asked for before its first successful refresh (or historic load), or a customer's transactions before any of its accounts was aggregated. Call Refresh Customer Accounts first (docs/aggregation.md).",
  },
  LinkStepMismatch: {
    code: '14065',
    status: 409,
    message: 'The sign-in is not at this step.',
    when: 'An MFA answer, OAuth code or account choice was sent for a sign-in session that is at another step (for example one that already finished or failed).',
  },
  AggregationInProgress: {
    code: '325',
    status: 409,
    message: 'The account is currently being aggregated.',
    when: 'A synchronous refresh or historic load found another refresh of the same institution login running, and it did not finish within the wait (30 seconds). Try again later.',
  },
  InstitutionUnavailable: {
    code: '102',
    status: 424,
    message: 'The institution is unavailable; try again later (aggregation status 102).',
    when: "Signing in (addall, Connect) or loading history failed because the institution's site is down. Temporary; not fixable by the user.",
  },
  InstitutionCredentialsInvalid: {
    code: '103',
    status: 400,
    message: 'The user ID or password is incorrect (aggregation status 103).',
    when: 'The institution refused the credentials (or a saved sign-in no longer works). The user fixes it by signing in again (Connect Fix).',
  },
  InstitutionUserActionRequired: {
    code: '108',
    status: 400,
    message: 'The user must act at the institution first (aggregation status 108).',
    when: 'The institution wants the user to do something on its site (accept terms, confirm details) before access works.',
  },
  InstitutionPasswordChangeRequired: {
    code: '109',
    status: 400,
    message: 'The institution requires a new password (aggregation status 109).',
    when: 'The user must change the password at the institution, then sign in again.',
  },
  MfaAnswerRequired: {
    code: '185',
    status: 400,
    message: 'An MFA answer is required (aggregation status 185).',
    when: 'The institution asks a security question that cannot be answered now (a background refresh, a history load), or the question timed out. Sign in again through Connect Fix.',
  },
  MfaAnswerIncorrect: {
    code: '187',
    status: 400,
    message: 'The MFA answer is incorrect (aggregation status 187).',
    when: "The answer to the institution's security question was wrong or missing.",
  },
  StatementFileTooLarge: {
    code: '14110',
    status: 413,
    message: 'The statement file is too large.',
    when: 'Upload Statement File with a file of more than 10 MB, or a CSV file of more than 100,000 rows. Upload a shorter period.',
  },
  StatementFileUnreadable: {
    code: '14111',
    status: 400,
    message: 'The statement file cannot be read.',
    when: 'Upload Statement File with a file that is empty, is broken (unclosed quotes, a row of more than 200 columns, an OFX file that cannot be parsed or holds only a refused sign-on, XML that is not well-formed, a QIF line of more than 65,536 characters), or from which nothing could be imported (no account or no transaction read). The message says why.',
  },
  StatementFormatUnsupported: {
    code: '14114',
    status: 415,
    message: 'The statement file is in a format Ledgerlink does not read.',
    when: 'Upload Statement File with a file that is none of the formats Ledgerlink reads (docs/connectors.md, "Statement files"): a PDF, a spreadsheet workbook, other binary data, a web page, an XML document of another kind, JSON. The message says what it is and which formats to download instead; `details.formats` lists them. Never answered with a column-mapping question.',
  },
  StatementLayoutUnknown: {
    code: '14112',
    status: 422,
    message: 'Which column holds what cannot be told from this CSV file: give a column mapping.',
    when: "Upload Statement File with a CSV file whose layout is not recognised (no known bank's header, no columns named like a date, a description and an amount) and no `mapping`. `details` carries the file's `headers`, the `headerRow` they are on and a few `sample` rows, for a client to ask the user which column is which and send the upload again with `mapping`. Also a card export of no bank's layout (card columns in its header, or `accountType` creditCard) whose one amount column is all positive or all negative with no payment to the card, read without a `mapping` stating `negate`: the file cannot tell which way its signs go, so `details` also carries the proposed `mapping` and `ask: [\"sign\"]`; send that mapping with `negate` true (purchases shown positive) or false (shown negative).",
  },
  AccountMatchUncertain: {
    code: '14115',
    status: 409,
    message: 'The account may be one the customer already has: say whether it is.',
    when: 'Upload Statement File (or finish a sign-in) with an account that may be one of the customer\'s accounts without being certainly it: the same number or last four and type at another institution, transaction ids both hold at another institution, amounts and dates both hold where one states no number, or two accounts that match alike (docs/aggregation.md, "One account, several sources"). Nothing was stored. `details.sameAs` names each such account (`ref`) and its `candidates`; send the request again with `sameAs` naming, for each, the account it is or `"new"`.',
  },
  StatementMappingInvalid: {
    code: '14113',
    status: 400,
    message: 'The column mapping does not fit the file.',
    when: "Upload Statement File with a `mapping` that is not a mapping object or does not fit the CSV file (an unknown field or column, no date, description or amount column, one column given to two amount fields). `details` carries every problem (`errors`) and the file's `headers`.",
  },
  ExportFormatUnknown: {
    code: '14170',
    status: 400,
    message: 'Unknown export format: use csv, ofx or qif.',
    when: 'Export transactions (API, dashboard or `ledgerlink export`) with a `format` that is not one of the export formats (docs/exports.md). The message lists them.',
  },
  ExportDatesInvalid: {
    code: '14171',
    status: 400,
    message: 'The export dates are not valid.',
    when: 'Export transactions with a `fromDate` or `toDate` that is neither epoch seconds nor a `YYYY-MM-DD` day, or a `fromDate` after the `toDate` (docs/exports.md). The message names the date.',
  },
  RuleInvalid: {
    code: '14150',
    status: 400,
    message: 'The rule is not valid.',
    when: 'Create, replace or preview a rule (docs/aggregation.md, "Rules") with a condition whose operator does not fit its field (`greaterThan` on a description), an amount that is not a number, an id that is not one, an unknown category, or two actions setting one field. The message names the condition or action.',
  },
  RulePatternRefused: {
    code: '14151',
    status: 400,
    message: 'The regular expression of a `matches` condition is refused.',
    when: 'A `matches` condition whose pattern does not compile, is longer than the limit, or could take long on some texts: a repeated group holding a repetition or an alternative (`(a+)+`, `(a|ab)*`), back-references, look-arounds, more unbounded repetitions than the limit, or more `matches` conditions among all the rules of the partner than the limit (docs/aggregation.md, "Rules"). The message says which.',
  },
  RuleLimitReached: {
    code: '14152',
    status: 409,
    message: 'The partner has as many rules as it may keep.',
    when: 'Create a rule when the partner already has the most rules it may keep (docs/aggregation.md, "Rules"). Delete or merge rules first.',
  },
  SimplefinPublicUrlUnset: {
    code: '14180',
    status: 409,
    message: "The service's public address is not set: SimpleFIN clients could not reach the claim URL.",
    when: 'Create SimpleFIN Setup Token (API, CLI, dashboard) when the service was started without LEDGERLINK_PUBLIC_URL (or `--public-url`): claim and access URLs are made from it, and the address the service merely listens on is rarely the one clients reach (docs/simplefin-server.md).',
  },
  SimplefinUnknownAccount: {
    code: '14181',
    status: 400,
    message: "An account id is not one of the customer's accounts.",
    when: 'Create SimpleFIN Setup Token with `accountIds` naming an account the customer does not have. The message names it.',
  },
  SimplefinClaimRefused: {
    code: '14182',
    status: 403,
    message: 'This setup token cannot be claimed: it is unknown, used or expired.',
    when: 'POST to a SimpleFIN claim URL whose token was claimed already, has expired, or was never minted (the protocol answers 403 for each). Mint a new setup token.',
  },
  SimplefinAccessRefused: {
    code: '14183',
    status: 403,
    message: 'Access denied: the SimpleFIN credentials are wrong or were revoked.',
    when: 'A request to the SimpleFIN access path (`/simplefin/accounts`, `/simplefin/info`) without Basic credentials, with wrong ones, or with those of a revoked access or a deleted customer (the protocol answers 403, not 401). Mint a new setup token.',
  },
  SimplefinBudgetSpent: {
    code: '14184',
    status: 403,
    message: "This SimpleFIN access has made all of today's requests.",
    when: "GET `/simplefin/accounts` past the access's daily request budget (LEDGERLINK_SIMPLEFIN_DAILY_REQUESTS, per UTC day). The last answers before it carry a warning in `errors`; the budget starts again at 00:00 UTC (docs/simplefin-server.md).",
  },
  InstitutionAuthorizationExpired: {
    code: '945',
    status: 400,
    message: 'The authorization at the institution expired or was revoked (aggregation status 945 to 948).',
    when: "An OAuth institution no longer honours the user's consent; the message carries the exact status. The user authorizes again through Connect Fix.",
  },

  // TxPUSH
  ListenerUrlInvalid: {
    code: '14080',
    status: 400,
    message: 'The callbackUrl is not an acceptable listener URL.',
    when: 'Subscribe to TxPUSH with a callbackUrl that is not an http(s) URL or carries credentials (user:password@).',
  },
  ListenerHttpsRequired: {
    code: '14081',
    status: 400,
    message: 'The listener must use https.',
    when: 'Subscribe to TxPUSH with an http callbackUrl for an account that is not at a test institution, or for a partner not on the Test Drive plan (docs/txpush.md).',
  },
  ListenerPortNotAllowed: {
    code: '14082',
    status: 400,
    message: 'Only ports 80 (http) and 443 (https) are allowed for listeners.',
    when: 'Subscribe to TxPUSH with a callbackUrl on another port (in sandbox mode, ports listed in LEDGERLINK_PUSH_EXTRA_PORTS are allowed too).',
  },
  ListenerAddressRefused: {
    code: '14083',
    status: 400,
    message: 'The listener address is refused by the outbound target policy.',
    when: 'The callbackUrl resolves only to addresses the outbound target policy refuses (loopback and private networks in production mode; link-local, metadata, reserved everywhere). See docs/delivery.md.',
  },
  ListenerUnreachable: {
    code: '14084',
    status: 400,
    message: 'The listener could not be reached for verification.',
    when: 'The verification request (GET callbackUrl?txpush_verification_code=...) failed: the name does not resolve, the connection was refused, TLS failed, or no complete answer came within the delivery timeout. The message carries the cause.',
  },
  ListenerVerificationStatus: {
    code: '14085',
    status: 400,
    message: 'The listener answered the verification request with a status other than 200.',
    when: 'The listener answered the verification GET with another status (redirects are not followed). The message carries the status.',
  },
  ListenerVerificationContentType: {
    code: '14086',
    status: 400,
    message: 'The listener answered the verification request with a Content-Type other than text/plain.',
    when: 'The verification answer was 200 but its Content-Type was not text/plain. The message carries what was received.',
  },
  ListenerVerificationBody: {
    code: '14087',
    status: 400,
    message: 'The listener answered the verification request with a body other than the verification code.',
    when: 'The verification answer was 200 text/plain but its body was not exactly the txpush_verification_code sent (no extra white space or line break).',
  },
  TooManyListeners: {
    code: '14088',
    status: 409,
    message: 'The account has as many TxPUSH listeners as it may have.',
    when: 'Subscribe to TxPUSH with a new callbackUrl for an account that already has 5 listeners. Subscribing a callbackUrl the account already has replaces its subscriptions instead.',
  },
  TestTransactionNotSupported: {
    code: '14089',
    status: 403,
    message: 'Test transactions can be created only for accounts at test institutions.',
    when: 'Create TxPUSH Test Transaction for an account at an institution that is not a test institution.',
  },

  // Sandbox controls (docs/sandbox.md)
  SandboxNotAllowed: {
    code: '14090',
    status: 403,
    message: 'Sandbox controls are only for partners on the Test Drive plan.',
    when: 'Any sandbox control (`/sandbox/v1/...`, `ledgerlink sandbox`, `ledgerlink trigger`, `ledgerlink listen --partner`, `ledgerlink listen` in client mode) called for a partner on the production plan.',
  },
  SandboxErrorCodeUnsupported: {
    code: '14091',
    status: 400,
    message: 'Not an error state the sandbox sets.',
    when: 'Put Institution Login Error with a `code` other than 102, 103, 108, 109 or 185.',
  },
  SandboxEventUnknown: {
    code: '14092',
    status: 400,
    message: 'Unknown event type.',
    when: 'Fire Connect Webhook with an `eventType` Connect does not send, or Fire TxPUSH Event with one other than account.created, account.modified, account.deleted, transaction.created, transaction.modified, transaction.deleted. The message lists them.',
  },
  SandboxWebhookUnknown: {
    code: '14093',
    status: 409,
    message: 'No webhook URL is known for this customer.',
    when: 'Fire Connect Webhook without `webhook` for a customer none of whose Connect links had a webhook URL.',
  },
  SandboxNotSubscribed: {
    code: '14094',
    status: 409,
    message: 'The account has no TxPUSH subscription for this class of events.',
    when: "Fire TxPUSH Event for an account with no subscription of the event's class (account or transaction): nobody would receive it.",
  },
  SandboxNoTransaction: {
    code: '14095',
    status: 409,
    message: 'The account has no transactions yet.',
    when: 'Fire TxPUSH Event of a transaction event type, without `transactionId`, for an account that has no transaction yet.',
  },
  ListenerClaimLost: {
    code: '14096',
    status: 409,
    message: 'This delivery is no longer held for the listener.',
    when: '`ledgerlink listen` (client mode) reports what became of a delivery it took, after its hold ran out (60 seconds) and it was taken again, or after the listener was removed: the report is not recorded.',
  },
  ListenerLimitReached: {
    code: '14097',
    status: 409,
    message: 'The partner has as many live listeners as it may have.',
    when: 'Registering a listener (`ledgerlink listen`, client mode or `--partner`) while the partner already has 5 live ones. Each gets a copy of every push and webhook; stop one (or let it lapse, 60 seconds after it stopped) first.',
  },
  ListenerPollReplaced: {
    code: '14098',
    status: 409,
    message: 'Another poll of this listener started; this one ended.',
    when: 'A waiting poll of a listener (`POST /cli/v1/listeners/{id}/poll`) ends this way when a newer poll of the same listener starts: a listener has one open poll at a time, the newest.',
  },
  // Connect
  ConnectExperienceUnknown: {
    code: '14070',
    status: 400,
    message: 'Unknown experience.',
    when: '`experience` names no experience of the partner. `default` always exists; others are created with `ledgerlink experience set`.',
  },
  ConnectLinkInvalid: {
    code: '14071',
    status: 403,
    message: 'This Connect link is not valid. Ask for a new link.',
    when: 'A Connect link (or a Connect app call carrying it) whose signature does not match its parameters: it was altered, truncated or made up.',
  },
  ConnectLinkExpired: {
    code: '14072',
    status: 410,
    message: 'This Connect link has expired. Ask for a new link.',
    when: 'A Connect link used after its `ttl` (two hours after it was generated).',
  },
  ConnectLinkUsed: {
    code: '14073',
    status: 410,
    message: 'This Connect link has already been used. Ask for a new link.',
    when: 'A single-use Connect link (`singleUseUrl: true`) opened again after its Connect session completed.',
  },
  ConnectActionNotAllowed: {
    code: '14074',
    status: 403,
    message: 'This Connect link does not allow this action.',
    when: 'The Connect app was asked for something its variant does not offer: account management outside Full, another institution than a Lite or Fix link names.',
  },
  EmailLimitReached: {
    code: '14075',
    status: 429,
    message: 'The partner has sent as many e-mails as it may this hour.',
    when: 'Send Connect E-mail when the partner already queued its hourly allowance of e-mails (100 by default, LEDGERLINK_EMAIL_LIMIT_PER_HOUR). Retry-After says when the oldest of them leaves the hour.',
  },

  // Dashboard
  DashboardSignInRequired: {
    code: '14100',
    status: 401,
    message: 'Sign in to the dashboard.',
    when: 'A dashboard call (/dashboard/api) without a session cookie, or with one that is unknown or was signed out.',
  },
  DashboardSessionExpired: {
    code: '14101',
    status: 401,
    message: 'Your dashboard session has expired. Sign in again.',
    when: 'A dashboard call with a session older than its lifetime (8 hours by default, LEDGERLINK_DASHBOARD_SESSION_TTL_SECONDS).',
  },
  DashboardCsrfRefused: {
    code: '14102',
    status: 403,
    message: "The request did not carry this session's CSRF token.",
    when: 'A state-changing dashboard call without the X-CSRF-Token header, or with a token of another session.',
  },
  DashboardOriginRefused: {
    code: '14103',
    status: 403,
    message: 'Cross-site requests to the dashboard are refused.',
    when: "A state-changing dashboard call (sign-in and sign-up included) whose Origin is not the dashboard's own, whose Sec-Fetch-Site is cross-site, or that carries neither header.",
  },
  DashboardSignInThrottled: {
    code: '14105',
    status: 429,
    message: 'Too many failed sign-ins. Wait before trying again.',
    when: "Dashboard sign-in after five failures for the same partner id or twenty from the same address: refused, whatever the secret, for a cool-down of one minute that doubles each time it is served again (up to an hour). Retry-After says how long. Dashboard sign-in failures never lock the partner's API.",
  },
  DashboardSignUpDisabled: {
    code: '14104',
    status: 403,
    message: 'Sign-up is turned off on this server. Ask its operator for a partner.',
    when: 'Dashboard sign-up while it is turned off: by default in production mode, or with LEDGERLINK_DASHBOARD_SIGNUP=off (--dashboard-signup off). Operators create partners with `ledgerlink partner create`.',
  },

  // Webhook subscriptions (docs/webhook-subscriptions.md)
  WebhookUrlInvalid: {
    code: '16300',
    status: 400,
    message: 'The url is not an acceptable webhook URL.',
    when: 'Create or Update Webhook Subscription (or Update Webhook Subscription Event) with a url that is not an http(s) URL or carries credentials (user:password@).',
  },
  WebhookHttpsRequired: {
    code: '16301',
    status: 400,
    message: 'The webhook URL must use https.',
    when: 'A webhook subscription url that uses plain http, from a partner not on the Test Drive plan.',
  },
  WebhookPortNotAllowed: {
    code: '16302',
    status: 400,
    message: 'Only ports 80 (http) and 443 (https) are allowed for webhook URLs.',
    when: 'A webhook subscription url on another port (in sandbox mode, ports listed in LEDGERLINK_PUSH_EXTRA_PORTS are allowed too).',
  },
  WebhookAddressRefused: {
    code: '16303',
    status: 400,
    message: 'The webhook URL names an address Ledgerlink does not send to.',
    when: 'A webhook subscription url whose host is an IP address the outbound target policy refuses in this mode (link-local, cloud metadata, reserved; loopback and private ones in production mode).',
  },
  WebhookUrlMissing: {
    code: '16304',
    status: 400,
    message: 'An event has no URL to go to.',
    when: "A webhook subscription without a url has an event without a url of its own, or an event's own url is removed while the subscription has none.",
  },
  WebhookEventUnknown: {
    code: '16305',
    status: 400,
    message: 'Ledgerlink sends no event of this name.',
    when: 'A webhook subscription event named something other than one of List Available Webhook Subscription Events.',
  },
  WebhookEventRepeated: {
    code: '16306',
    status: 400,
    message: 'A subscription names each event once.',
    when: 'Create or Update Webhook Subscription naming an event twice, or Update Webhook Subscription Event renaming an event to one the subscription already has.',
  },
  WebhookConditionInvalid: {
    code: '16307',
    status: 400,
    message: 'The condition does not apply to this event.',
    when: "A webhook subscription event's condition names a subscribeFor field the event cannot be filtered on (List Available Webhook Subscription Events lists each event's fields), or gives neither includes nor excludes.",
  },
  WebhookStatusInvalid: {
    code: '16308',
    status: 400,
    message: 'The status must be active or inactive.',
    when: "Enable or Disable a Webhook Subscription or one of its events with another status (pending and removed are the reference's, set by the service alone).",
  },
  TooManyWebhookSubscriptions: {
    code: '16309',
    status: 409,
    message: 'The partner already has as many webhook subscriptions as it may.',
    when: 'Create Webhook Subscription when the partner has 100 subscriptions. Delete one first. Two calls racing at the very limit may both pass.',
  },

  // Service
  PartnerBusy: {
    code: '10432',
    status: 429,
    message: 'This partner already runs as many uploads or refreshes at once as it may.',
    when: 'Upload Statement File (API or Connect) while the partner already runs two uploads in this process (LEDGERLINK_PARTNER_CONCURRENT_UPLOADS), or a refresh or historic load while it already asked for eight (LEDGERLINK_PARTNER_CONCURRENT_REFRESHES). Nothing was started and the body was not read; Retry-After says when to try again.',
  },
  // Reports (docs/reports.md)
  ReportConsumerRequired: {
    code: '16000',
    status: 400,
    message: 'A consumer is required for this customer before reports can be generated.',
    when: 'A Generate Report call for a customer without a consumer (create one with Create Consumer first).',
  },
  ReportNoEligibleAccounts: {
    code: '16001',
    status: 400,
    message: 'No account of a type this report covers.',
    when: 'A Generate Report call for a customer with no account of the types the report covers (among `accountIds` when given). Also the error of a report that failed because those accounts were gone when it was computed.',
  },
  ReportDatesInvalid: {
    code: '16002',
    status: 400,
    message: 'Invalid report dates.',
    when: 'A Generate Report call whose fromDate is after the customer’s today, whose toDate is not after fromDate, or (transactions report) whose dates are more than 24 months apart. The message names the date.',
  },
  ReportPurposeInvalid: {
    code: '16003',
    status: 400,
    message: 'The permissible purpose code must be two digits.',
    when: 'Get Report or Report Reissue with a `purpose` that is not a two-digit code.',
  },
  ReportComputationFailed: {
    code: '16004',
    status: 500,
    message: 'The report could not be computed.',
    when: 'Never an answer: the error of a report that failed after three attempts of the worker (details are logged).',
  },
  // Portfolios and pay statements (docs/reports.md, docs/statements.md)
  PortfolioIdInvalid: {
    code: '16700',
    status: 400,
    message: 'Invalid portfolio id.',
    when: 'Get Portfolio (by customer, by consumer or by id) with a portfolio id that is not 12 lower-case letters and digits, an optional version number and `-port` (`dyr6qvqd2yhb-1-port`, `dyr6qvqd2yhb-port`).',
  },
  PortfolioNotFound: {
    code: '16701',
    status: 404,
    message: 'No report found for the portfolio.',
    when: "Get Portfolio with a well-formed portfolio id that names no report of the partner: unknown, another partner's, another customer's or consumer's than the path names, a version Ledgerlink never gave, or a customer without reports yet.",
  },
  PayStatementLabelInvalid: {
    code: '16710',
    status: 400,
    message: 'Invalid pay statement label.',
    when: "Store Customer Pay Statement with a `label` that is not one of the reference's: lastPayPeriod, lastPayPeriodMinusOne, lastPayPeriodMinusTwo, previousYearLastPayPeriod, previousYear2LastPayPeriod, earliestPayPeriod.",
  },
  PayStatementNotBase64: {
    code: '16711',
    status: 400,
    message: 'The pay statement is not Base64.',
    when: 'Store Customer Pay Statement with a `statement` that is not Base64 text (the standard alphabet, padding at the end only; line breaks are allowed).',
  },
  PayStatementTypeUnsupported: {
    code: '16712',
    status: 400,
    message: 'The pay statement is not a PDF, JPEG or PNG file.',
    when: 'Store Customer Pay Statement with a document whose first bytes are not those of a PDF (`%PDF-`), JPEG or PNG file, the types the reference accepts.',
  },
  PayStatementTooLarge: {
    code: '16713',
    status: 400,
    message: 'The pay statement is too large.',
    when: "Store Customer Pay Statement with a document of more than 5 MB once decoded (a request body over the route's limit is 413, code 10042, before it is read).",
  },
  // Micro entries (docs/micro-entries.md), transaction refreshes and recurring transactions (docs/aggregation.md)
  MicroEntryRoutingNumberInvalid: {
    code: '16400',
    status: 400,
    message: 'Invalid routing number',
    when: "Initiate Micro Entries with a receiver routing number that is not nine digits with a valid ABA check digit (the reference's 20024).",
  },
  MicroEntryAccountNumberInvalid: {
    code: '16401',
    status: 400,
    message: 'Invalid account number',
    when: "Initiate Micro Entries with a receiver account number that is not 4 to 17 digits once spaces and hyphens are taken out (the reference's 3000001).",
  },
  MicroEntryAccountExists: {
    code: '16402',
    status: 409,
    message: 'Account already exist',
    when: "Initiate Micro Entries for numbers whose entries for this customer are pending, deposited or verified (the reference's 3100001); of many simultaneous initiations of the same numbers, one is taken and the others get this. Failed and expired ones may be initiated again.",
  },
  MicroEntryStatusInvalid: {
    code: '16403',
    status: 400,
    message: 'Microdeposit is in a status that cannot be verified',
    when: "Verify Micro Entries while the deposits have not landed (Pending) or after the entries were verified or expired; the message names the status (the reference's 3200002).",
  },
  MicroEntryAttemptsExceeded: {
    code: '16404',
    status: 400,
    message: 'Microdeposit verification attempts exceeded',
    when: "Verify Micro Entries after three wrong answers failed them (the reference's 3200003). Initiate again for new amounts.",
  },
  MicroEntryAmountsMismatch: {
    code: '16405',
    status: 400,
    message: "Microdeposit amounts didn't match",
    when: "Verify Micro Entries with amounts other than those deposited; the message says how many attempts are left, and the third wrong answer fails the entries (the reference's 3200004).",
  },
  MicroEntryAmountFormat: {
    code: '16406',
    status: 400,
    message: 'Invalid amount format',
    when: "Verify Micro Entries without exactly two amounts, each 0.01 to 0.99 dollars with at most two decimals (the reference's 3000003). Does not count as an attempt.",
  },
  NoAccountsForInstitutionLogin: {
    code: '16410',
    status: 404,
    message: 'Customer does not have any accounts associated with institutionLoginId.',
    when: "Initiate Micro Entries or Refresh Transactions naming an institution login of the customer that holds no accounts (the reference's 38007).",
  },
  TransactionRefreshDateRangeInvalid: {
    code: '16411',
    status: 400,
    message: 'Invalid date range',
    when: "Refresh Transactions in custom mode without fromDate, with toDate before fromDate, with toDate in the future or with fromDate more than two years back (the reference's 41002); the message says which.",
  },
  NoAccountsForCustomer: {
    code: '16412',
    status: 404,
    message: 'Customer does not have any accounts',
    when: "Get Recurring Transactions or Refresh Transactions for a customer without aggregated accounts (the reference's 38003).",
  },
  // Connect Components, Connect experiences and joint borrowers (docs/connect-components.md)
  ComponentsConfigurationNotFound: {
    code: '16600',
    status: 404,
    message: 'The requested entity was not found',
    when: "A Connect Components configuration id (path or `configurationId`) that is not one of the partner's configurations; another partner's looks the same (the reference's 4041).",
  },
  ComponentsInstitutionSignsInWithForm: {
    code: '16601',
    status: 400,
    message: 'This institution signs in with a login form, not OAuth.',
    when: 'Create OAuth URL for an institution whose connector signs in with a credentials form: use Create Login Form.',
  },
  ComponentsInstitutionSignsInWithOAuth: {
    code: '16602',
    status: 400,
    message: 'This institution signs in through OAuth, not a login form.',
    when: 'Create Login Form for an institution whose connector signs in through OAuth: use Create OAuth URL.',
  },
  ComponentsLoginNotReconnectable: {
    code: '16603',
    status: 400,
    message: 'This institution login cannot be reconnected.',
    when: 'Initiate Reconnection for a login made from statement files, or at an institution without a live connection now: there is no sign-in to repeat.',
  },
  JointBorrowersInvalid: {
    code: '16610',
    status: 400,
    message: 'Invalid parameter (borrowers): one primary and one jointBorrower, two different customers.',
    when: 'Generate or e-mail a joint borrower link whose `borrowers` are not exactly one `primary` and one `jointBorrower` of two different customers.',
  },
  JointBorrowerConsumerMismatch: {
    code: '16611',
    status: 400,
    message: 'Invalid parameter (consumerId): not the consumer of this customer.',
    when: "A joint borrower link whose borrower's `consumerId` is not the consumer of that borrower's `customerId` (the message names the borrower).",
  },
  ConnectExperiencesNotFound: {
    code: '16620',
    status: 404,
    message: 'The requested experience could not be found for the external app name.',
    when: "Get Experience IDs when none of the partner's experiences has that `appName` (and, with `productCode`, one of those codes); the reference's 4004.",
  },
  ConnectExperienceNotFound: {
    code: '16621',
    status: 404,
    message: 'The requested experience was not found.',
    when: "Duplicate Experience with an `experience_id` that is not one of the partner's experiences.",
  },

  // App registration and third-party access (docs/app-registration.md)
  AppRegistrationNotFound: {
    code: '16500',
    status: 404,
    message: 'App registration not found.',
    when: "Modify App Registration or Get App Registration Status with a preAppId the partner never registered (another partner's alike).",
  },
  ApplicationIdNotFound: {
    code: '16501',
    status: 404,
    message: 'Requested Application Id is not found',
    when: "An applicationId that names none of the partner's approved registrations: registered institutions, Set Customer App ID, the status filter (the reference's 3001).",
  },
  AppInstitutionNotRegistered: {
    code: '16502',
    status: 404,
    message: 'Requested application registration status is not found against financial institutions',
    when: "Get App Registration Status by Institution with an institution_id the app does not cover: not an OAuth institution (the reference's 3002).",
  },
  AppListStartInvalid: {
    code: '16503',
    status: 400,
    message: 'Invalid Start value',
    when: "The application or institution lists' start is not a whole number from 1 (the reference's 3005).",
  },
  AppListLimitInvalid: {
    code: '16504',
    status: 400,
    message: 'Invalid Limit value',
    when: "The application or institution lists' limit is not a whole number from 1 (the reference's 3006).",
  },
  AppListLimitExceeded: {
    code: '16505',
    status: 400,
    message: 'Requested Limit value is exceeded than allowed max Limit value',
    when: "The application list's limit is over 100, the institution list's over 1000 (the reference's 3007).",
  },
  AppQueryParameterUnknown: {
    code: '16506',
    status: 400,
    message: 'Known query parameters: [start, limit, pre_app_id, application_id, status, name] are allowed only',
    when: "Get App Registration Details with a query parameter it does not know (the reference's 3008).",
  },
  AppQueryParameterInvalid: {
    code: '16507',
    status: 400,
    message: 'One/more of [pre_app_id, application_id, status, name] query parameter values provided are invalid',
    when: "Get App Registration Details or Get App Registration Status with a filter value of the wrong form: a pre-app id that is not a number, a status other than A, P, R, D or S (the reference's 3009).",
  },
  AppNotApproved: {
    code: '16508',
    status: 400,
    message: 'The application is not approved.',
    when: 'Set Customer App ID or Migrate Institution Login Accounts with an app whose registration is pending or rejected: only approved apps reach OAuth institutions.',
  },
  CustomerApplicationAlreadySet: {
    code: '16509',
    status: 400,
    message: 'The customer is already assigned to another application.',
    when: "Set Customer App ID for a customer already assigned to another of the partner's registered apps: an assignment cannot be changed once set.",
  },
  NoRegisteredApplication: {
    code: '16510',
    status: 404,
    message: 'No registered partner applications found.',
    when: "Get Customer With App Data when the partner has no approved app registration (the reference's 50051).",
  },
  NoAssignedApplication: {
    code: '16511',
    status: 404,
    message: 'Customer has no assigned application.',
    when: "Get Customer With App Data or Migrate Institution Login Accounts for a customer assigned to none of the partner's registered apps (the reference's 50052).",
  },
  AppImageInvalid: {
    code: '16512',
    status: 400,
    message: 'Invalid parameter (image)',
    when: 'Register App or Modify App Registration with an image that is not a Base64-encoded SVG of less than 50 KB.',
  },
  InstitutionNotCoveredByApp: {
    code: '16513',
    status: 400,
    message: "The institution login's institution is not an OAuth institution of the application.",
    when: "Migrate Institution Login Accounts for a login at an institution the customer's app does not cover (not an OAuth institution).",
  },
  ThirdPartyAccessKeyNotFound: {
    code: '16520',
    status: 404,
    message: 'Third party access key not found.',
    when: "Update or Revoke Third Party Access with a consentReceiptId the partner never generated, or one already revoked (another partner's alike).",
  },
  ThirdPartyAccessProductUnsupported: {
    code: '16521',
    status: 400,
    message: 'Invalid parameter (products.product)',
    when: 'A third-party access key asked for a product Ledgerlink does not grant: one of moneyTransferDetails, availableBalance, availableBalanceLive, accountOwner (payment indicators are not offered).',
  },
  ThirdPartyAccessPeriodInvalid: {
    code: '16522',
    status: 400,
    message: 'Invalid parameter (products.accessPeriod)',
    when: 'A third-party access period that is not a timeframe, has a time that is not ISO 8601, or ends before it starts or before now.',
  },
  ThirdPartyPartnerInvalid: {
    code: '16523',
    status: 400,
    message: 'Invalid parameter (thirdPartyPartnerId)',
    when: "A third-party access key whose partnerId is not the caller's own, or whose thirdPartyPartnerId is not a partner id or is the caller's own.",
  },
  ThirdPartyAccessKeyInvalid: {
    code: '16524',
    status: 401,
    message: 'Invalid (Service-Access-Key)',
    when: 'A Service-Access-Key header with a key that is unknown, revoked or replaced, or granted to another partner than the caller.',
  },
  ThirdPartyAccessNotGranted: {
    code: '16525',
    status: 403,
    message: 'The access key does not grant this call.',
    when: "A Service-Access-Key call for a product, customer or account the key does not name, outside the product's time frame, or past its maxCalls.",
  },
  AuthorizationNotOAuth: {
    code: '16530',
    status: 404,
    message: 'Institution Login Id is not found',
    when: "Get Customer Authorization Details for an institution login that is not an OAuth connection (credentials, OFX, statement files) or that the partner has none of (the reference's 3003).",
  },
  AuthorizationDetailsUnavailable: {
    code: '16531',
    status: 404,
    message: 'Institution Login Id details are not found',
    when: "Get Customer Authorization Details for an authorization with no end date Ledgerlink knows of: the test bank's OAuth institution, SimpleFIN accesses (the reference's 3004).",
  },

  RateLimited: { code: '10429', status: 429, message: 'Too many requests', when: 'A rate limit was exceeded; Retry-After says when to try again.' },
  InternalError: { code: '10500', status: 500, message: 'Internal server error', when: 'A fault inside Ledgerlink. Details are logged, never sent.' },
  ServiceUnavailable: {
    code: '10503',
    status: 503,
    message: 'Service unavailable',
    when: 'The service is shutting down, its database is unreachable, or its disk is full; Retry-After says when to try again.',
  },
});

export type ErrorName = keyof typeof ErrorCatalogue;
