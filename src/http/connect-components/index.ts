/**
 * Connect Components (docs/connect-components.md): partner operations authenticated as the API is (Service-App-Key and
 * a token, TLS, permitted regions, request log), in a scope of their own because the reference gives them a body of
 * their own for every error, `{"Errors": {"Error": [{Source, ReasonCode, Description, Recoverable, Details}]}}`,
 * and JSON only: an XML body is an unsupported media type, an Accept that admits no JSON not acceptable.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Runtime } from '../../platform/dependencies.js';
import type { App, RouteModule } from '../app-types.js';
import { negotiateFormat } from '../negotiate.js';
import { requirePartner } from '../plugins/auth.js';
import { parseJson } from '../plugins/content.js';
import { componentsErrorBody, toServiceError } from '../plugins/errors.js';
import { logRequests } from '../plugins/request-log.js';
import { checkRegion, requireTls } from '../plugins/transport.js';
import { nameScope } from '../scopes.js';
import createConfiguration from './routes/createConfiguration.js';
import createLoginForm from './routes/createLoginForm.js';
import createOAuthUrl from './routes/createOAuthUrl.js';
import createReconnection from './routes/createReconnection.js';
import deleteConfiguration from './routes/deleteConfiguration.js';
import getConfiguration from './routes/getConfiguration.js';
import getConfigurations from './routes/getConfigurations.js';

/** Whether Accept admits JSON (absent Accept does): the answer is JSON whatever else it prefers. */
export function acceptsJson(accept: string | undefined): boolean {
  if (!accept?.trim()) return true;
  const withoutXml = accept
    .split(',')
    .filter((range) => !/xml/i.test(range))
    .join(',');
  return withoutXml.trim() !== '' && negotiateFormat(withoutXml) === 'json';
}

function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  let err = toServiceError(error, request);
  if (err.errorName === 'UnsupportedMediaType')
    err = new ServiceError('UnsupportedMediaType', `${err.message.replace(/: send .*$/, '')}: send application/json`);
  if (err.errorName === 'NotAcceptable') err = new ServiceError('NotAcceptable', 'Not acceptable: these operations answer application/json only');
  if (err.status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ code: err.code, status: err.status }, err.message);
  if (err.headers) reply.headers(err.headers);
  reply.errorCode = err.code;
  return reply.code(err.status).type('application/json; charset=utf-8').send(componentsErrorBody(err));
}

export async function connectComponentsScope(scope: FastifyInstance, opts: { runtime: Runtime }): Promise<void> {
  const { runtime } = opts;
  // Partner operations like the API's: described with its security, not hidden.
  nameScope(scope, 'api');
  scope.decorateRequest('caller', null as never);
  scope.decorateRequest('dataStamp', undefined);
  scope.setErrorHandler(handleError);
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(/^application\/([\w.-]+\+)?json\s*(;.*)?$/i, { parseAs: 'string', bodyLimit: runtime.config.bodyLimit }, parseJson);
  scope.addHook('onRequest', (request, _reply, done) => {
    if (!acceptsJson(request.headers.accept)) throw new ServiceError('NotAcceptable');
    done();
  });
  requireTls(scope, runtime);
  checkRegion(scope, runtime);
  logRequests(scope, runtime);
  requirePartner(scope, runtime);
  const app = scope as App;
  for (const route of [
    createOAuthUrl,
    createLoginForm,
    createReconnection,
    createConfiguration,
    getConfigurations,
    getConfiguration,
    deleteConfiguration,
  ] as RouteModule[])
    route(app, runtime);
}
