import createClient, { type Client } from 'openapi-fetch';
import { systemClock, type Clock } from './clock.js';
import type { paths } from './schema.js';
import { TOKEN_RENEWAL_MS, TokenKeeper } from './tokens.js';
import { AUTHENTICATION_PATH, createTransport, type RetryOptions } from './transport.js';
import type {
  Account,
  CreatedCustomer,
  LoginField,
  MfaChallenges,
  Query,
  RequestBody,
  ResponseBody,
  Transaction,
  TransactionPage,
  TxPushSubscription,
} from './types.js';

export interface LedgerlinkClientOptions {
  /** The service's base URL, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  appKey: string;
  partnerId: string;
  partnerSecret: string;
  /** Ages the shared token (default: the system clock). */
  clock?: Clock;
  /** How old a token may get before it is replaced (default 90 minutes, the interface's advice). */
  tokenRenewalMs?: number;
  retry?: RetryOptions;
  /** The underlying fetch (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** Waits between retries (default setTimeout). */
  sleep?: (ms: number) => Promise<void>;
}

/** What linking answers: the linked accounts, or the institution's MFA questions to answer with `addAllAccountsMfa`. */
export type LinkResult = { status: 'linked'; accounts: Account[] } | { status: 'mfa'; mfaSession: string; questions: MfaChallenges['questions'] };

/** The data of a successful openapi-fetch call; failures never get here, the transport throws them. */
async function dataOf<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  return (await call).data as T;
}

/**
 * The Ledgerlink API client. `api` is the typed openapi-fetch client for every operation (paths and bodies are
 * checked against the OpenAPI description); the methods below wrap the usual partner flow and are named after
 * their operationId. Every call carries the app key and the shared token, retries 429 and 503, and throws a
 * LedgerlinkError when refused.
 */
export class LedgerlinkClient {
  readonly api: Client<paths, 'application/json'>;
  private readonly tokens: TokenKeeper;

