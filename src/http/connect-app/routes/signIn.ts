import Type from 'typebox';
import { signIn as start } from '../../../modules/connect/session.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { APP_API, appErrors, linkOf } from './link.js';

/** POST /connect/api/signin: signs in with the institution's form (or starts its OAuth sign-in). */
export default function signIn(app: App, runtime: Runtime): void {
  app.post('/connect/api/signin', {
    ...APP_API,
    schema: {
      hide: true,
      summary: 'Sign in at an institution in Connect',
      body: Type.Object({
        institutionId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
        credentials: Type.Array(Type.Object({ id: Type.String({ maxLength: 64 }), value: Type.String({ maxLength: 1024 }) }), { maxItems: 10, default: [] }),
      }),
      response: appErrors(424),
    },
    handler: async (request) => start(app.engine, await linkOf(runtime, request), request.body.institutionId, request.body.credentials),
  });
}
