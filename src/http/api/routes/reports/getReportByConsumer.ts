import { errorResponses } from '../../../../contract/schemas/common.js';
import { ConsumerReportParams, Report, ReportReadQuery } from '../../../../contract/schemas/reports.js';
import { getConsumerReport } from '../../../../modules/reports/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { REPORT_FORMATS, sendReport } from './answer.js';

/** GET /decisioning/v3/consumers/{consumerId}/reports/{reportId} */
export default function getReportByConsumer(app: App, runtime: Runtime): void {
  app.get('/decisioning/v3/consumers/:consumerId/reports/:reportId', {
    config: { fileAnswer: true },
    schema: {
      operationId: 'GetReportByConsumer',
      tags: ['Reports'],
      summary: 'Get Report by Consumer',
      description: `A report about one of the partner's consumers, as Get Report by Customer answers it. A report of another consumer, or of another partner, answers 404. ${REPORT_FORMATS}`,
      params: ConsumerReportParams,
      querystring: ReportReadQuery,
      response: { 200: Report, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request, reply) => {
      const { record } = await getConsumerReport(runtime, request.caller.partnerId, request.params.consumerId, request.params.reportId, request.query.purpose);
      return sendReport(request, reply, record, runtime);
    },
  });
}
