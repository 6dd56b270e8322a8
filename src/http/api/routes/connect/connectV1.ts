import type { Static } from 'typebox';
import { generateFixLink, generateFullLink, generateLiteLink, sendConnectEmail, type GenerateInput } from '../../../../modules/connect/service.js';
import { ServiceError } from '../../../../contract/errors/service-error.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { CONNECT_V1_TYPES, ConnectEmailUrl, ConnectUrl, ConnectV1EmailParameters, ConnectV1Parameters } from '../../../../contract/schemas/connect.js';
import { generateInput, LINK_DESCRIPTION } from './generate.js';

type V1Type = (typeof CONNECT_V1_TYPES)[number];
type V1Body = Static<typeof ConnectV1Parameters>;

/**
 * A Connect 1.0 request as the Connect 2.0 operations take it: `type` picks the link kind, the look is the
 * `default` experience (as the interface's versioning section says of the migration), `redirectUrl` is `redirectUri`.
 */
function v2Input(callerPartnerId: string, body: V1Body): { kind: V1Type; input: GenerateInput } {
  const kind = body.type.trim().toLowerCase();
  if (!(CONNECT_V1_TYPES as readonly string[]).includes(kind)) {
    throw new ServiceError(
      'InvalidParameter',
      `Invalid parameter (type): Ledgerlink serves the Connect 1.0 types ${CONNECT_V1_TYPES.join(', ')}; "${body.type}" is not offered.`,
    );
  }
  const { type: _type, redirectUrl, experience: _experience, institutionId, institutionLoginId, ...rest } = body;
  const input: GenerateInput = { ...generateInput(callerPartnerId, rest), experience: 'default' };
  const redirect = rest.redirectUri ?? redirectUrl;
  if (redirect !== undefined) input.redirectUri = redirect;
  if (kind === 'lite') {
    if (institutionId === undefined)
      throw new ServiceError('MissingParameter', 'Missing parameter (institutionId): a lite link needs the institution to sign in at.');
    input.institutionId = institutionId;
  }
  if (kind === 'fix') {
    if (!institutionLoginId?.trim())
      throw new ServiceError('MissingParameter', 'Missing parameter (institutionLoginId): a fix link needs the institution login to repair.');
    input.institutionLoginId = institutionLoginId.trim();
  }
  return { kind: kind as V1Type, input };
}

const V1_NOTE =
  'Connect 1.0, kept for published clients that still call it: `type` aggregation gives a Full link, lite a Lite link (with institutionId), fix a Fix link (with institutionLoginId); any other type is 400 (10010) naming these. The link always uses the `default` experience; `redirectUrl` is accepted for redirectUri.';

/** POST /connect/v1/generate and /connect/v1/send/email: Connect 1.0 mapped onto the Connect 2.0 links. */
export default function connectV1(app: App): void {
  app.post('/connect/v1/generate', {
    schema: {
      operationId: 'GenerateConnectUrlV1',
      deprecated: true,
      tags: ['Connect'],
      summary: 'Generate Connect URL (Connect 1.0)',
      description: `${V1_NOTE} ${LINK_DESCRIPTION}`,
      body: ConnectV1Parameters,
      response: { 200: ConnectUrl, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request) => {
      const { kind, input } = v2Input(request.caller.partnerId, request.body);
      if (kind === 'lite') return generateLiteLink(app.engine, { ...input, institutionId: input.institutionId! });
      if (kind === 'fix') return generateFixLink(app.engine, { ...input, institutionLoginId: input.institutionLoginId! });
      return generateFullLink(app.engine, input);
    },
  });

  app.post('/connect/v1/send/email', {
    schema: {
      operationId: 'SendConnectEmailV1',
      deprecated: true,
      tags: ['Connect'],
      summary: 'Send Connect e-mail (Connect 1.0)',
      description: `${V1_NOTE} The link is e-mailed as by Send Connect E-mail (v2), with the same hourly limit (429, 14075). ${LINK_DESCRIPTION}`,
      body: ConnectV1EmailParameters,
      response: { 200: ConnectEmailUrl, ...errorResponses(400, 401, 404, 406, 415, 429) },
    },
    handler: async (request) => {
      const { kind, input } = v2Input(request.caller.partnerId, request.body);
      return sendConnectEmail(app.engine, { ...input, email: request.body.email }, kind === 'aggregation' ? 'email' : kind);
    },
  });
}
