import Type from 'typebox';
import { RequiredString } from './common.js';

/** The Connect webhook events, in the order a session may send them. */
export const CONNECT_EVENT_TYPES = [
  'started',
  'institutionSelected',
  'credentialsSubmitted',
  'oauthStarted',
  'mfa',
  'mfaAnswered',
  'discovered',
  'added',
  'invalidCredentials',
  'error',
  'done',
  'cancelled',
  'accountsDeleted',
  'institutionLoginDeleted',
] as const;
export type ConnectEventType = (typeof CONNECT_EVENT_TYPES)[number];

const O = <T extends Type.TSchema>(schema: T) => Type.Optional(schema);
const FreeObject = (description: string) => Type.Object({}, { additionalProperties: true, description });

/** Fields every Connect link request takes. */
const common = {
  partnerId: RequiredString({ description: 'The partner id; must be the partner of the token', examples: ['4402958127364'] }),
  customerId: RequiredString({ description: 'The customer who links accounts', examples: ['1005061234'] }),
  language: O(Type.String({ maxLength: 16, description: 'Language of the Connect app (en; es and fr are accepted, the app is in English)' })),
  redirectUri: O(Type.String({ maxLength: 2048, description: 'Where the browser goes when Connect finishes, outside an iframe (refused inside one)' })),
  webhook: O(Type.String({ maxLength: 2048, description: 'URL that receives Connect webhooks for this link' })),
  webhookContentType: O(Type.String({ maxLength: 64, description: 'application/json (default) or application/xml' })),
  webhookData: O(FreeObject('Copied into every webhook body as webhookData')),
  webhookHeaders: O(FreeObject('Extra headers (string values) sent with every webhook')),
  experience: O(Type.String({ maxLength: 64, description: 'The experience (branding); default when absent' })),
  singleUseUrl: O(Type.Boolean({ description: 'true: the link stops working once a Connect session completed' })),
  consumerId: O(Type.String({ maxLength: 64, description: 'Accepted and ignored (reports are not offered)' })),
  fromDate: O(Type.Integer({ description: 'Accepted and ignored (reports are not offered)' })),
  institutionSettings: O(FreeObject('Accepted and ignored')),
  isHostedInMobileApp: O(Type.Boolean({ description: 'Accepted and ignored' })),
  isWebView: O(Type.Boolean({ description: 'Accepted and ignored' })),
};

export const ConnectParameters = Type.Object(common, { xml: { name: 'connect' } });
export const LiteConnectParameters = Type.Object(
  { ...common, institutionId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The institution to sign in at' }) },
  { xml: { name: 'connect' } },
);
export const FixConnectParameters = Type.Object(
  { ...common, institutionLoginId: RequiredString({ maxLength: 20, description: 'The institution login to repair' }) },
  { xml: { name: 'connect' } },
);

export const MicroEntryConnectParameters = Type.Object(
  { ...common, accountId: RequiredString({ maxLength: 20, description: 'The receiving account of the micro entries to verify' }) },
  { xml: { name: 'connect' } },
);

export const EmailOptions = Type.Object({
  to: RequiredString({ maxLength: 320, description: "The consumer's e-mail address" }),
  from: O(Type.String({ maxLength: 255, description: 'Name of the person or business sending (shown in the text)' })),
  supportPhone: O(Type.String({ maxLength: 64 })),
  subject: O(Type.String({ maxLength: 255, description: 'Default "Verify your Financial Information"' })),
  firstName: O(Type.String({ maxLength: 255 })),
  institutionName: O(Type.String({ maxLength: 255, description: "Name of the partner's company" })),
  institutionAddress: O(Type.String({ maxLength: 512, description: 'Footer address' })),
  signature: O(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 10, description: 'One line each' })),
});

export const ConnectEmailParameters = Type.Object({ ...common, email: EmailOptions }, { xml: { name: 'connect' } });

/** The Connect 1.0 link kinds Ledgerlink serves, and the Connect 2.0 link each becomes. */
export const CONNECT_V1_TYPES = ['aggregation', 'lite', 'fix'] as const;

/** Connect 1.0 generation: `type` chooses the product; the look is always the `default` experience. */
const v1 = {
  ...common,
  type: RequiredString({
    maxLength: 64,
    description: `The Connect 1.0 product: ${CONNECT_V1_TYPES.join(', ')} (others, such as voa or voi, are refused with 400)`,
    examples: ['aggregation'],
  }),
  redirectUrl: O(Type.String({ maxLength: 2048, description: 'The Connect 1.0 name of redirectUri' })),
  institutionId: O(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'lite: the institution to sign in at' })),
  institutionLoginId: O(Type.String({ maxLength: 20, description: 'fix: the institution login to repair' })),
};
export const ConnectV1Parameters = Type.Object(v1, { xml: { name: 'connect' } });
export const ConnectV1EmailParameters = Type.Object({ ...v1, email: EmailOptions }, { xml: { name: 'connect' } });

