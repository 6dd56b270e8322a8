import { errorResponses } from '../../../../contract/schemas/common.js';
import { ConsumerPortfolioParams, PortfolioWithConsumer } from '../../../../contract/schemas/portfolios.js';
import { getConsumerPortfolio } from '../../../../modules/reports/portfolios.service.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { PORTFOLIO_TEXT } from './text.js';

/** GET /decisioning/v1/consumers/{consumerId}/portfolios/{portfolioId} */
export default function getPortfolioByConsumer(app: App, runtime: Runtime): void {
  app.get('/decisioning/v1/consumers/:consumerId/portfolios/:portfolioId', {
    schema: {
      operationId: 'GetPortfolioByConsumer',
      tags: ['Portfolios'],
      summary: 'Get Portfolio by Consumer and Portfolio',
      description: `The portfolio of one of the partner's consumers, with the consumer. ${PORTFOLIO_TEXT} Another consumer's portfolio answers 404 (16701), another partner's consumer 404 (14001).`,
      params: ConsumerPortfolioParams,
      response: { 200: PortfolioWithConsumer, ...errorResponses(400, 401, 404, 406) },
    },
    handler: async (request) => getConsumerPortfolio(runtime, request.caller.partnerId, request.params.consumerId, request.params.portfolioId),
  });
}
