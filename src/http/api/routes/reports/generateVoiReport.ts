import { IncomeReportRequest, ReportCallbackQuery } from '../../../../contract/schemas/reports.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { generateReportRoute } from './generate.js';

/** POST /decisioning/v2/customers/{customerId}/voi */
export default function generateVoiReport(app: App, runtime: Runtime): void {
  generateReportRoute(app, runtime, {
    type: 'voi',
    url: '/decisioning/v2/customers/:customerId/voi',
    operationId: 'GenerateVOIReport',
    tags: ['Verify Income and Employment'],
    summary: 'Generate VOI Report for the Customer',
    description:
      'The income streams of the deposit accounts (recurring deposits, their cadence, confidence and estimates) over 24 months by default (fromDate reads less), and the summaries by confidence; incomeStreamConfidenceMinimum leaves out weaker streams.',
    body: IncomeReportRequest,
    querystring: ReportCallbackQuery,
  });
}
