import { errorResponses } from '../../../../contract/schemas/common.js';
import { LenderBody, Report, ReportIdParams, ReportReadQuery } from '../../../../contract/schemas/reports.js';
import { getReport } from '../../../../modules/reports/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { REPORT_FORMATS, sendReport } from './answer.js';

/** POST /decisioning/v3/reports/{reportId} */
export default function getReportById(app: App, runtime: Runtime): void {
  app.post('/decisioning/v3/reports/:reportId', {
    config: { fileAnswer: true },
    schema: {
      operationId: 'GetReportById',
      tags: ['Reports'],
      summary: 'Get Report by Report ID',
      description: `One of the partner's reports by its id alone; another partner's answers 404. The purpose may come in the query or the body (the query wins). ${REPORT_FORMATS}`,
      params: ReportIdParams,
      querystring: ReportReadQuery,
      body: LenderBody,
      response: { 200: Report, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request, reply) => {
      const purpose = request.query.purpose ?? request.body?.purpose;
      const { record } = await getReport(runtime, request.caller.partnerId, request.params.reportId, purpose);
      return sendReport(request, reply, record, runtime);
    },
  });
}
