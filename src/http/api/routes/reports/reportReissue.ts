import { errorResponses } from '../../../../contract/schemas/common.js';
import { LenderBody, Report, ReportIdParams } from '../../../../contract/schemas/reports.js';
import { getReport } from '../../../../modules/reports/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { REPORT_FORMATS, sendReport } from './answer.js';

/** POST /decisioning/v1/reports/{reportId}/partners */
export default function reportReissue(app: App, runtime: Runtime): void {
  app.post('/decisioning/v1/reports/:reportId/partners', {
    config: { fileAnswer: true },
    schema: {
      operationId: 'ReportReissue',
      tags: ['Reports'],
      summary: 'Report Reissue',
      description: `Issues an existing report again, as it was generated, for the partner that generated it. Ledgerlink keeps every report to the partner that asked for it: another partner's report id answers 404, as an unknown one (docs/reports.md, "Report Reissue"). ${REPORT_FORMATS}`,
      params: ReportIdParams,
      body: LenderBody,
      response: { 200: Report, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request, reply) => {
      const { record } = await getReport(runtime, request.caller.partnerId, request.params.reportId, request.body?.purpose);
      return sendReport(request, reply, record, runtime);
    },
  });
}
