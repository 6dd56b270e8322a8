import type { App } from '../../../app-types.js';
import { modifyPartnerSecret } from '../../../../modules/partners/service.js';
import { ServiceError } from '../../../../contract/errors/service-error.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import { appKeyOf } from '../../../plugins/auth.js';
import { errorResponses, NoContent } from '../../../../contract/schemas/common.js';
import { PartnerCredentialsWithNewSecret } from '../../../../contract/schemas/partners.js';

/** PUT /aggregation/v2/partners/authentication */
export default function modifySecret(app: App, runtime: Runtime): void {
  app.put('/aggregation/v2/partners/authentication', {
    schema: {
      operationId: 'ModifyPartnerSecret',
      tags: ['Authentication'],
      summary: 'Modify partner secret',
      description:
        'Changes the partner secret. The new secret must be 12 to 255 characters of letters, digits and ! @ # $ % & * _ - +, with at least one letter and one digit, and differ from the current one. Tokens already issued stay valid.',
      security: [{ ServiceAppKey: [] }],
      body: PartnerCredentialsWithNewSecret,
      response: { 204: NoContent, ...errorResponses(400, 401, 406, 415) },
    },
    handler: async (request, reply) => {
      const appKey = appKeyOf(request, runtime);
      if (!appKey) throw new ServiceError('MissingAppKey');
      await modifyPartnerSecret(runtime, appKey, request.body);
      return reply.code(204).send(null);
    },
  });
}
