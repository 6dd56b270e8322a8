import { signIn as start } from '../../../modules/connect/session.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { ConnectSignInBody, SignInStep } from '../../../contract/schemas/connect-app.js';
import { appErrors, linkOf } from './link.js';

/** POST /connect/api/signin: signs in with the institution's form (or starts its OAuth sign-in). */
export default function signIn(app: App, runtime: Runtime): void {
  app.post('/connect/api/signin', {
    schema: {
      hide: true,
      summary: 'Sign in at an institution in Connect',
      body: ConnectSignInBody,
      response: appErrors(SignInStep, 424),
    },
    handler: async (request) => start(app.engine, await linkOf(runtime, request), request.body.institutionId, request.body.credentials),
  });
}
