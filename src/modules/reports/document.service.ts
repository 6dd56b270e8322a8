/**
 * A report as a PDF document, as Get Report answers it with `Accept: application/pdf` and the dashboard opens it: a
 * successful statement report is its statement, as Get Asset by Customer and ID answers it (docs/reports.md, "The
 * statement report"); any other report, or a statement report whose statement is gone meanwhile (its account deleted,
 * or past the statements the account keeps), is the report's own record in words (pdf.ts).
 */
import { ServiceError } from '../../contract/errors/service-error.js';
import type { Runtime } from '../../platform/dependencies.js';
import { getAsset } from '../statements/service.js';
import { reportPdf } from './pdf.js';
import type { ReportRecord } from './records.js';

export async function reportDocument(deps: Pick<Runtime, 'database' | 'clock' | 'keys'>, partnerId: string, report: ReportRecord): Promise<Buffer> {
  if (report.type === 'statement' && report.status === 'success' && report.assetId !== undefined) {
    try {
      return (await getAsset(deps, partnerId, report.customerId, report.assetId)).content;
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
    }
  }
  return reportPdf(report);
}
