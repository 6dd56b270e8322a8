import { createConfiguration as create } from '../../../modules/connect/components.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { componentsErrorResponses, Configuration, CreateConfiguration } from '../../../contract/schemas/connect-components.js';

/** POST /connect-components/configurations */
export default function createConfiguration(app: App, runtime: Runtime): void {
  app.post('/connect-components/configurations', {
    schema: {
      operationId: 'PostConfigurations',
      tags: ['Connect Components'],
      summary: 'Create Components Configuration',
      description:
        "A configuration a login form or OAuth URL may name (`configurationId`): the sessions made with it offer only the accounts whose type is one of `filterAccounts` (any letter case) and whose classification (personal or business) is one of `accountClassificationType`; an absent filter keeps every account. `aoRequired` is kept and answered; Ledgerlink's OAuth sources ask no separate permission for owner details, so it never blocks a sign-in.",
      body: CreateConfiguration,
      response: { 201: Configuration, ...componentsErrorResponses(400, 401, 406, 415) },
    },
    handler: async (request, reply) => reply.code(201).send(await create(runtime, request.caller.partnerId, request.body ?? {})),
  });
}