  constructor(options: LedgerlinkClientOptions) {
    const clock = options.clock ?? systemClock;
    this.tokens = new TokenKeeper(() => this.authenticate(options.partnerId, options.partnerSecret), clock, options.tokenRenewalMs ?? TOKEN_RENEWAL_MS);
    const transport = createTransport({ appKey: options.appKey, tokens: this.tokens, clock, retry: options.retry, fetch: options.fetch, sleep: options.sleep });
    this.api = createClient<paths, 'application/json'>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: transport });
  }

  /** The shared token, obtained or renewed when needed. Calls use it on their own; this is for other HTTP clients. */
  token(): Promise<string> {
    return this.tokens.get();
  }

  private async authenticate(partnerId: string, partnerSecret: string): Promise<string> {
    const { token } = await dataOf(this.api.POST(AUTHENTICATION_PATH, { body: { partnerId, partnerSecret } }));
    return token;
  }

  /** Enrols a testing customer (it may link accounts at test institutions only). */
  addTestingCustomer(customer: RequestBody<'AddTestingCustomer'>): Promise<CreatedCustomer> {
    return dataOf(this.api.POST('/aggregation/v2/customers/testing', { body: customer }));
  }

  /**
   * Links every account the customer has at a credential institution without a browser (the legacy addall call),
   * signing in with user id and password in the institution's form fields `<institutionId>001` and `002`.
   */
  async addAllAccounts(customerId: string, institutionId: number, signIn: { username: string; password: string } | LoginField[]): Promise<LinkResult> {
    const credentials = Array.isArray(signIn)
      ? signIn
      : [
          { id: `${institutionId}001`, name: 'Banking Userid', value: signIn.username },
          { id: `${institutionId}002`, name: 'Banking Password', value: signIn.password },
        ];
    const { data, response } = await this.api.POST('/aggregation/v1/customers/{customerId}/institutions/{institutionId}/accounts/addall', {
      params: { path: { customerId, institutionId } },
      body: { credentials },
    });
    return linkResult(data!, response);
  }

  /** Answers the MFA questions of a link that answered `status: 'mfa'`; may answer more questions. */
  async addAllAccountsMfa(customerId: string, institutionId: number, mfaSession: string, answers: Array<{ id: string; answer: string }>): Promise<LinkResult> {
    const { data, response } = await this.api.POST('/aggregation/v1/customers/{customerId}/institutions/{institutionId}/accounts/addall/mfa', {
      params: { path: { customerId, institutionId }, header: { 'mfa-session': mfaSession } },
      body: { mfaChallenges: { questions: answers } },
    });
    return linkResult(data!, response);
  }

  /** Refreshes every account of the customer now (the initial aggregation transactions need) and answers them. */
  async refreshCustomerAccounts(customerId: string): Promise<Account[]> {
    const { accounts } = await dataOf(this.api.POST('/aggregation/v1/customers/{customerId}/accounts', { params: { path: { customerId } } }));
    return accounts;
  }

  /** The customer's accounts as last refreshed. */
  async getCustomerAccounts(customerId: string): Promise<Account[]> {
    const { accounts } = await dataOf(this.api.GET('/aggregation/v1/customers/{customerId}/accounts', { params: { path: { customerId } } }));
    return accounts;
  }

  /** Pages through the customer's transactions from `fromDate` to `toDate` (epoch seconds), one page per step. */
  async *getAllCustomerTransactions(customerId: string, query: Query<'GetAllCustomerTransactions'>): AsyncGenerator<TransactionPage> {
    let start = query.start ?? 1;
    for (;;) {
      const page = await dataOf(
        this.api.GET('/aggregation/v3/customers/{customerId}/transactions', { params: { path: { customerId }, query: { ...query, start } } }),
      );
      yield page;
      // moreAvailable is rendered as a string ("true"/"false") like the real-world service does.
      if (String(page.moreAvailable) !== 'true' || page.displaying === 0) return;
      start += page.displaying;
    }
  }

  /** Every transaction of the customer from `fromDate` to `toDate`, fetched page by page as they are consumed. */
  async *customerTransactions(customerId: string, query: Query<'GetAllCustomerTransactions'>): AsyncGenerator<Transaction> {
    for await (const page of this.getAllCustomerTransactions(customerId, query)) yield* page.transactions;
  }

  /**
   * Subscribes a listener to the account's TxPUSH notifications (JSON). The service first verifies the listener
   * (`createPushListener` answers that); the answer holds one subscription per event class, each with the
   * `signingKey` its notifications are signed with.
   */
  async subscribeToTxPushNotifications(customerId: string, accountId: string, callbackUrl: string): Promise<TxPushSubscription[]> {
    const { subscriptions } = await dataOf(
      this.api.POST('/aggregation/v1/customers/{customerId}/accounts/{accountId}/txpush', {
        params: { path: { customerId, accountId } },
        body: { callbackUrl },
      }),
    );
    return subscriptions;
  }

  /** Ends every TxPUSH subscription of the account. */
  async disableTxPushNotifications(customerId: string, accountId: string): Promise<void> {
    await this.api.DELETE('/aggregation/v1/customers/{customerId}/accounts/{accountId}/txpush', { params: { path: { customerId, accountId } } });
  }

  /** Ends one TxPUSH subscription. */
  async deleteTxPushSubscription(customerId: string, subscriptionId: string): Promise<void> {
    await this.api.DELETE('/aggregation/v1/customers/{customerId}/subscriptions/{subscriptionId}', { params: { path: { customerId, subscriptionId } } });
  }

  /** Adds a transaction to an account at a test institution, which fires its pushes. */
  createTxPushTestTransaction(
    customerId: string,
    accountId: string,
    transaction: RequestBody<'CreateTxPushTestTransaction'>,
  ): Promise<ResponseBody<'CreateTxPushTestTransaction', 201>> {
    return dataOf(
      this.api.POST('/aggregation/v1/customers/{customerId}/accounts/{accountId}/transactions', {
        params: { path: { customerId, accountId } },
        body: transaction,
      }),
    );
  }
}

function linkResult(data: object, response: Response): LinkResult {
  if (response.status === 203) {
    return { status: 'mfa', mfaSession: response.headers.get('mfa-session') ?? '', questions: (data as MfaChallenges).questions };
  }
  return { status: 'linked', accounts: (data as { accounts: Account[] }).accounts };
}
