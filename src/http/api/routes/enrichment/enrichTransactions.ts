import { errorResponses } from '../../../../contract/schemas/common.js';
import { EnrichedTransactions, EnrichTransactionsRequest, MAX_ENRICH_TRANSACTIONS } from '../../../../contract/schemas/enrichment.js';
import { enrichTransactions as enrich } from '../../../../modules/enrichment/enrich.service.js';
import type { App } from '../../../app-types.js';

/** POST /data-enrichment/transactions */
export default function enrichTransactions(app: App): void {
  app.post('/data-enrichment/transactions', {
    schema: {
      operationId: 'EnrichTransactions',
      tags: ['Transaction Data Enrichment'],
      summary: 'Enrich transactions',
      description: `The transactions given (1 to ${MAX_ENRICH_TRANSACTIONS}), passed back with the category and payee that stored transactions get from the same description and memo. Nothing is stored. 400 (10005, 10010) for a missing or malformed field or more than ${MAX_ENRICH_TRANSACTIONS} transactions. See docs/enrichment.md.`,
      body: EnrichTransactionsRequest,
      response: { 200: EnrichedTransactions, ...errorResponses(400, 401, 406, 415) },
    },
    handler: async (request) => ({ transactions: enrich(request.body.transactions) }),
  });
}
