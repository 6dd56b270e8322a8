import { AssetReportRequest, ReportCallbackQuery } from '../../../../contract/schemas/reports.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { generateReportRoute } from './generate.js';

/** POST /decisioning/v2/customers/{customerId}/preQualVoa */
export default function generatePrequalificationCraReport(app: App, runtime: Runtime): void {
  generateReportRoute(app, runtime, {
    type: 'preQualVoa',
    url: '/decisioning/v2/customers/:customerId/preQualVoa',
    operationId: 'GeneratePrequalificationCRAReport',
    tags: ['Verify Assets'],
    summary: 'Generate Prequalification (CRA) Report for the Customer',
    description:
      "The customer's checking, savings, money market and investment accounts (400, code 16001, when it has none) with their owner, balances and averages, and the insufficient funds fees of checking accounts (in 6 months too); no transactions.",
    body: AssetReportRequest,
    querystring: ReportCallbackQuery,
  });
}
