import { AssetReportRequest, ReportCallbackQuery } from '../../../../contract/schemas/reports.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { generateReportRoute } from './generate.js';

/** POST /decisioning/v2/customers/{customerId}/voa */
export default function generateVoaReport(app: App, runtime: Runtime): void {
  generateReportRoute(app, runtime, {
    type: 'voa',
    url: '/decisioning/v2/customers/:customerId/voa',
    operationId: 'GenerateVOAReport',
    tags: ['Verify Assets'],
    summary: 'Generate VOA Report for the Customer',
    description:
      "Verification of Assets over the customer's checking, savings, money market and investment accounts (400, code 16001, when it has none): balances, available balances, the average daily balance over the last two and six months, the beginning balance, transactions (12 months by default, fromDate to go less far back) and positions, insufficient funds fees when showNsf.",
    body: AssetReportRequest,
    querystring: ReportCallbackQuery,
  });
}
