import type { ConnectorFailure, OAuthStart } from '../../src/connectors/connector.js';

/** What startOAuth answered, when it started: a failure fails the test with its message. */
export function started(result: OAuthStart | ConnectorFailure): OAuthStart {
  if ('ok' in result) throw new Error(`The OAuth sign-in did not start: ${result.message} (${result.code})`);
  return result;
}
