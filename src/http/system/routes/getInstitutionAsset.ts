import Type from 'typebox';
import { isBrandingAsset, renderBrandingAsset } from '../../../modules/institutions/branding.js';
import { listedLogo } from '../../../modules/institutions/listed.service.js';
import { findInstitution } from '../../../modules/institutions/service.js';
import { ServiceError } from '../../../contract/errors/service-error.js';
import type { Runtime } from '../../../platform/dependencies.js';
import type { App } from '../../app-types.js';
import { errorResponses } from '../../../contract/schemas/common.js';

/** GET /institution/assets/{institutionId}/{asset}.svg: the branding images institution records link to. */
export default function getInstitutionAsset(app: App, runtime: Runtime): void {
  app.get('/institution/assets/:institutionId/:file', {
    schema: {
      operationId: 'GetInstitutionAsset',
      tags: ['Institutions'],
      summary: 'Institution branding image (Ledgerlink extension)',
      description:
        "An SVG image generated from the institution's name and brand colour: logo.svg and alternateLogo.svg (375 x 72), tile.svg (160 x 72), icon.svg (square). Public, no credentials needed, so pages can show it directly.",
      params: Type.Object({ institutionId: Type.String(), file: Type.String() }),
      // An image, not a JSON or XML resource: the description says so with its own media type.
      response: {
        200: {
          description: 'SVG document',
          content: {
            'image/svg+xml': {
              schema: Type.String({
                description: 'SVG document',
                examples: ['<svg xmlns="http://www.w3.org/2000/svg" width="72" height="72" viewBox="0 0 72 72">...</svg>'],
              }),
            },
          },
        },
        302: { description: "logo.svg of an institution whose source gives its own logo (Enable Banking's banks): a redirect to that image" },
        ...errorResponses(404),
      },
    },
    handler: async (request, reply) => {
      const asset = request.params.file.replace(/\.svg$/, '');
      const id = /^\d{1,9}$/.test(request.params.institutionId) ? Number(request.params.institutionId) : undefined;
      const institution = id === undefined ? undefined : await findInstitution(runtime.database, id);
      if (!institution || !request.params.file.endsWith('.svg') || !isBrandingAsset(asset)) {
        throw new ServiceError(
          'ResourceNotFound',
          'Image not found: use /institution/assets/{institutionId}/logo.svg, alternateLogo.svg, icon.svg or tile.svg',
        );
      }
      const own = asset === 'logo' ? await listedLogo(runtime.database, institution.id) : undefined;
      if (own) return reply.header('cache-control', 'public, max-age=3600').redirect(own, 302);
      return reply
        .type('image/svg+xml; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(renderBrandingAsset(institution, asset));
    },
  });
}