export const ConnectUrl = Type.Object(
  {
    link: Type.String({
      description: 'The signed Connect URL',
      examples: [
        'http://127.0.0.1:8080/connect?customerId=1005061234&origin=url&partnerId=4402958127364&signature=...&timestamp=1795310000000&ttl=1795317200000',
      ],
    }),
  },
  { xml: { name: 'connectUrl' } },
);
export const ConnectEmailUrl = Type.Object(
  {
    link: Type.String({
      examples: [
        'http://127.0.0.1:8080/connect?customerId=1005061234&origin=email&partnerId=4402958127364&signature=...&timestamp=1795310000000&ttl=1795317200000',
      ],
    }),
    emailConfig: EmailOptions,
  },
  { xml: { name: 'connectEmailUrl' } },
);
export const ConnectWebhookSigningKey = Type.Object(
  {
    signingKey: Type.String({
      description: "whsec_ secret that signs this partner's Connect webhooks (Standard Webhooks)",
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    }),
  },
  { xml: { name: 'signingKey' } },
);

export const MailMessage = Type.Object(
  {
    id: Type.Integer(),
    eventId: Type.String({ description: "The delivery's event id", examples: ['evt_2KWPBgLlAfxdpx2AI54pPJ85f4W'] }),
    to: Type.String(),
    from: Type.String(),
    subject: Type.String(),
    text: Type.String({ description: 'Plain-text part' }),
    html: Type.Union([Type.String(), Type.Null()], { description: 'HTML part, when there is one' }),
    createdDate: Type.Integer({ description: 'Epoch seconds' }),
  },
  { xml: { name: 'message' } },
);
export const MailList = Type.Object({ messages: Type.Array(MailMessage) }, { xml: { name: 'mailbox' } });

/** A borrower of a joint borrower link. */
export const Borrower = Type.Object(
  {
    customerId: RequiredString({ maxLength: 20, description: "The borrower's customer", examples: ['1005061234'] }),
    consumerId: RequiredString({ maxLength: 64, description: "The consumer of the borrower's customer", examples: ['0bf46322c167b562e6cbed9d40e19a4c'] }),
    type: RequiredString({ maxLength: 32, description: 'primary or jointBorrower', examples: ['primary'] }),
    optionalConsumerInfo: O(
      Type.Object({
        ssn: RequiredString({ maxLength: 16, description: 'Nine digits without hyphens; checked for its format, not stored', examples: ['999999999'] }),
        dob: O(Type.Integer({ description: 'Epoch seconds; accepted and ignored', examples: [1607450357] })),
      }),
    ),
  },
  { xml: { name: 'borrower' } },
);

const { customerId: _customerId, consumerId: _consumerId, ...jointCommon } = common;
const joint = {
  ...jointCommon,
  borrowers: Type.Array(Borrower, {
    minItems: 1,
    maxItems: 10,
    description: 'The primary borrower (the link is theirs) and the joint borrower: exactly one of each, two different customers',
    xml: { wrapped: true },
  }),
  reportCustomFields: O(Type.Array(FreeObject('A custom field'), { maxItems: 5, description: 'Accepted and ignored (reports are not offered)' })),
};
export const JointBorrowerConnectParameters = Type.Object(joint, { xml: { name: 'connect' } });
export const JointBorrowerEmailParameters = Type.Object({ ...joint, email: EmailOptions }, { xml: { name: 'connect' } });

/** An experience as Get Experience IDs lists it. */
export const ExperienceSummary = Type.Object(
  {
    id: Type.String({
      format: 'uuid',
      description: "The experience's id: what a Connect link's `experience` may name",
      examples: ['84fd419a-1add-5bf4-961b-16e8285b3a92'],
    }),
    appName: Type.String({ description: 'Its application name', examples: ['Gold Lending'] }),
    productCode: Type.Array(Type.String({ xml: { name: 'productCode' } }), {
      description: 'The products it runs: none, as Ledgerlink experiences set the look only',
      examples: [[]],
    }),
  },
  { xml: { name: 'experience' } },
);
export const ExperienceList = Type.Array(ExperienceSummary, { xml: { name: 'experiences', wrapped: true } });

export const ExperienceQuery = Type.Object({
  appName: RequiredString({ maxLength: 255, description: "The experiences' application name (any letter case)", examples: ['Gold Lending'] }),
  productCode: O(Type.String({ maxLength: 512, description: 'Product codes, separated by commas: keeps experiences running one of them (none do)' })),
});

export const ExperienceParams = Type.Object({
  experience_id: Type.String({ maxLength: 64, description: 'The experience to copy', examples: ['84fd419a-1add-5bf4-961b-16e8285b3a92'] }),
});
export const IndirectPartnerRequest = Type.Object(
  {
    indirectPartnerId: Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'The indirect partner the copy is for',
      examples: [423456789],
    }),
  },
  { xml: { name: 'experience' } },
);
export const CreatedExperience = Type.Object(
  { experienceId: Type.String({ format: 'uuid', description: "The copy's id", examples: ['0e4c6c53-49a3-5d77-9a1d-6d2c3c7f4b10'] }) },
  { xml: { name: 'experience' } },
);
