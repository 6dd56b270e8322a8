import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { previewStatement, uploadStatement as upload } from '../../../modules/connect/session.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { ConnectStatementQuery, StatementPreview, StatementUploaded } from '../../../contract/schemas/connect-app.js';
import { holdHeavySlot, refuseUnread } from '../../plugins/heavy-work.js';
import { acceptStatementFiles, allowLongAnswer, STATEMENT_BODY_LIMIT, uploadOptions } from '../../plugins/statement-files.js';
import { appErrors, linkOf } from './link.js';

/**
 * POST /connect/api/institutions/{institutionId}/statements: the user's statement file (the body, as chosen), with the
 * CSV mapping in the query when the app had to ask for it; webhook `added`. With `preview=true`, what it would store
 * (the mapping screen's preview), nothing stored and no webhook.
 */
export default function uploadStatement(app: App, runtime: Runtime): void {
  // Its own scope: the body is the file, in whatever type it came (see acceptStatementFiles).
  void app.register(async (scope: FastifyInstance) => {
    acceptStatementFiles(scope);
    (scope as App).post('/connect/api/institutions/:institutionId/statements', {
      bodyLimit: STATEMENT_BODY_LIMIT,
      schema: {
        hide: true,
        summary: 'Upload a statement file in Connect',
        params: Type.Object({ institutionId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        querystring: ConnectStatementQuery,
        response: appErrors(Type.Union([StatementUploaded, StatementPreview]), 413, 415, 422, 429),
      },
      // The link (and the partner's upload slot) before the body: a stranger cannot make the service read 10 MB.
      onRequest: async (request, reply) => {
        try {
          const link = await linkOf(runtime, request);
          holdHeavySlot(app.heavyWork, request, reply, link.partner_id, 'upload');
        } catch (error) {
          throw refuseUnread(reply, error);
        }
      },
      handler: async (request) => {
        allowLongAnswer(request);
        const handle = request.query.preview ? previewStatement : upload;
        return handle(
          app.engine,
          await linkOf(runtime, request),
          request.params.institutionId,
          uploadOptions(request.query, request.body, request.headers['content-type']),
        );
      },
    });
  });
}
