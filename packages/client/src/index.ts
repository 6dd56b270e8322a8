export { LedgerlinkClient, type LedgerlinkClientOptions, type LinkResult } from './client.js';
export { systemClock, type Clock } from './clock.js';
export { LedgerlinkError, isLedgerlinkError } from './errors.js';
export { TOKEN_RENEWAL_MS, TokenKeeper } from './tokens.js';
export type { RetryOptions } from './transport.js';
export type { Account, CreatedCustomer, Customer, LoginField, MfaChallenges, Transaction, TransactionPage, TxPushSubscription } from './types.js';
export type { components, operations, paths } from './schema.js';
export {
  signWebhook,
  verifyConnectWebhook,
  verifyTxPush,
  verifyWebhook,
  WebhookVerificationError,
  type ConnectWebhook,
  type HeaderSource,
  type PushTransaction,
  type TxPushNotification,
  type VerifiedMessage,
  type VerifyOptions,
} from './webhooks.js';
export { answerTxPushVerification, createPushListener, type PushListenerOptions } from './listener.js';
