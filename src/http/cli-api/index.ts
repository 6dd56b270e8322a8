/**
 * The client API of the `ledgerlink` command (/cli/v1, docs/cli.md): request log, deliveries, mailbox, listeners and
 * customers' institution logins of the calling partner, for the CLI's client mode. Authenticated like the partner API
 * (app key and token), with its TLS and region checks; JSON only, kept out of the OpenAPI description and out of the request log, so that
 * `logs tail --follow` and `listen` do not fill the log they read with their own polling.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Runtime } from '../../platform/dependencies.js';
import type { App, RouteModule } from '../app-types.js';
import { requirePartner } from '../plugins/auth.js';
import { checkRegion, requireTls } from '../plugins/transport.js';
import { nameScope } from '../scopes.js';
import { acceptsJson } from './accept.js';
import listDeliveries from './routes/deliveries/listDeliveries.js';
import listInstitutionLogins from './routes/institutionLogins/listInstitutionLogins.js';
import redeliver from './routes/deliveries/redeliver.js';
import pollListener from './routes/listeners/pollListener.js';
import registerListener from './routes/listeners/registerListener.js';
import removeListener from './routes/listeners/removeListener.js';
import reportOutcome from './routes/listeners/reportOutcome.js';
import listMail from './routes/mail/listMail.js';
import listRequests from './routes/requests/listRequests.js';
import { stopWaitingOnClose } from './waits.js';

export async function cliApiScope(scope: FastifyInstance, opts: { runtime: Runtime }): Promise<void> {
  const { runtime } = opts;
  nameScope(scope, 'cli');
  scope.decorateRequest('caller', null as never);
  scope.decorateRequest('dataStamp', undefined);
  scope.addHook('onRequest', (request, _reply, done) => {
    if (!acceptsJson(request.headers.accept)) throw new ServiceError('NotAcceptable', 'Not acceptable: the CLI API answers application/json only');
    done();
  });
  requireTls(scope, runtime);
  checkRegion(scope, runtime);
  requirePartner(scope, runtime);
  scope.addHook('preValidation', (request, _reply, done) => {
    if (request.bodyIsXml) throw new ServiceError('UnsupportedMediaType', 'Unsupported Content-Type: the CLI API takes application/json bodies only');
    done();
  });
  stopWaitingOnClose(scope);
  const app = scope as App;
  for (const route of [
    listRequests,
    listDeliveries,
    redeliver,
    listMail,
    listInstitutionLogins,
    registerListener,
    removeListener,
    pollListener,
    reportOutcome,
  ] as RouteModule[])
    route(app, runtime);
}
