import Type from 'typebox';
import { RequiredString } from './common.js';

/**
 * Connect Components (docs/connect-components.md): configurations, OAuth URLs, login forms and reconnections, in the
 * reference's shapes, with their own error body (`{"Errors": {"Error": [...]}}`). JSON only, as the reference has them.
 */

const O = <T extends Type.TSchema>(schema: T) => Type.Optional(schema);
const Uuid = (description: string) =>
  Type.String({ format: 'uuid', minLength: 36, maxLength: 36, description, examples: ['605543e1-f507-48ad-8127-95c40566597b'] });

/** The account classifications a configuration may keep. */
export const ACCOUNT_CLASSIFICATIONS = ['personal', 'business', 'unknown'] as const;
/** The languages a login form may be asked in. */
export const LOGIN_FORM_LANGUAGES = ['en', 'en-us', 'es', 'es-us', 'fr', 'fr-ca'] as const;

const configurationFields = {
  filterAccounts: O(
    Type.Array(Type.String({ minLength: 1, maxLength: 512 }), {
      minItems: 1,
      maxItems: 50,
      description: "Account types to offer (as the accounts' `type`, any letter case: checking, savings, creditCard, ...); absent: every type",
      examples: [['checking']],
    }),
  ),
  accountClassificationType: O(
    Type.Array(Type.String({ maxLength: 16 }), {
      minItems: 1,
      maxItems: 3,
      description: 'Account classifications to offer: personal, business, unknown; absent: every classification',
      examples: [['personal', 'business']],
    }),
  ),
  aoRequired: O(
    Type.Boolean({
      description: "Stored and answered; Ledgerlink's OAuth sources ask no separate permission for owner details, so it never blocks a sign-in",
      examples: [true],
    }),
  ),
};

export const CreateConfiguration = Type.Object(configurationFields, {
  description: 'A configuration to narrow the accounts a session offers: at least one of its fields (400, 10005 otherwise)',
});

export const Configuration = Type.Object(
  { id: Uuid('Unique identifier of the configuration object'), ...configurationFields },
  { description: 'Used to modify behavior during the login flow' },
);
export const ConfigurationList = Type.Array(Configuration, { description: 'The configurations of the partner, oldest first' });

const ServiceAgreement = Type.Object(
  {
    language: RequiredString({ maxLength: 16, description: 'The language of the terms and conditions the customer accepted', examples: ['en'] }),
    acceptedDate: RequiredString({
      maxLength: 64,
      description: 'When the customer accepted them: an ISO 8601 date and time',
      examples: ['2024-11-28T18:25:32+00:00'],
    }),
  },
  { description: 'The terms and conditions the customer accepted (checked, not stored)' },
);

const customerId = RequiredString({ maxLength: 20, description: 'The customer who links accounts', examples: ['1005061234'] });
const configurationId = O(
  Type.String({ maxLength: 64, description: 'A configuration of the partner to apply', examples: ['605543e1-f507-48ad-8127-95c40566597b'] }),
);

export const OAuthUrlRequest = Type.Object({
  redirectURI: RequiredString({
    maxLength: 1024,
    description: 'Where the browser goes when the session completes (an http or https URL)',
    examples: ['https://oauth.example.com/redirect'],
  }),
  customerId,
  configurationId,
  serviceAgreement: ServiceAgreement,
});

export const LoginFormRequest = Type.Object({
  language: RequiredString({
    maxLength: 16,
    description: `The form's language: ${LOGIN_FORM_LANGUAGES.join(', ')} (the labels are in English)`,
    examples: ['en'],
  }),
  customerId,
  configurationId,
  serviceAgreement: ServiceAgreement,
});

export const InstitutionParams = Type.Object({
  institution_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The institution', examples: [101732] }),
});
export const ReconnectionParams = Type.Object({
  customer_id: RequiredString({ maxLength: 20, description: 'The customer', examples: ['1005061234'] }),
  institution_login_id: Type.Integer({
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'The institution login to reconnect',
    examples: [6000000001],
  }),
});
export const ConfigurationParams = Type.Object({
  configuration_id: Type.String({ maxLength: 64, description: 'The configuration', examples: ['605543e1-f507-48ad-8127-95c40566597b'] }),
});

const url = Type.String({
  description:
    "The hosted Connect page of this session (a signed Connect link, valid two hours): the institution's sign-in for an OAuth URL or a login form, the Fix flow of the login for a reconnection",
  examples: ['http://127.0.0.1:8080/connect?customerId=1005061234&linkId=8d9d8f5e-2c5f-4f49-bf9b-276a7df0367f&type=lite&signature=...'],
});
const eventStreamId = Uuid('Carried as `eventStreamId` in the payload of every Connect event of this session (webhook subscriptions hear them)');

export const GeneratedOAuthUrl = Type.Object(
  { id: Uuid('The session: the `linkId` of its Connect link'), url, eventStreamId },
  { description: 'The OAuth URL of a session' },
);

export const LoginFormElement = Type.Object({
  id: Uuid('The element in this session'),
  label: Type.String({ description: "The institution's label for the field", examples: ['Banking Userid'] }),
  sortOrder: Type.Integer({ minimum: 0, maximum: 10, description: 'The order to show the elements in, from 0', examples: [0] }),
});

export const LoginForms = Type.Object(
  {
    id: Uuid('The session: the `linkId` of its Connect link'),
    eventStreamId,
    elements: Type.Array(LoginFormElement, { description: "The institution's sign-in fields; none at an OAuth institution" }),
    url,
  },
  { description: 'The login form of a session, and the Connect page that signs in with it' },
);

/** One error of the Connect Components' error body. */
export const ComponentsErrorItem = Type.Object({
  Source: Type.String({ description: 'The application that answered', examples: ['Connect-Components'] }),
  ReasonCode: Type.String({ description: 'The error code from the catalogue (docs/errors.md)', examples: ['10010'] }),
  Description: Type.String({ description: "The code's meaning", examples: ['Invalid parameter'] }),
  Recoverable: Type.Boolean({ description: 'Whether retrying the same request may succeed (rate limits, unavailability)', examples: [false] }),
  Details: Type.String({ description: 'What went wrong in this request', examples: ['Invalid parameter (redirectURI): not an absolute URL.'] }),
});

/** The error body of the Connect Components operations, as the reference has it. */
export const ComponentsErrorBody = Type.Object(
  { Errors: Type.Object({ Error: Type.Array(ComponentsErrorItem) }) },
  { $id: 'ComponentsErrorBody', description: 'A Connect Components error' },
);

/** The error responses a Connect Components operation can give, keyed by status. */
export function componentsErrorResponses(...statuses: number[]): Record<number, typeof ComponentsErrorBody> {
  const out: Record<number, typeof ComponentsErrorBody> = {};
  for (const s of statuses) out[s] = ComponentsErrorBody;
  return out;
}
