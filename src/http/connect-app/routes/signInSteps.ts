import { addAccounts, answerMfa, currentStep } from '../../../modules/connect/session.service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { AddedAccounts, ConnectAccountsBody, ConnectMfaBody, SignInStep } from '../../../contract/schemas/connect-app.js';
import { appErrors, linkOf, SessionParams } from './link.js';

/**
 * The steps of a sign-in in progress: GET /connect/api/signin/{sessionId} (where it is, while an OAuth window is
 * open), POST .../mfa (answers), POST .../accounts (the chosen accounts; webhook `added`).
 */
export default function signInSteps(app: App, runtime: Runtime): void {
  app.get('/connect/api/signin/:sessionId', {
    schema: { hide: true, summary: 'Sign-in step in Connect', params: SessionParams, response: appErrors(SignInStep) },
    handler: async (request) => currentStep(app.engine, await linkOf(runtime, request), request.params.sessionId),
  });
  app.post('/connect/api/signin/:sessionId/mfa', {
    schema: {
      hide: true,
      summary: 'Answer MFA in Connect',
      params: SessionParams,
      body: ConnectMfaBody,
      response: appErrors(SignInStep, 424),
    },
    handler: async (request) => answerMfa(app.engine, await linkOf(runtime, request), request.params.sessionId, request.body.answers),
  });
  app.post('/connect/api/signin/:sessionId/accounts', {
    schema: {
      hide: true,
      summary: 'Add the chosen accounts in Connect',
      params: SessionParams,
      body: ConnectAccountsBody,
      response: appErrors(AddedAccounts),
    },
    handler: async (request) =>
      addAccounts(app.engine, await linkOf(runtime, request), request.params.sessionId, request.body.accountRefs, request.body.sameAs),
  });
}
