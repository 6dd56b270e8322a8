import { errorResponses } from '../../../../contract/schemas/common.js';
import { ConsumerIdParams } from '../../../../contract/schemas/consumers.js';
import { ReportSummaries } from '../../../../contract/schemas/reports.js';
import { listConsumerReports } from '../../../../modules/reports/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** GET /decisioning/v1/consumers/{consumerId}/reports */
export default function getReportsByConsumer(app: App, runtime: Runtime): void {
  app.get('/decisioning/v1/consumers/:consumerId/reports', {
    schema: {
      operationId: 'GetReportsByConsumerId',
      tags: ['Reports'],
      summary: 'Get List of Reports by Consumer',
      description: "Every report about one of the partner's consumers, newest first, with its status. Another partner's consumer answers 404.",
      params: ConsumerIdParams,
      response: { 200: ReportSummaries, ...errorResponses(401, 404, 406) },
    },
    handler: async (request) => listConsumerReports(runtime, request.caller.partnerId, request.params.consumerId),
  });
}
