import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../../../contract/errors/service-error.js';
import type { ReportRecord } from '../../../../modules/reports/records.js';
import { reportDocument } from '../../../../modules/reports/document.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { SerialisedAnswer } from '../../../app-types.js';
import { negotiateFormat } from '../../../negotiate.js';

/** What the Get Report descriptions say of the formats. */
export const REPORT_FORMATS =
  'JSON, XML, or a PDF of the same report with `Accept: application/pdf`; a report in progress or failed is answered too (its PDF says so). `purpose`, when given, must be a two-digit permissible purpose code (400, code 16003).';

/** The q of application/pdf in an Accept header, 0 when it does not name it. */
function pdfQuality(accept: string): number {
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().split(';');
    if (range.trim().toLowerCase() !== 'application/pdf') continue;
    const q = params.map((p) => p.trim().split('=')).find(([k]) => k?.trim().toLowerCase() === 'q')?.[1];
    return q === undefined ? 1 : Math.min(Math.max(Number(q) || 0, 0), 1);
  }
  return 0;
}

/** Whether the caller asks for the PDF: application/pdf named, and not below an explicitly named JSON or XML. */
function wantsPdf(accept: string | undefined): boolean {
  if (!accept) return false;
  const pdf = pdfQuality(accept);
  if (pdf <= 0) return false;
  const others = accept.split(',').filter((p) => /^\s*(application|text)\/(json|xml)/i.test(p));
  if (others.length === 0) return true;
  // A JSON or XML named at a higher q wins.
  return !others.some((p) => {
    const q = /;\s*q=([\d.]+)/i.exec(p)?.[1];
    return (q === undefined ? 1 : Number(q)) > pdf;
  });
}

/** Answers a report in the format Accept asks: the PDF, or the record (JSON or XML, by the scope's negotiation). */
export async function sendReport(
  request: FastifyRequest,
  reply: FastifyReply,
  report: ReportRecord,
  runtime: Runtime,
): Promise<ReportRecord | SerialisedAnswer> {
  const accept = request.headers.accept;
  if (wantsPdf(accept)) {
    reply.type('application/pdf').header('content-disposition', `inline; filename="${report.id}.pdf"`);
    // A Buffer is sent as it is, past the response schema's serializer: what a serialised answer is.
    return (await reportDocument(runtime, request.caller.partnerId, report)) as SerialisedAnswer;
  }
  // The route serves any Accept (for the PDF), so what neither PDF nor JSON nor XML can answer is refused here.
  if (accept && !negotiateFormat(accept)) throw new ServiceError('NotAcceptable');
  return report;
}
