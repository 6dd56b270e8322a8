import Type from 'typebox';

/**
 * The export formats: what each is called, answered as and saved under. The module's writers are keyed by these
 * names (src/modules/exports/service.ts), so a new format is a row here and a writer there.
 */
export const EXPORT_FORMATS = {
  csv: { label: 'CSV', mediaType: 'text/csv; charset=utf-8', extension: 'csv', description: 'One row per transaction, the account in columns' },
  ofx: { label: 'OFX', mediaType: 'application/x-ofx', extension: 'ofx', description: 'OFX 2.2 (XML): one statement per account' },
  qif: { label: 'QIF', mediaType: 'application/qif', extension: 'qif', description: 'Quicken Interchange Format: an !Account block per account' },
} as const;

export type ExportFormat = keyof typeof EXPORT_FORMATS;
export const EXPORT_FORMAT_NAMES = Object.keys(EXPORT_FORMATS) as ExportFormat[];

/** The query of both export operations. The format is checked by the service (14170), after the ids (404). */
export const ExportQuery = Type.Object({
  format: Type.String({ description: `The file format: ${EXPORT_FORMAT_NAMES.join(', ')}`, examples: ['csv'] }),
  fromDate: Type.Optional(
    Type.String({
      description: 'The earliest transaction date included: epoch seconds, or a day as YYYY-MM-DD (UTC). All history when absent.',
      examples: ['2026-01-01'],
    }),
  ),
  toDate: Type.Optional(
    Type.String({
      description: 'The latest transaction date included: epoch seconds, or a day as YYYY-MM-DD (UTC, the whole day). Everything when absent.',
      examples: ['2026-12-31'],
    }),
  ),
});
