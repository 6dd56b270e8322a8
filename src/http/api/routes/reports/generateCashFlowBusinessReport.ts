import { CashFlowReportRequest, ReportCallbackQuery } from '../../../../contract/schemas/reports.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { generateReportRoute } from './generate.js';

/** POST /decisioning/v2/customers/{customerId}/cashFlowBusiness */
export default function generateCashFlowBusinessReport(app: App, runtime: Runtime): void {
  generateReportRoute(app, runtime, {
    type: 'cfrb',
    url: '/decisioning/v2/customers/:customerId/cashFlowBusiness',
    operationId: 'GenerateCashFlowBusinessReport',
    tags: ['Cash Flow'],
    summary: 'Generate Cash Flow Report for the Customer (Business)',
    description:
      'Every account asked for over 24 months by default (fromDate reads less), with its transactions and, by complete month, its daily balances (min, max, average, days below zero), credits, debits and net, with and without transfers; the same figures for the customer (balances over the deposit and investment accounts).',
    body: CashFlowReportRequest,
    querystring: ReportCallbackQuery,
  });
}
