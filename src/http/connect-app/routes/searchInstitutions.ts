import Type from 'typebox';
import { searchConnectInstitutions } from '../../../modules/connect/session.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { ConnectInstitutionPage } from '../../../contract/schemas/connect-app.js';
import { appErrors, linkOf } from './link.js';

/** GET /connect/api/institutions: institution search over the catalogue (Full links). */
export default function searchInstitutions(app: App, runtime: Runtime): void {
  app.get('/connect/api/institutions', {
    schema: {
      hide: true,
      summary: 'Search institutions in Connect',
      querystring: Type.Object({
        search: Type.Optional(Type.String({ maxLength: 200 })),
        start: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
        limit: Type.Integer({ minimum: 1, maximum: 50, default: 20 }),
      }),
      response: appErrors(ConnectInstitutionPage),
    },
    handler: async (request) => searchConnectInstitutions(app.engine, await linkOf(runtime, request), request.query),
  });
}
