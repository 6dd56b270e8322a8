import Type from 'typebox';
import { addAccounts, answerMfa, currentStep } from '../../../modules/connect/session.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { APP_API, appErrors, linkOf, SessionParams } from './link.js';

/**
 * The steps of a sign-in in progress: GET /connect/api/signin/{sessionId} (where it is, while an OAuth window is
 * open), POST .../mfa (answers), POST .../accounts (the chosen accounts; webhook `added`).
 */
export default function signInSteps(app: App, runtime: Runtime): void {
  app.get('/connect/api/signin/:sessionId', {
    ...APP_API,
    schema: { hide: true, summary: 'Sign-in step in Connect', params: SessionParams, response: appErrors() },
    handler: async (request) => currentStep(app.engine, await linkOf(runtime, request), request.params.sessionId),
  });
  app.post('/connect/api/signin/:sessionId/mfa', {
    ...APP_API,
    schema: {
      hide: true,
      summary: 'Answer MFA in Connect',
      params: SessionParams,
      body: Type.Object({
        answers: Type.Array(Type.Object({ id: Type.String({ maxLength: 512 }), value: Type.String({ maxLength: 1024 }) }), { minItems: 1, maxItems: 10 }),
      }),
      response: appErrors(424),
    },
    handler: async (request) => answerMfa(app.engine, await linkOf(runtime, request), request.params.sessionId, request.body.answers),
  });
  app.post('/connect/api/signin/:sessionId/accounts', {
    ...APP_API,
    schema: {
      hide: true,
      summary: 'Add the chosen accounts in Connect',
      params: SessionParams,
      body: Type.Object({ accountRefs: Type.Optional(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 200 })) }),
      response: appErrors(),
    },
    handler: async (request) => addAccounts(app.engine, await linkOf(runtime, request), request.params.sessionId, request.body.accountRefs),
  });
}
