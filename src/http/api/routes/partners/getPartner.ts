import { toPartnerInfoRecord } from '../../../../modules/partners/records.js';
import { readPartnerRecord } from '../../../../modules/partners/service.js';
import { whenReady } from '../../../../platform/when-ready.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { PartnerInfo } from '../../../../contract/schemas/partners.js';

/** GET /aggregation/v1/partners/me (Ledgerlink extension): the partner the credentials belong to. */
export default function getPartner(app: App, runtime: Runtime): void {
  app.get('/aggregation/v1/partners/me', {
    schema: {
      operationId: 'GetPartner',
      tags: ['Authentication'],
      summary: 'Get the calling partner (Ledgerlink extension)',
      description: 'Returns the partner that the app key and token belong to. Handy to check credentials.',
      response: { 200: PartnerInfo, ...errorResponses(401, 406) },
    },
    handler: (request) => {
      return whenReady(readPartnerRecord(runtime.database, request.caller.partnerId, request.dataStamp), toPartnerInfoRecord);
    },
  });
}
