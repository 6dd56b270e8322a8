import type {
  AccountTable,
  AggregationEventTable,
  InstitutionLoginTable,
  LinkSessionTable,
  PositionTable,
  StatementMappingTable,
  TransactionAliasTable,
  TransactionTable,
} from '../../modules/aggregation/table.js';
import type { AccountBalanceTable } from '../../modules/aggregation/balances.table.js';
import type { StatementFileChunkTable, StatementFileTable, StatementPeriodTable } from '../../modules/aggregation/statement-files.table.js';
import type { TransactionRefreshTable } from '../../modules/aggregation/refreshes.table.js';
import type { AppRegistrationTable, ThirdPartyAccessKeyTable, ThirdPartyAccessProductTable } from '../../modules/apps/table.js';
import type { DashboardSessionTable } from '../../modules/dashboard/table.js';
import type { DeliveryAttemptTable, DeliveryTable, MailboxTable, SandboxListenerTable } from '../../outbox/table.js';
import type { ConnectComponentConfigurationTable, ConnectExperienceTable, ConnectLinkTable } from '../../modules/connect/table.js';
import type { ConsumerTable } from '../../modules/consumers/table.js';
import type { CustomerTable } from '../../modules/customers/table.js';
import type { MicroEntryTable } from '../../modules/microentries/table.js';
import type { InstitutionCatalogTable, InstitutionTable, ListedInstitutionTable, OfxServerTable } from '../../modules/institutions/table.js';
import type { PartnerTable, PartnerTokenTable, SignInThrottleTable } from '../../modules/partners/table.js';
import type { RequestLogTable } from '../../modules/requestlog/table.js';
import type { ReportTable } from '../../modules/reports/table.js';
import type { RuleTable, TransactionRuleSourceTable } from '../../modules/rules/table.js';
import type { SimplefinAccessTable, SimplefinSetupTokenTable } from '../../modules/simplefin/table.js';
import type { PayStatementChunkTable, PayStatementTable } from '../../modules/statements/table.js';

import type { TxPushSubscriptionTable } from '../../modules/txpush/table.js';
import type { WebhookSubscriptionEventTable, WebhookSubscriptionTable } from '../../modules/webhooks/table.js';

/** Every table of the database, as Kysely sees it. Each feature owns its table types in domain/<feature>/table.ts. */
export interface DB {
  partners: PartnerTable;
  partner_tokens: PartnerTokenTable;
  deliveries: DeliveryTable;
  delivery_attempts: DeliveryAttemptTable;
  mailbox: MailboxTable;
  customers: CustomerTable;
  consumers: ConsumerTable;
  reports: ReportTable;
  institutions: InstitutionTable;
  institution_catalog: InstitutionCatalogTable;
  ofx_servers: OfxServerTable;
  listed_institutions: ListedInstitutionTable;
  request_log: RequestLogTable;
  dashboard_sessions: DashboardSessionTable;
  sign_in_throttle: SignInThrottleTable;
  institution_logins: InstitutionLoginTable;
  accounts: AccountTable;
  positions: PositionTable;
  transactions: TransactionTable;
  transaction_aliases: TransactionAliasTable;
  aggregation_events: AggregationEventTable;
  link_sessions: LinkSessionTable;
  statement_mappings: StatementMappingTable;
  rules: RuleTable;
  transaction_rule_sources: TransactionRuleSourceTable;
  simplefin_setup_tokens: SimplefinSetupTokenTable;
  simplefin_accesses: SimplefinAccessTable;
  account_balances: AccountBalanceTable;
  statement_files: StatementFileTable;
  statement_file_chunks: StatementFileChunkTable;
  statement_periods: StatementPeriodTable;
  txpush_subscriptions: TxPushSubscriptionTable;
  webhook_subscriptions: WebhookSubscriptionTable;
  webhook_subscription_events: WebhookSubscriptionEventTable;
  connect_links: ConnectLinkTable;
  connect_experiences: ConnectExperienceTable;
  connect_component_configurations: ConnectComponentConfigurationTable;
  sandbox_listeners: SandboxListenerTable;
  micro_entries: MicroEntryTable;
  pay_statements: PayStatementTable;
  pay_statement_chunks: PayStatementChunkTable;
  transaction_refreshes: TransactionRefreshTable;
  app_registrations: AppRegistrationTable;
  third_party_access_keys: ThirdPartyAccessKeyTable;
  third_party_access_products: ThirdPartyAccessProductTable;
}
