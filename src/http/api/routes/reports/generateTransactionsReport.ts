import { TransactionsReportRequest, TransactionsReportQuery } from '../../../../contract/schemas/reports.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { generateReportRoute } from './generate.js';

/** POST /decisioning/v2/customers/{customerId}/transactions */
export default function generateTransactionsReport(app: App, runtime: Runtime): void {
  generateReportRoute(app, runtime, {
    type: 'transactions',
    url: '/decisioning/v2/customers/:customerId/transactions',
    operationId: 'GenerateTransactionsReport',
    tags: ['Transactions'],
    summary: 'Generate Transactions Report for the Customer',
    description:
      "Every account asked for (any type) with its transactions from fromDate (required, query or body) to toDate (the customer's today by default; after fromDate and at most 24 months later, else 400 with code 16002), newest first, pending ones with includePending, narrowed by findTransaction.",
    body: TransactionsReportRequest,
    querystring: TransactionsReportQuery,
  });
}
