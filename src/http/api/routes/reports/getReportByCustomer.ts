import { errorResponses } from '../../../../contract/schemas/common.js';
import { CustomerReportParams, Report, ReportReadQuery } from '../../../../contract/schemas/reports.js';
import { getCustomerReport } from '../../../../modules/reports/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { REPORT_FORMATS, sendReport } from './answer.js';

/** GET /decisioning/v3/customers/{customerId}/reports/{reportId} */
export default function getReportByCustomer(app: App, runtime: Runtime): void {
  app.get('/decisioning/v3/customers/:customerId/reports/:reportId', {
    config: { fileAnswer: true },
    schema: {
      operationId: 'GetReportByCustomer',
      tags: ['Reports'],
      summary: 'Get Report by Customer',
      description: `A report of one of the partner's customers: \`inProgress\`, \`success\` (with what its kind computed) or \`failure\` (with \`errors\`). A report of another customer, or of another partner, answers 404. ${REPORT_FORMATS}`,
      params: CustomerReportParams,
      querystring: ReportReadQuery,
      response: { 200: Report, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request, reply) => {
      const { record } = await getCustomerReport(runtime, request.caller.partnerId, request.params.customerId, request.params.reportId, request.query.purpose);
      return sendReport(request, reply, record, runtime);
    },
  });
}
