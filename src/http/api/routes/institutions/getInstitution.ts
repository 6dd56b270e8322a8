import { getInstitution } from '../../../../modules/institutions/service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { BrandingWrapper, InstitutionIdParams, InstitutionWrapper } from '../../../../contract/schemas/institutions.js';
import { toBrandingRecord, toInstitutionRecord } from '../../../../modules/institutions/records.js';
import { institutionPaths } from './paths.js';

/**
 * GET /institution/v2/institutions/{institutionId} and .../branding (also under /institutions/v2/...):
 * one institution, or only its branding. 404 (code 14006) when no institution has the id.
 */
export default function getInstitutionRoutes(app: App, runtime: Runtime): void {
  const common = { tags: ['Institutions'], params: InstitutionIdParams };
  for (const { path, ...names } of institutionPaths('/institution/v2/institutions/:institutionId', 'GetInstitution')) {
    app.get(path, {
      schema: {
        ...names,
        ...common,
        summary: 'Get institution by id',
        description: 'One institution with its product flags, production status and branding. 404 (code 14006) when no institution has the id.',
        response: { 200: InstitutionWrapper, ...errorResponses(400, 401, 404, 406) },
      },
      handler: async (request) => ({
        institution: toInstitutionRecord(await getInstitution(runtime.database, request.params.institutionId), runtime.config.publicUrl),
      }),
    });
  }
  for (const { path, ...names } of institutionPaths('/institution/v2/institutions/:institutionId/branding', 'GetInstitutionBranding')) {
    app.get(path, {
      schema: {
        ...names,
        ...common,
        summary: 'Get institution branding by id',
        description: "The institution's logos, icon and tile (SVG images served by Ledgerlink) and its primary colour.",
        response: { 200: BrandingWrapper, ...errorResponses(400, 401, 404, 406) },
      },
      handler: async (request) => ({
        branding: toBrandingRecord(await getInstitution(runtime.database, request.params.institutionId), runtime.config.publicUrl),
      }),
    });
  }
}
