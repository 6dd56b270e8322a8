import { AnalyticsReportRequest, ReportCallbackQuery } from '../../../../contract/schemas/reports.js';
import { analyticsReportType } from '../../../../modules/reports/analytics-report.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { generateReportRoute } from './generate.js';

/** POST /decisioning/customers/{customerId}/reports/payment-history/userTypes/business */
export default function generatePaymentHistoryReport(app: App, runtime: Runtime): void {
  generateReportRoute(app, runtime, {
    type: (_params, body) => analyticsReportType('paymentHistory', 'business', body?.analyticsReportData),
    url: '/decisioning/customers/:customerId/reports/payment-history/userTypes/business',
    operationId: 'GeneratePaymentHistoryReport',
    tags: ['Payment History Report'],
    summary: 'Generate Payment History Report for the Customer - Business',
    description:
      'The payment history analytics of every account asked for and of the business (its payments by payee: attributes by the time intervals asked for, MONTHLY_CALENDAR by default, and the recurring payment streams with their cadence and recency) over 24 months by default (fromDate reads less). The report type is phrbcra (forCraPurpose), phrbftc (forFtcPurpose) or phrbnoncra.',
    body: AnalyticsReportRequest,
    querystring: ReportCallbackQuery,
  });
}
