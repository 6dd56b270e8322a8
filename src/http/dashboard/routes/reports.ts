import Type from 'typebox';
import { DashboardCustomerReports } from '../../../contract/schemas/dashboard.js';
import { Report } from '../../../contract/schemas/reports.js';
import { reportDocument } from '../../../modules/reports/document.service.js';
import { getCustomerReport, listCustomerReports } from '../../../modules/reports/service.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App, SerialisedAnswer } from '../../app-types.js';
import { CustomerParams, dashboardResponses } from './common.js';

/** GET /dashboard/api/customers/:customerId/reports: the customer's reports, newest first. */
export function getCustomerReports(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/customers/:customerId/reports', {
    schema: { hide: true, summary: "A customer's reports", params: CustomerParams, response: dashboardResponses(DashboardCustomerReports) },
    handler: async (request) => listCustomerReports(runtime, request.dashboard.partnerId, request.params.customerId),
  });
}

/** GET /dashboard/api/customers/:customerId/reports/:reportId: one report, as JSON or (`format=pdf`) its PDF, to open from the page. */
export function getCustomerReportFile(app: App, runtime: Runtime): void {
  app.get('/dashboard/api/customers/:customerId/reports/:reportId', {
    schema: {
      hide: true,
      summary: "One of a customer's reports",
      params: Type.Object({ customerId: Type.String({ maxLength: 64 }), reportId: Type.String({ maxLength: 64 }) }),
      querystring: Type.Object({ format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('pdf')])) }),
      response: dashboardResponses(Report),
    },
    handler: async (request, reply) => {
      const { record } = await getCustomerReport(runtime, request.dashboard.partnerId, request.params.customerId, request.params.reportId);
      if (request.query.format !== 'pdf') return record;
      reply.type('application/pdf').header('content-disposition', `inline; filename="${record.id}.pdf"`);
      // A Buffer is sent as it is, past the response schema's serializer.
      return (await reportDocument(runtime, request.dashboard.partnerId, record)) as SerialisedAnswer;
    },
  });
}
