import type { App } from '../../app-types.js';
import Type from 'typebox';
import { sql } from 'kysely';
import type { Runtime } from '../../../platform/dependencies.js';
import { ServiceError } from '../../../contract/errors/service-error.js';
import { errorResponses } from '../../../contract/schemas/common.js';

/** GET /health: 200 once the service can reach its database. */
export default function health(app: App, runtime: Runtime): void {
  app.get('/health', {
    schema: {
      operationId: 'GetHealth',
      tags: ['System'],
      summary: 'Health check',
      response: {
        200: Type.Object({ status: Type.Literal('ok'), database: Type.String({ examples: ['sqlite'] }) }, { xml: { name: 'health' } }),
        ...errorResponses(406, 503),
      },
    },
    handler: async () => {
      try {
        await sql`select 1`.execute(runtime.database.kysely);
      } catch {
        throw new ServiceError('ServiceUnavailable', 'Database unreachable');
      }
      return { status: 'ok' as const, database: runtime.database.dialect };
    },
  });
}
