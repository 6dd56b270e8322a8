import { AssetReportRequest, ReportCallbackQuery } from '../../../../contract/schemas/reports.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { generateReportRoute } from './generate.js';

/** POST /decisioning/v2/customers/{customerId}/assetSummary */
export default function generatePrequalificationNonCraReport(app: App, runtime: Runtime): void {
  generateReportRoute(app, runtime, {
    type: 'assetSummary',
    url: '/decisioning/v2/customers/:customerId/assetSummary',
    operationId: 'GeneratePrequalificationNonCRAReport',
    tags: ['Verify Assets'],
    summary: 'Generate Prequalification (Non-CRA) Report',
    description: 'What the prequalification report shows, as a non-CRA asset summary.',
    body: AssetReportRequest,
    querystring: ReportCallbackQuery,
  });
}
