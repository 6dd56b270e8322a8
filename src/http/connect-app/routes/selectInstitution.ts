import Type from 'typebox';
import { selectInstitution as select } from '../../../modules/connect/session.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { SelectedInstitution } from '../../../contract/schemas/connect-app.js';
import { appErrors, linkOf } from './link.js';

/** POST /connect/api/institutions/{institutionId}: the user picked an institution; answers its sign-in form. */
export default function selectInstitution(app: App, runtime: Runtime): void {
  app.post('/connect/api/institutions/:institutionId', {
    schema: {
      hide: true,
      summary: 'Select an institution in Connect',
      params: Type.Object({ institutionId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
      response: appErrors(SelectedInstitution),
    },
    handler: async (request) => select(app.engine, await linkOf(runtime, request), request.params.institutionId),
  });
}
