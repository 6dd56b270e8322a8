import type { Migration } from 'kysely';
import * as m0001 from './0001_partners.js';
import * as m0002 from './0002_customers.js';
import * as m0003 from './0003_institutions.js';
import * as m0004 from './0004_aggregation.js';
import * as m0005 from './0005_outbox.js';
import * as m0006 from './0006_connect.js';
import * as m0007 from './0007_txpush.js';
import * as m0009 from './0009_request_log.js';
import * as m0010 from './0010_sandbox.js';
import * as m0011 from './0011_sandbox_listeners.js';
import * as m0012 from './0012_dashboard.js';
import * as m0013 from './0013_data_versions.js';
import * as m0014 from './0014_request_log_file.js';
import * as m0015 from './0015_delivery_privacy.js';
import * as m0016 from './0016_authentication_attempts.js';
import * as m0017 from './0017_partner_tokens_by_partner.js';
import * as m0018 from './0018_ofx_servers.js';
import * as m0019 from './0019_refresh_schedule.js';
import * as m0020 from './0020_statement_file_logins.js';
import * as m0021 from './0021_request_log_bodies.js';
import * as m0022 from './0022_delivery_states.js';
import * as m0023 from './0023_listener_limits.js';
import * as m0024 from './0024_change_marks.js';
import * as m0025 from './0025_data_version_triggers_by_key.js';
import * as m0026 from './0026_refresh_leases_by_institution.js';
import * as m0027 from './0027_statement_mappings.js';
import * as m0028 from './0028_rules.js';
import * as m0029 from './0029_transaction_sources.js';
import * as m0030 from './0030_pending_and_transfers.js';
import * as m0031 from './0031_account_balances.js';
import * as m0032 from './0032_transfer_candidates.js';
import * as m0033 from './0033_simplefin_server.js';
import * as m0034 from './0034_listed_institutions.js';
import * as m0035 from './0035_consumers.js';
import * as m0036 from './0036_account_payment_identity.js';
import * as m0037 from './0037_reports.js';
import * as m0039 from './0039_statement_files.js';
import * as m0040 from './0040_webhook_subscriptions.js';
import * as m0041 from './0041_micro_entries.js';
import * as m0042 from './0042_app_registration.js';
import * as m0043 from './0043_connect_components.js';
import * as m0044 from './0044_portfolios.js';
import * as m0045 from './0045_statement_file_chunks.js';
import * as m0046 from './0046_statement_files_stored.js';

/** Every migration, in order. New migrations are appended here with the next number. */
export const migrations: Record<string, Migration> = {
  '0001_partners': m0001,
  '0002_customers': m0002,
  '0003_institutions': m0003,
  '0004_aggregation': m0004,
  '0005_outbox': m0005,
  '0006_connect': m0006,
  '0007_txpush': m0007,
  '0009_request_log': m0009,
  '0010_sandbox': m0010,
  '0011_sandbox_listeners': m0011,
  '0012_dashboard': m0012,
  '0013_data_versions': m0013,
  '0014_request_log_file': m0014,
  '0015_delivery_privacy': m0015,
  '0016_authentication_attempts': m0016,
  '0017_partner_tokens_by_partner': m0017,
  '0018_ofx_servers': m0018,
  '0019_refresh_schedule': m0019,
  '0020_statement_file_logins': m0020,
  '0021_request_log_bodies': m0021,
  '0022_delivery_states': m0022,
  '0023_listener_limits': m0023,
  '0024_change_marks': m0024,
  '0025_data_version_triggers_by_key': m0025,
  '0026_refresh_leases_by_institution': m0026,
  '0027_statement_mappings': m0027,
  '0028_rules': m0028,
  '0029_transaction_sources': m0029,
  '0030_pending_and_transfers': m0030,
  '0031_account_balances': m0031,
  '0032_transfer_candidates': m0032,
  '0033_simplefin_server': m0033,
  '0034_listed_institutions': m0034,
  '0035_consumers': m0035,
  '0036_account_payment_identity': m0036,
  '0037_reports': m0037,
  '0039_statement_files': m0039,
  '0040_webhook_subscriptions': m0040,
  '0041_micro_entries': m0041,
  '0042_app_registration': m0042,
  '0043_connect_components': m0043,
  '0044_portfolios': m0044,
  '0045_statement_file_chunks': m0045,
  '0046_statement_files_stored': m0046,
};
