import Type from 'typebox';
import type { AuthorizeRequest } from '../../../connectors/testbank/connector.js';
import { TEST_BANK_AUTHORIZE_PATH } from '../../../connectors/testbank/connector.js';
import { testbank } from '../../../connectors/testbank/index.js';
import { serviceNow } from '../../../modules/aggregation/engine.js';
import { findOAuthSession } from '../../../modules/aggregation/linking.service.js';
import { escapeHtml } from '../../../modules/connect/html.js';
import type { App } from '../../app-types.js';
import { simplePage } from './web.js';

const HTML = 'text/html; charset=utf-8';
const APPROVE_PATH = '/connect/testbank/oauth/approve';
const AuthorizeQuery = Type.Object({
  institutionId: Type.Optional(Type.String({ maxLength: 16 })),
  redirect_uri: Type.Optional(Type.String({ maxLength: 2048 })),
  state: Type.Optional(Type.String({ maxLength: 64 })),
  response_type: Type.Optional(Type.String({ maxLength: 16 })),
  signature: Type.Optional(Type.String({ maxLength: 128 })),
});

const hidden = (request: AuthorizeRequest, signature: string) =>
  Object.entries({
    institutionId: String(request.institutionId),
    redirect_uri: request.redirectUri,
    state: request.state,
    response_type: 'code',
    signature,
  })
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
    .join('');

/**
 * The test bank's own OAuth sign-in page (what a real OAuth institution shows on its site): GET
 * /connect/testbank/oauth/authorize shows the profiles to sign in as; GET /connect/testbank/oauth/approve sends
 * the browser back to the redirect URI with a code (or error=access_denied). The request is signed by the
 * connector, so the page cannot be used to redirect anywhere else.
 */
export default function testBankOAuth(app: App): void {
  const pages = app.engine.registry.opened(testbank).oauthPages;
  app.get(TEST_BANK_AUTHORIZE_PATH, {
    schema: { hide: true, summary: 'Test bank OAuth sign-in page', querystring: AuthorizeQuery },
    handler: async (request, reply) => {
      const parsed = pages.parseAuthorizeRequest(request.query);
      reply.type(HTML).header('cache-control', 'no-store');
      if (!parsed.ok) return reply.code(400).send(simplePage('FinBank sign-in', parsed.error));
      const options = pages
        .listOAuthProfiles()
        .map((p) => `<option value="${escapeHtml(p.id)}">${escapeHtml(p.id)} — ${escapeHtml(p.summary)}</option>`)
        .join('');
      const form =
        `<form method="get" action="${APPROVE_PATH}">${hidden(parsed.request, request.query.signature!)}` +
        `<label for="profile">Sign in as</label><select id="profile" name="profile">${options}</select>` +
        `<p>Ledgerlink Connect asks to read your accounts and transactions.</p>` +
        `<button type="submit" name="decision" value="allow">Allow access</button><button type="submit" class="secondary" name="decision" value="deny">Decline</button></form>`;
      return reply.send(simplePage('FinBank OAuth sign-in', 'Choose the test profile to sign in with and allow access.', form, '#0b6e4f'));
    },
  });
  app.get(APPROVE_PATH, {
    schema: {
      hide: true,
      summary: 'Test bank OAuth decision',
      querystring: Type.Object({
        ...AuthorizeQuery.properties,
        profile: Type.Optional(Type.String({ maxLength: 64 })),
        decision: Type.Optional(Type.String({ maxLength: 16 })),
      }),
    },
    handler: async (request, reply) => {
      const parsed = pages.parseAuthorizeRequest(request.query);
      if (!parsed.ok) return reply.code(400).type(HTML).send(simplePage('FinBank sign-in', parsed.error));
      if (request.query.decision !== 'allow') return reply.redirect(pages.redirectUrl(parsed.request, { error: 'access_denied' }));
      const profile = pages.listOAuthProfiles().find((p) => p.id === request.query.profile);
      if (!profile) return reply.code(400).type(HTML).send(simplePage('FinBank sign-in', 'Choose one of the test profiles.'));
      // Codes are dated by the customer's clock (the session's customer), which the connector checks them against.
      const session = await findOAuthSession(app.engine, parsed.request.state);
      const now = session?.customerNow ?? serviceNow(app.engine);
      return reply.redirect(pages.redirectUrl(parsed.request, { code: pages.issueAuthorizationCode(parsed.request, profile.id, now) }));
    },
  });
}
