import { createOAuthUrl as create } from '../../../modules/connect/components.service.js';
import type { App } from '../../app-types.js';
import { componentsErrorResponses, GeneratedOAuthUrl, InstitutionParams, OAuthUrlRequest } from '../../../contract/schemas/connect-components.js';

/** POST /connect-components/institutions/{institution_id}/oauth-urls */
export default function createOAuthUrl(app: App): void {
  app.post('/connect-components/institutions/:institution_id/oauth-urls', {
    schema: {
      operationId: 'PostInstitutionsInstitutionIdOauthUrls',
      tags: ['Connect Components'],
      summary: 'Create OAuth URL',
      description:
        "A session at an institution that signs in through OAuth (400, 16601 for one that signs in with a form): `url` opens the hosted Connect page that sends the customer to the institution's sign-in and then lets them choose the accounts (those `configurationId`'s configuration keeps); the browser goes to `redirectURI` when the session completes. `id` is the session (the Connect link's `linkId`), `eventStreamId` is carried by every Connect event of the session. The customer (404), the institution (404, 14006), that the customer may link there (403, 14061) and the configuration (404, 16600) are checked first.",
      params: InstitutionParams,
      body: OAuthUrlRequest,
      response: { 201: GeneratedOAuthUrl, ...componentsErrorResponses(400, 401, 403, 404, 406, 415) },
    },
    handler: async (request, reply) => {
      const answer = await create(app.engine, request.caller.partnerId, request.params.institution_id, request.body);
      return reply.code(201).send(answer);
    },
  });
}
