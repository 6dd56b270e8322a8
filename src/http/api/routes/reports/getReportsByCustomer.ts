import { errorResponses } from '../../../../contract/schemas/common.js';
import { CustomerIdParams } from '../../../../contract/schemas/customers.js';
import { ReportSummaries } from '../../../../contract/schemas/reports.js';
import { listCustomerReports } from '../../../../modules/reports/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /decisioning/v1/customers/{customerId}/reports */
export default function getReportsByCustomer(app: App, runtime: Runtime): void {
  app.get('/decisioning/v1/customers/:customerId/reports', {
    schema: {
      operationId: 'GetReportsByCustomerId',
      tags: ['Reports'],
      summary: 'Get List of Reports by Customer',
      description: "Every report of one of the partner's customers, newest first, with its status. Another partner's customer answers 404.",
      params: CustomerIdParams,
      response: { 200: ReportSummaries, ...errorResponses(401, 404, 406) },
    },
    handler: async (request) => listCustomerReports(runtime, request.caller.partnerId, request.params.customerId),
  });
}
