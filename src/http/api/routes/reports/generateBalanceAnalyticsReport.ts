import { AnalyticsReportRequest, ReportCallbackQuery, UserTypeParams } from '../../../../contract/schemas/reports.js';
import { analyticsReportType } from '../../../../modules/reports/analytics-report.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { generateReportRoute } from './generate.js';

/** POST /decisioning/v2/customers/{customerId}/reports/balance-analytics/userTypes/{userType} */
export default function generateBalanceAnalyticsReport(app: App, runtime: Runtime): void {
  generateReportRoute(app, runtime, {
    type: (params, body) => analyticsReportType('balance', params.userType as 'personal' | 'business', body?.analyticsReportData),
    url: '/decisioning/v2/customers/:customerId/reports/balance-analytics/userTypes/:userType',
    operationId: 'GenerateBalanceAnalyticsReport',
    tags: ['Balance Analytics'],
    summary: 'Generate Balance Analytics Report for the customer - Personal/Business',
    description:
      'The balance analytics of every account asked for and of the customer (attributes by the time intervals asked for, MONTHLY_CALENDAR by default, and the recurring streams) over 24 months by default (fromDate reads less). The report type follows userType and analyticsReportData: barp or barb, then cra (forCraPurpose), ftc (business with forFtcPurpose) or noncra.',
    body: AnalyticsReportRequest,
    querystring: ReportCallbackQuery,
    params: UserTypeParams,
  });
}
