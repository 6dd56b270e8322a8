import type { operations } from './schema.js';

/** The JSON body of an operation's answer with the given status. */
export type ResponseBody<Id extends keyof operations, Status extends number> = operations[Id]['responses'] extends {
  [S in Status]: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** The JSON request body of an operation. */
export type RequestBody<Id extends keyof operations> = operations[Id] extends { requestBody: { content: { 'application/json': infer Body } } }
  ? Body
  : operations[Id] extends { requestBody?: { content: { 'application/json': infer Body } } }
    ? Body
    : never;

/** The query parameters of an operation. */
export type Query<Id extends keyof operations> = operations[Id]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;

export type Customer = ResponseBody<'GetCustomer', 200>;
export type CreatedCustomer = ResponseBody<'AddTestingCustomer', 201>;
export type Account = ResponseBody<'GetCustomerAccounts', 200>['accounts'][number];
export type Transaction = ResponseBody<'GetAllCustomerTransactions', 200>['transactions'][number];
export type TransactionPage = ResponseBody<'GetAllCustomerTransactions', 200>;
export type MfaChallenges = ResponseBody<'AddAllAccounts', 203>;
export type LoginField = RequestBody<'AddAllAccounts'>['credentials'][number];
export type TxPushSubscription = ResponseBody<'SubscribeToTxPushNotifications', 201>['subscriptions'][number];
