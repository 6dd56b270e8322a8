import { AssetIncomeReportRequest, ReportCallbackQuery } from '../../../../contract/schemas/reports.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { generateReportRoute } from './generate.js';

/** POST /decisioning/v2/customers/{customerId}/voaHistory */
export default function generateVoaWithIncomeReport(app: App, runtime: Runtime): void {
  generateReportRoute(app, runtime, {
    type: 'voaHistory',
    url: '/decisioning/v2/customers/:customerId/voaHistory',
    operationId: 'GenerateVOAWithIncomeReport',
    tags: ['Verify Assets'],
    summary: 'Generate VOA With Income Report for the Customer',
    description:
      'The VOA of the same accounts over 61 days by default (fromDate up to 24 months back), with the income streams of each deposit account and the income summaries estimated from the same period (docs/reports-analysis.md).',
    body: AssetIncomeReportRequest,
    querystring: ReportCallbackQuery,
  });
}
