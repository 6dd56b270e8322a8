/** What the dashboard API answers. */

export interface Partner {
  partnerId: string;
  name: string;
  plan: 'testdrive' | 'production';
  lockedAt: number | null;
  failedAuthentications: number;
  createdDate: number;
}
export interface Session {
  partner: Partner;
  expiresAt: number;
  csrfToken: string;
}
export interface CustomerSummary {
  id: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
  type: string;
  createdDate: number;
}
export interface AccountRow {
  id: string;
  name: string;
  type: string;
  accountNumberDisplay: string;
  balance: number;
  currency: string;
  status: string;
  aggregationStatusCode: number;
  aggregationSuccessDate: number | null;
}
export interface InstitutionLogin {
  institutionLoginId: number;
  institution: { id: number; name: string };
  aggregationStatusCode: number;
  accounts: AccountRow[];
}
export interface Transaction {
  id: number;
  amount: number;
  accountId: number;
  status: string;
  description: string;
  memo?: string;
  transactionDate?: number;
  postedDate?: number;
  createdDate: number;
}
export interface CustomerOverview {
  customer: CustomerSummary & { email: string | null; phone: string | null; clock: number; clockOffsetSeconds: number };
  institutionLogins: InstitutionLogin[];
  transactions: { aggregated: boolean; found: number; latest: Transaction[] };
}
export interface RequestEntry {
  id: number;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  errorCode: string | null;
  requestId: string;
  at: number;
}
export interface Attempt {
  attemptedAt: number;
  workerId: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}
export interface Delivery {
  id: number;
  kind: 'txpush' | 'webhook' | 'email';
  eventId: string;
  target: string;
  status: 'pending' | 'delivered' | 'failed' | 'cancelled' | string;
  createdAt: number;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  lastStatusCode: number | null;
  lastError: string | null;
  customerId: number | null;
  attempts: Attempt[];
}
export interface Mail {
  id: number;
  deliveryId: number | null;
  eventId: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  createdAt: number;
}
export interface Experience {
  name: string;
  appName: string;
  logoUrl: string | null;
  primaryColor: string;
}
