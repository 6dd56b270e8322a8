import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { PsuContext } from '../../../connectors/connector.js';
import { openLink } from '../../../modules/connect/links.service.js';
import { completeOAuthCallback } from '../../../modules/connect/session.service.js';
import { ServiceError } from '../../../contract/errors/service-error.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { appPage, readAsset, simplePage } from './web.js';

const HTML = 'text/html; charset=utf-8';

/**
 * The Connect app's pages: GET /connect (the app, for a valid link; otherwise an error page that does nothing),
 * GET /connect/assets/* (the built app and the SDK), GET /connect/oauth/callback (where OAuth institutions send
 * the browser back to, in the sign-in window).
 */
export default function connectPages(app: App, runtime: Runtime): void {
  app.get('/connect', {
    schema: { hide: true, summary: 'The hosted Connect app', querystring: Type.Object({}, { additionalProperties: true }) },
    handler: async (request, reply) => {
      reply.type(HTML).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      try {
        await openLink(runtime.database.kysely, runtime, request.query as Record<string, unknown>);
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
        return reply.code(e.status).send(simplePage('This link cannot be used', e.message));
      }
      const page = appPage();
      if (!page) return reply.code(503).send(simplePage('Connect is not available', 'The Connect app has not been built on this server (npm run build).'));
      return reply.send(page);
    },
  });

  app.get('/connect/assets/*', {
    schema: { hide: true, summary: 'Connect app and SDK files' },
    handler: async (request, reply) => {
      const asset = readAsset((request.params as { '*': string })['*']);
      if (!asset) throw new ServiceError('ResourceNotFound', 'File not found.');
      // Hashed app files never change; the SDK's name is stable, so it is revalidated.
      const immutable = !(request.params as { '*': string })['*'].startsWith('sdk/');
      return reply
        .type(asset.type)
        .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .header('access-control-allow-origin', '*')
        .send(asset.body);
    },
  });

  app.get('/connect/oauth/callback', {
    schema: {
      hide: true,
      summary: 'OAuth return page of Connect',
      // OAuth's parameters, and whatever parameter a source's redirect names its reference in (SignInRedirect).
      querystring: Type.Object(
        {
          linkId: Type.Optional(Type.String({ maxLength: 64 })),
          state: Type.Optional(Type.String({ maxLength: 64 })),
          code: Type.Optional(Type.String({ maxLength: 4096 })),
          error: Type.Optional(Type.String({ maxLength: 200 })),
        },
        { additionalProperties: Type.String({ maxLength: 4096 }) },
      ),
    },
    handler: async (request, reply) => {
      const outcome = await completeOAuthCallback(app.engine, request.query, psuOf(request));
      const close = '<script>setTimeout(function(){window.close()},800)</script>';
      return reply
        .type(HTML)
        .header('cache-control', 'no-store')
        .send(simplePage(outcome.ok ? 'Signed in' : 'Sign-in not completed', outcome.message, outcome.ok ? close : ''));
    },
  });
}

/** The customer's browser, as institutions that ask for it (PSD2's PSU headers) are told on attended calls. */
function psuOf(request: FastifyRequest): PsuContext {
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' && value.length > 0 && value.length <= 1024 ? value : undefined;
  };
  const optional = (key: keyof PsuContext, name: string) => {
    const value = header(name);
    return value === undefined ? {} : { [key]: value };
  };
  return {
    ipAddress: request.ip,
    userAgent: header('user-agent') ?? '',
    ...optional('accept', 'accept'),
    ...optional('acceptLanguage', 'accept-language'),
    ...optional('acceptCharset', 'accept-charset'),
    ...optional('acceptEncoding', 'accept-encoding'),
    ...optional('referer', 'referer'),
  };
}
