import { ReportCallbackQuery, StatementReportRequest } from '../../../../contract/schemas/reports.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { generateReportRoute } from './generate.js';

/** POST /decisioning/v2/customers/{customerId}/statement */
export default function generateStatementReport(app: App, runtime: Runtime): void {
  generateReportRoute(app, runtime, {
    type: 'statement',
    url: '/decisioning/v2/customers/:customerId/statement',
    operationId: 'GenerateStatementReport',
    tags: ['Bank Statements'],
    summary: 'Generate Statement Report for Customer',
    description:
      "A report holding one statement of one of the customer's accounts, of any type: `statementReportData.accountId` (an account the customer lacks: 400, code 10010) and `statementIndex` (1, the latest, to 24; no statement with transactions there: 404, code 16201). Once it succeeds, its `assetId` is the statement's, which Get Asset by Customer and ID answers as a PDF, and the report's own PDF is that statement (docs/statements.md).",
    body: StatementReportRequest,
    querystring: ReportCallbackQuery,
  });
}
