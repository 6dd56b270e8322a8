import type { TSchema } from 'typebox';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { CustomerIdParams } from '../../../../contract/schemas/customers.js';
import { ReportAck, type ReportType } from '../../../../contract/schemas/reports.js';
import { generateReport, type GenerateReportBody, type GenerateReportQuery } from '../../../../modules/reports/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';

/** What every Generate Report description says of the lifecycle. */
const LIFECYCLE =
  'Answers 202 with the report `inProgress`; a worker computes it and it becomes `success` (or `failure` with `errors`): read it with Get Report (JSON, XML or PDF), or give `callbackUrl` to get a webhook when it finishes (`eventType` done or failed, signed with the partner’s webhook signing key). ' +
  'The customer must have a consumer (400, code 16000). `accountIds` narrows the accounts (an id the customer lacks: 400, code 10010). docs/reports.md says how every figure is computed.';

/** The skeleton of a Generate Report operation: one per report type, each in its own route file. */
export function generateReportRoute(
  app: App,
  runtime: Runtime,
  spec: {
    /** The report type, or how the request decides it. */
    type: ReportType | ((params: Record<string, string>, body: GenerateReportBody | undefined) => ReportType);
    url: string;
    operationId: string;
    tags: string[];
    summary: string;
    description: string;
    body: TSchema;
    querystring: TSchema;
    params?: TSchema;
  },
): void {
  app.post(spec.url, {
    schema: {
      operationId: spec.operationId,
      tags: spec.tags,
      summary: spec.summary,
      description: `${spec.description} ${LIFECYCLE}`,
      params: spec.params ?? CustomerIdParams,
      querystring: spec.querystring,
      body: spec.body,
      response: { 202: ReportAck, ...errorResponses(400, 401, 404, 406, 415) },
    },
    handler: async (request, reply) => {
      const params = request.params as { customerId: string } & Record<string, string>;
      const body = request.body as GenerateReportBody | undefined;
      const ack = await generateReport(
        runtime,
        request.caller.partnerId,
        typeof spec.type === 'function' ? spec.type(params, body) : spec.type,
        params.customerId,
        body,
        request.query as GenerateReportQuery,
      );
      return reply.code(202).send(ack);
    },
  });
}
